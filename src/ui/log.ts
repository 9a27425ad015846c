import * as vscode from 'vscode';

/**
 * The "Portal" output channel. Request lines arrive already redacted by src/api; everything else
 * that is logged passes through the same redactor there, so nothing secret reaches the log.
 */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Portal', { log: true });
}
