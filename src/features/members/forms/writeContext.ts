/**
 * What a member form needs to save through the write engine: where changes are journaled, the change's words in
 * the history, and the Undo its summary offers.
 */
import type { MemberEdit } from '../../../engine/members/edits';
import { runEdit, type EditDone } from '../../../engine/members/edits';
import { clientOf, type AccountContext } from '../../../forms/context';
import type { Ui } from '../../../ui/ui';
import { MEMBER_CHANGE_DONE, offerUndo, type UndoChange } from '../../../ui/undoOffer';

export interface WriteContext extends AccountContext {
  /** The extension's storage folder: the journal of every change is kept there. */
  readonly storage: string;
  /** Undoes a journaled change: what the save summary's Undo button does. */
  readonly undo?: UndoChange;
}

/** Sends one member's edit through the engine; throws the portal's refusal, so the form shows it at its field. */
export function saveEdit(ctx: WriteContext, title: string, edit: MemberEdit): Promise<EditDone> {
  const head = { accountId: ctx.accountId, portalId: ctx.portalId, origin: 'form' as const, title };
  // The form compares the answer with what it sent field by field, and names each field that did not take.
  return runEdit(clientOf(ctx), head, edit, { journalFolder: ctx.storage, verifyAnswers: false });
}

/** Besides the form's own line, the save's summary with Undo. */
export function offerFormUndo(ui: Ui, ctx: WriteContext, done: EditDone, message: string): void {
  void offerUndo(ui, MEMBER_CHANGE_DONE, ctx.undo, done.applyId, 'info', message);
}
