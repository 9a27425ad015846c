/** The history of member changes made from this machine: every journal, newest first, with what became of each. */
import { listJournals } from './journal';
import { allChanges, type JournalRecord } from './model';
import { undoPlan } from './undo';

export interface PastChange {
  readonly record: JournalRecord;
  /** An undo has reversed it: it is never offered for undo again. */
  readonly undone: boolean;
  /**
   * It can be undone now: finished, not discarded, not undone, not itself an undo, and it changed someone in a way an
   * undo can put back.
   */
  readonly undoable: boolean;
}

/** Every change, newest first. A redo is not offered: it is a plan like any other. */
export async function changeHistory(storageFolder: string): Promise<PastChange[]> {
  const all = await listJournals(storageFolder);
  const undone = new Set(all.map((r) => r.begin.undoOf).filter((id): id is string => id !== undefined));
  return all.map((record) => {
    const isUndone = undone.has(record.applyId);
    // Something done that an undo can put back (a removal whose user lives on elsewhere cannot be).
    const changed = allChanges(undoPlan(record)).length > 0;
    const undoable =
      !isUndone && !record.unfinished && !record.end?.discarded && record.begin.origin !== 'undo' && changed;
    return { record, undone: isUndone, undoable };
  });
}
