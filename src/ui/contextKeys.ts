import * as vscode from 'vscode';

/**
 * Context keys set through here are remembered as well as sent: VS Code offers no way to read a context key back,
 * and the tests must see what the workbench was told (a walkthrough step ticks on it).
 */
const told = new Map<string, boolean>();

export function setContextKey(key: string, value: boolean): Thenable<unknown> {
  told.set(key, value);
  return vscode.commands.executeCommand('setContext', key, value);
}

/** The value last sent for `key` in this session; undefined when it was never set. */
export function contextKeyValue(key: string): boolean | undefined {
  return told.get(key);
}
