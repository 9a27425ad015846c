/**
 * Every explorer command is wrapped once here: a failure becomes one message a person can act on (PortalError
 * messages already are, and carry no secrets), a cancellation is silent, and the log keeps the detail.
 */
import * as vscode from 'vscode';
import { isPortalError } from '../api';
import { errorMessage, isCancellation } from '../shared/errors';
import type { Ui } from './ui';

export type CommandHandler = (...args: unknown[]) => unknown;

export interface CommandEnv {
  readonly log: vscode.LogOutputChannel;
  readonly ui: () => Ui;
}

export function guarded(env: CommandEnv, id: string, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      report(env, id, error);
      return undefined;
    }
  });
}

function report(env: CommandEnv, id: string, error: unknown): void {
  if (isCancellation(error)) {
    env.log.info(`${id}: cancelled`);
    return;
  }
  const message = errorMessage(error);
  env.log.warn(`${id} failed: ${message}`);
  const ui = env.ui();
  if (!isPortalError(error, 'signed-out')) {
    ui.notify('error', message);
    return;
  }
  // The sessions list offers "Sign in again" for each signed-out portal.
  void ui.choose({ id: 'error.signedOut', severity: 'error', modal: false, message, actions: [{ id: 'sessions', label: 'Show sessions' }] })
    .then((choice) => (choice ? vscode.commands.executeCommand('portal.showSessions') : undefined));
}
