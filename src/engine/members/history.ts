/**
 * The history of member changes made from this machine: every journal, newest first, with what became of each.
 *
 * Undo goes member by member: an undo run names the change it reverses (`undoOf`) and lists the members it put back,
 * so a change undone for some of its members stays undoable for the rest, and a member put back is never offered
 * again. Nothing new is journaled for this: the undo runs' own work and outcomes say who was put back.
 */
import { listJournals } from './journal';
import { allChanges, type JournalRecord, type Plan } from './model';
import { undoPlan } from './undo';

export interface PastChange {
  readonly record: JournalRecord;
  /** Every member an undo could put back has been put back: it is never offered for undo again. */
  readonly undone: boolean;
  /**
   * It can be undone now, for some member at least: finished, not discarded, not itself an undo, and it changed
   * someone in a way an undo can put back who has not been put back yet.
   */
  readonly undoable: boolean;
  /** Usernames an undo could put back (as the run spelled them), whether put back since or not. */
  readonly members: readonly string[];
  /** Of `members`, those an undo has put back. */
  readonly undoneMembers: readonly string[];
}

/** Usernames a plan changes, once each, in plan order. */
export function membersOf(plan: Plan): string[] {
  const seen = new Map<string, string>();
  for (const c of allChanges(plan))
    if (!seen.has(c.username.toLowerCase())) seen.set(c.username.toLowerCase(), c.username);
  return [...seen.values()];
}

/**
 * Lower-case usernames the undo runs of `applyId` put back: each undo unit that finished done, or skipped (already as
 * the undo would make them, or gone from the portal: nothing left to put back). A unit that failed or never finished
 * leaves its member to undo.
 */
export function undoneMembersOf(applyId: string, all: readonly JournalRecord[]): Set<string> {
  const undone = new Set<string>();
  for (const r of all) {
    if (r.begin.undoOf !== applyId) continue;
    for (const w of r.begin.work) {
      const result = r.outcomes.get(w.seq)?.result;
      if (result === 'done' || result === 'skipped') undone.add(w.username.toLowerCase());
    }
  }
  return undone;
}

/** What became of one change, given every journal (for the undo runs that name it). Pure. */
export function pastChangeOf(record: JournalRecord, all: readonly JournalRecord[]): PastChange {
  const undoneSet = undoneMembersOf(record.applyId, all);
  const hasUndo = all.some((r) => r.begin.undoOf === record.applyId);
  // Something done that an undo can put back (a removal whose user lives on elsewhere cannot be).
  const members = membersOf(undoPlan(record));
  const undoneMembers = members.filter((m) => undoneSet.has(m.toLowerCase()));
  const left = members.length - undoneMembers.length;
  const undoable = left > 0 && !record.unfinished && !record.end?.discarded && record.begin.origin !== 'undo';
  return { record, undone: hasUndo && left === 0, undoable, members, undoneMembers };
}

/** The undo plan of what is left of a change: every member not put back yet, or only those of `only`. */
export function remainingUndoPlan(past: PastChange, only?: readonly string[], now: number = Date.now()): Plan {
  const done = new Set(past.undoneMembers.map((m) => m.toLowerCase()));
  const chosen = only ? new Set(only.map((m) => m.toLowerCase())) : undefined;
  return undoPlan(past.record, now, (username) => {
    const key = username.toLowerCase();
    return !done.has(key) && (!chosen || chosen.has(key));
  });
}

/** Every change, newest first. A redo is not offered: it is a plan like any other. */
export async function changeHistory(storageFolder: string): Promise<PastChange[]> {
  const all = await listJournals(storageFolder);
  return all.map((record) => pastChangeOf(record, all));
}
