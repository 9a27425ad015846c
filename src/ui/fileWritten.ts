/** Says a local file was written and offers to open it or show it in the system's file manager; nobody has to answer. */
import * as vscode from 'vscode';
import type { ChooseOptions, Ui } from './ui';

export function announceFileWritten(ui: Ui, id: ChooseOptions<string>['id'], message: string, file: string): void {
  const uri = vscode.Uri.file(file);
  void ui
    .choose({
      id,
      severity: 'info',
      modal: false,
      message,
      actions: [
        { id: 'open', label: vscode.l10n.t('Open') },
        { id: 'reveal', label: vscode.l10n.t('Reveal in Explorer') },
      ],
    })
    .then((choice) => {
      if (choice === 'open') void vscode.commands.executeCommand('vscode.open', uri);
      if (choice === 'reveal') void vscode.commands.executeCommand('revealFileInOS', uri);
    });
}
