/** The action report of a run of member work: one row per planned member, with its outcome. Pure. */
import type { JournalWork, ReportAction, ReportResult, ReportRow } from './model';

/** Report rows for every work item: its outcome, or not started. */
export function reportRows(
  items: readonly JournalWork[],
  outcomes: ReadonlyMap<number, { result: ReportResult; message: string }>,
): ReportRow[] {
  return items.map((w) => {
    const o = outcomes.get(w.seq);
    const action: ReportAction = w.action;
    const result = o?.result ?? 'not-started';
    return { row: w.row, username: w.username, action, result, message: o?.message ?? '', changeIds: w.changeIds };
  });
}
