/**
 * The questions the explorer's commands ask. The VS Code implementation uses modal dialogs and input boxes; the
 * in-VS-Code tests substitute scripted answers through the extension's test API, as sign-in does.
 */
import * as vscode from 'vscode';
import * as notify from '../shared/notify';

export interface ExplorerPrompts {
  /** A modal warning; true when the user chose `action`. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
}

export const dialogPrompts: ExplorerPrompts = {
  confirm: async (message, detail, action) =>
    (await notify.ask(message, detail, action)) === action,
  input: async (options) => vscode.window.showInputBox({ ignoreFocusOut: true, ...options }),
};

let current: ExplorerPrompts = dialogPrompts;

export function prompts(): ExplorerPrompts {
  return current;
}

/** Test hook: scripted answers, or undefined for the real dialogs. */
export function setExplorerPrompts(p: ExplorerPrompts | undefined): void {
  current = p ?? dialogPrompts;
}
