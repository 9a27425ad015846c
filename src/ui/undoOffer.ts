/**
 * Undo where the change was made: every summary of a write (a member form's save, a single command, a bulk edit, an
 * apply, a change to a group, the organisation or an application) offers Undo as a button. The undo itself is
 * passed in, so the places that write need not know how it is shown and sent.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../shared/errors';
import type { Severity, Ui } from './ui';

/** The summary of a member write: its notification's id, which the tests answer. */
export const MEMBER_CHANGE_DONE = 'members.change.done';

/** Undoes the change journaled as `applyId`: its plan is shown, then applied after the usual confirmation. */
export type UndoChange = (ui: Ui, applyId: string) => Promise<void>;

/**
 * Says what happened, with an Undo button when the change was journaled and can be undone. Not awaited by callers:
 * a notification's promise settles only when it closes, and the command is over already.
 */
export function offerUndo(
  ui: Ui,
  id: `${string}.${string}`,
  undo: UndoChange | undefined,
  applyId: string | undefined,
  severity: Severity,
  message: string,
): Promise<void> {
  if (!undo || !applyId) {
    ui.notify(severity, message);
    return Promise.resolve();
  }
  return ui
    .choose({
      id,
      severity,
      modal: false,
      message,
      actions: [{ id: 'undo', label: vscode.l10n.t('Undo') }],
    })
    .then((choice) => (choice === 'undo' ? undo(ui, applyId) : undefined))
    .catch((error: unknown) => ui.notify('error', vscode.l10n.t('The undo failed: {0}', errorMessage(error))));
}
