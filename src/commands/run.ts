/**
 * Every explorer command is wrapped once here: a failure becomes one message a person can act on (PortalError
 * messages already are, and carry no secrets), a cancellation is silent, and the log keeps the detail.
 */
import * as vscode from 'vscode';
import { isPortalError } from '../api';
import { errorMessage, isCancellation } from '../shared/errors';
import * as notify from '../shared/notify';

export type CommandHandler = (...args: unknown[]) => unknown;

export function guarded(log: vscode.LogOutputChannel, id: string, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (isCancellation(error)) return undefined;
      const message = errorMessage(error);
      log.warn(`${id} failed: ${message}`);
      if (isPortalError(error, 'signed-out')) {
        // The sessions list offers "Sign in again" for each signed-out portal.
        const choice = await notify.error(message, 'Show sessions');
        if (choice) await vscode.commands.executeCommand('portal.showSessions');
        return undefined;
      }
      void notify.error(message);
      return undefined;
    }
  });
}
