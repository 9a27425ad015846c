/**
 * The access matrix after a reload of the window: VS Code hands back the panel with the state its page kept (which
 * organisation, which filter), and the panel shows the stored reads of that organisation again, reading nothing
 * from the portal (see MatrixPanels.revive).
 */
import * as vscode from 'vscode';
import type { MatrixPanels } from './commands';
import { MATRIX_VIEW_TYPE } from './matrixPanel';

export function registerMatrixSerializer(panels: MatrixPanels): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(MATRIX_VIEW_TYPE, {
    deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
      panels.revive(panel, state);
      return Promise.resolve();
    },
  });
}
