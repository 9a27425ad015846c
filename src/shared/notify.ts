/**
 * The only way the extension shows a notification, a progress title or a status-bar message. Each message is
 * passed through `plain()` whole: our own messages never carry links or icons, and every one of them may quote
 * a name or an error the portal wrote. Lint forbids calling VS Code's show*Message, withProgress and
 * setStatusBarMessage anywhere else.
 */
import * as vscode from 'vscode';
import { plain } from './plainText';

export function info<T extends string>(message: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(plain(message), ...actions);
}

export function warn<T extends string>(message: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(plain(message), ...actions);
}

export function error<T extends string>(message: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(plain(message), ...actions);
}

/** A modal question; resolves with the action chosen, undefined when dismissed. */
export function ask<T extends string>(message: string, detail: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(plain(message), { modal: true, detail: plain(detail, { multiline: true, maxLength: 4000 }) }, ...actions);
}

export function status(message: string, hideAfterMs: number): vscode.Disposable {
  return vscode.window.setStatusBarMessage(plain(message), hideAfterMs);
}

type ProgressTask<R> = (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>;

/** Progress with a title (and messages) shown as plain text. */
export function progress<R>(options: vscode.ProgressOptions, task: ProgressTask<R>): Promise<R> {
  const titled = options.title === undefined ? options : { ...options, title: plain(options.title) };
  return Promise.resolve(vscode.window.withProgress(titled, (p, token) => task({
    report: (value) => p.report(value.message === undefined ? value : { ...value, message: plain(value.message) }),
  }, token)));
}
