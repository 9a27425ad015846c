/**
 * The questions the explorer's commands ask. The VS Code implementation uses modal dialogs and input boxes; the
 * in-VS-Code tests substitute scripted answers through the extension's test API, as sign-in does.
 */
import * as vscode from 'vscode';

export type SecretChoice = 'copy' | 'use-here' | undefined;

export interface ExplorerPrompts {
  /** A modal warning; true when the user chose `action`. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  /** Shows a new client secret once. `canUseHere` offers to store it for this window's portal. */
  showSecret(applicationName: string, secret: string, canUseHere: boolean): Promise<SecretChoice>;
}

export const dialogPrompts: ExplorerPrompts = {
  confirm: async (message, detail, action) =>
    (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action,
  input: async (options) => vscode.window.showInputBox({ ignoreFocusOut: true, ...options }),
  showSecret: async (applicationName, secret, canUseHere) => {
    const copy = 'Copy';
    const useHere = 'Use for this portal';
    const choice = await vscode.window.showWarningMessage(
      `New client secret of "${applicationName}"`,
      {
        modal: true,
        detail: `${secret}\n\nThis is the only time the portal shows it. Copy it now: it is not stored or logged.${canUseHere ? ' This window signs in with this application; choose "Use for this portal" to keep it in secret storage so this window stays signed in.' : ''}`,
      },
      ...(canUseHere ? [useHere, copy] : [copy]),
    );
    if (choice === copy) return 'copy';
    if (choice === useHere) return 'use-here';
    return undefined;
  },
};

let current: ExplorerPrompts = dialogPrompts;

export function prompts(): ExplorerPrompts {
  return current;
}

/** Test hook: scripted answers, or undefined for the real dialogs. */
export function setExplorerPrompts(p: ExplorerPrompts | undefined): void {
  current = p ?? dialogPrompts;
}
