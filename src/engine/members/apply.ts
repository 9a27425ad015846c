/**
 * A plan's apply and the resume of a run that stopped: what to run (the plan's chosen changes as member work, or
 * what a journal has left) handed to the run (run.ts).
 */
import { cancelledError } from '../../api/index';
import { Journal } from '../journalFile';
import { memberJournal } from './journalSchema';
import { MemberKind, type ApplyClient } from './kind';
import type { JournalRecord, Plan, ReportResult } from './model';
import { reportRows } from './report';
import { runJournal, runMemberWork, snapshotsOf, type ApplyResult, type RunHead, type RunSettings } from './run';
import { remainingPlan } from './undo';
import { chosenChanges, workOf } from './work';

export type { ApplyClient } from './kind';
export { reportRows } from './report';
export { runMemberWork, type ApplyProgress, type ApplyResult, type RunHead, type RunSettings } from './run';
export { chosenChanges, countPlan, workOf, type PlanCounts } from './work';

export interface ApplyOptions extends RunSettings {
  /** The portal's id, kept in the journal so a resume after a reload finds the client. */
  readonly portalId: string;
  /** Change ids left out; default `plan.leftOutByDefault`. */
  readonly leftOut?: ReadonlySet<string>;
  /** The run this one undoes (set by the UI when it applies an undo plan). */
  readonly undoOf?: string;
  /** The change in the user's words, for the history and Undo ("Disable 27 members"). */
  readonly title?: string;
  /** The organisation's name, kept in the journal for the history after a reload. */
  readonly accountLabel?: string;
}

/** Applies the plan minus the left-out changes. Throws only before the first request (journal folder unusable). */
export function applyPlan(client: ApplyClient, plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  const items = workOf(plan, chosenChanges(plan, options.leftOut));
  const head: RunHead = {
    accountId: plan.accountId,
    portalId: options.portalId,
    origin: plan.origin,
    ...((options.title ?? plan.title) ? { title: options.title ?? plan.title } : {}),
    ...(options.accountLabel ? { accountLabel: options.accountLabel } : {}),
    ...((options.undoOf ?? plan.undoOf) ? { undoOf: options.undoOf ?? plan.undoOf } : {}),
  };
  return runMemberWork(client, head, items, options);
}

export interface ResumeOptions extends RunSettings {
  /**
   * Shown the plan of what remains (read under the journal's lock, after the journal was checked) before anything is
   * sent; false, or a throw, sends nothing. A journal is a file that can be edited, so what it says is shown first.
   */
  readonly confirm: (remaining: Plan, record: JournalRecord) => Promise<boolean>;
}

/** The report of a run as its journal holds it, plus what this session sent. */
function resumedResult(
  record: JournalRecord,
  run?: Pick<ApplyResult, 'requests' | 'cancelled' | 'stoppedBy'> & {
    readonly outcomes: ReadonlyMap<number, { result: ReportResult; message: string }>;
  },
  kind?: MemberKind,
): ApplyResult {
  const outcomes = new Map<number, { result: ReportResult; message: string }>(record.outcomes);
  for (const [seq, o] of run?.outcomes ?? []) outcomes.set(seq, o);
  const rest = run
    ? { requests: run.requests, cancelled: run.cancelled, ...(run.stoppedBy ? { stoppedBy: run.stoppedBy } : {}) }
    : { requests: 0, cancelled: false };
  return {
    applyId: record.applyId,
    journalFile: record.file,
    rows: reportRows(record.begin.work, outcomes),
    ...rest,
    answers: kind?.answers ?? new Map(),
    answersV2: kind?.answersV2 ?? new Map(),
    errors: kind?.errors ?? new Map(),
  };
}

/**
 * Finishes an unfinished run: each member started but not confirmed is checked against the portal first (see
 * MemberKind.resume), members never started are run. The run's journal gets the outcomes and its end. The journal
 * is locked for the whole resume (throws 'conflict' while another window or process runs it), read again under the
 * lock and checked value by value ('invalid-input'), and what remains is confirmed before anything is sent.
 */
export async function resumeApply(
  client: ApplyClient,
  stale: Pick<JournalRecord, 'file'>,
  options: ResumeOptions,
): Promise<ApplyResult> {
  const { journal, record } = await Journal.reopen(memberJournal, stale);
  try {
    if (!record.unfinished) {
      await journal.close();
      return resumedResult(record);
    }
    if (!(await options.confirm(remainingPlan(record), record))) throw cancelledError();
  } catch (error) {
    await journal.close();
    throw error;
  }
  const kind = new MemberKind(client, record.begin.accountId, { ...options, snapshotFolder: snapshotsOf(options) });
  const items = record.begin.work.filter((w) => !record.outcomes.has(w.seq));
  const run = await runJournal(kind, journal, items, options, (w, c) => kind.resume(w, record.intents.get(w.seq), c));
  return resumedResult(record, run, kind);
}

export type { JournalRecord };
