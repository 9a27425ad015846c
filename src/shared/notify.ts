/**
 * The only way the extension shows a notification, a progress title or a status-bar message. Each message is
 * passed through `plain()` whole: our own messages never carry links or icons, and every one of them may quote
 * a name or an error the portal wrote. Lint forbids calling VS Code's show*Message, withProgress and
 * setStatusBarMessage anywhere else.
 */
import * as vscode from 'vscode';
import { plain } from './plainText';

export type NotificationKind = 'info' | 'warn' | 'error' | 'ask' | 'status' | 'progress';

let observer: ((kind: NotificationKind, text: string) => void) | undefined;

/** Under test only: every text exactly as it is handed to VS Code, so a suite can check what a person saw. */
export function observeNotifications(listener: ((kind: NotificationKind, text: string) => void) | undefined): void {
  observer = listener;
}

function shown(kind: NotificationKind, text: string): string {
  observer?.(kind, text);
  return text;
}

export function info<T extends string>(message: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(shown('info', plain(message)), ...actions);
}

export function warn<T extends string>(message: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(shown('warn', plain(message)), ...actions);
}

export function error<T extends string>(message: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(shown('error', plain(message)), ...actions);
}

/** A modal question; resolves with the action chosen, undefined when dismissed. */
export function ask<T extends string>(message: string, detail: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(shown('ask', plain(message)), { modal: true, detail: shown('ask', plain(detail, { multiline: true, maxLength: 4000 })) }, ...actions);
}

export function status(message: string, hideAfterMs: number): vscode.Disposable {
  return vscode.window.setStatusBarMessage(shown('status', plain(message)), hideAfterMs);
}

type ProgressTask<R> = (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>;

/** Progress with a title (and messages) shown as plain text. */
export function progress<R>(options: vscode.ProgressOptions, task: ProgressTask<R>): Promise<R> {
  const titled = options.title === undefined ? options : { ...options, title: shown('progress', plain(options.title)) };
  return Promise.resolve(vscode.window.withProgress(titled, (p, token) => task({
    report: (value) => p.report(value.message === undefined ? value : { ...value, message: shown('progress', plain(value.message)) }),
  }, token)));
}
