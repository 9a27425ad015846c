/**
 * Every command is registered here, once, with the rules all of them share:
 * - provenance: a command works only on rows this extension made (Vouched); any other argument is dropped and
 *   logged, and the command behaves exactly as from the palette (it asks);
 * - cancellation: a withheld answer or a cancelled progress ends the command quietly;
 * - errors: one notification with a message a person can act on; a signed-out portal offers its sessions.
 */
import * as vscode from 'vscode';
import { isPortalError } from '../api/errors';
import { errorMessage, isCancellation } from '../shared/errors';
import type { Ref } from '../shared/refs';
import type { Ui } from './ui';
import { Vouched } from './vouched';

export interface CommandEnv {
  readonly ui: () => Ui;
  readonly log: vscode.LogOutputChannel;
  /** Offered with an error that says a portal is signed out. */
  readonly showSessions: (ui: Ui) => Promise<void>;
}

export interface Run {
  readonly ui: Ui;
  /** The row the command ran on, only when it came from this extension. */
  readonly node: Vouched | undefined;
  /** What that row names. */
  readonly target: Ref | undefined;
  /** All selected rows of a multi-select view (VS Code passes (clicked, selected[])); empty otherwise. */
  readonly selection: readonly Ref[];
}

export function registerCommand(env: CommandEnv, id: string, handler: (run: Run) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    const ui = env.ui();
    const [first, second] = args;
    const node = Vouched.is(first) ? first : undefined;
    const selected =
      Array.isArray(second) && second.length > 0 && second.every((n) => Vouched.is(n)) ? (second as Vouched[]) : [];
    const ignored = args.filter((a) => a !== undefined).length - (node ? 1 : 0) - (selected.length > 0 ? 1 : 0);
    if (ignored > 0) env.log.info(`${id}: ignored ${ignored} argument(s) that did not come from this extension`);
    try {
      return await handler({ ui, node, target: node?.ref, selection: selected.flatMap((n) => (n.ref ? [n.ref] : [])) });
    } catch (error) {
      report(env, ui, id, error);
      return undefined;
    }
  });
}

function report(env: CommandEnv, ui: Ui, id: string, error: unknown): void {
  if (isCancellation(error)) {
    env.log.info(`${id}: cancelled`);
    return;
  }
  // PortalError messages are already redacted by the API layer.
  const message = errorMessage(error);
  env.log.warn(`${id} failed: ${message}`);
  if (!isPortalError(error, 'signed-out')) {
    ui.notify('error', message);
    return;
  }
  void ui
    .choose({
      id: 'error.signedOut',
      severity: 'error',
      modal: false,
      message,
      actions: [{ id: 'sessions', label: vscode.l10n.t('Show sessions') }],
    })
    .then((choice) => (choice ? env.showSessions(ui) : undefined));
}
