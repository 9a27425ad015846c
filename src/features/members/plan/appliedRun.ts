/**
 * An apply as its journal tells it, found by the plan's title: what another feature recorded of a plan it put in the
 * Plan view when the window that showed it is gone (a reload between showing and applying, a run resumed after one),
 * so the event that would have told it never came. Only a run that ended is answered; the report is the one the apply
 * wrote, when it is there.
 */
import { listJournals } from '../../../engine/members/index';
import type { AccountRef } from '../../../shared/refs';
import { reportFileOf, reportsFolderOf } from './core/report';

export interface AppliedRun {
  readonly report: string;
  readonly at: number;
  readonly done: number;
  /** Failed or not started. */
  readonly failed: number;
}

/** The first apply of `title` to the organisation that began at or after `since` and ended; undefined when none. */
export async function appliedRun(
  storage: string,
  account: Pick<AccountRef, 'portalId' | 'accountId'>,
  title: string,
  since: number,
): Promise<AppliedRun | undefined> {
  const runs = (await listJournals(storage))
    .filter(
      (r) =>
        r.begin.portalId === account.portalId &&
        r.begin.accountId === account.accountId &&
        r.begin.title === title &&
        r.begin.startedAt >= since &&
        r.begin.origin !== 'undo' &&
        r.end !== undefined &&
        !r.end.discarded,
    )
    .sort((a, b) => a.begin.startedAt - b.begin.startedAt);
  const run = runs[0];
  if (!run?.end) return undefined;
  let done = 0;
  let failed = 0;
  for (const w of run.begin.work) {
    const result = run.outcomes.get(w.seq)?.result;
    if (result === 'done') done++;
    else if (result !== 'skipped') failed++;
  }
  const report = (await reportFileOf(reportsFolderOf(storage), run.applyId)) ?? '';
  return { report, at: run.end.finishedAt, done, failed };
}
