/**
 * The action report: one CSV row per member (row, username, action, result, message), neutralised like the
 * members export so a spreadsheet never runs a cell; and "Retry Failed", a plan of the failed rows.
 */
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { writeAtomically } from '../../../../node/atomicFile';
import { PRIVATE_FILE_MODE } from '../../../../node/privateFiles';
import { csvLine, UTF8_BOM } from '../../csv/csv';
import type { Plan, PlanChange, ReportRow } from './model';

/** Where action reports are written: the extension's storage, not the user's folders. */
export const reportsFolderOf = (storage: string): string => path.join(storage, 'reports');

export const REPORT_COLUMNS = ['row', 'username', 'action', 'result', 'message'] as const;

/** The report as CSV text, header first, with the UTF-8 byte order mark unless `bom` is false. */
export function reportCsv(rows: readonly ReportRow[], options: { readonly bom?: boolean } = {}): string {
  let text = options.bom === false ? '' : UTF8_BOM;
  text += csvLine([...REPORT_COLUMNS]);
  for (const r of rows)
    text += csvLine([r.row === undefined ? '' : String(r.row), r.username, r.action, r.result, r.message]);
  return text;
}

/** Writes the report to `file` atomically, readable by the user alone (it names members and what was done to them). */
export async function writeReport(file: string, rows: readonly ReportRow[]): Promise<void> {
  await writeAtomically(file, Readable.from([reportCsv(rows)]), { replace: true, mode: PRIVATE_FILE_MODE });
}

/** Counts by result, for the summary the UI shows. */
export function reportCounts(rows: readonly ReportRow[]): Readonly<Record<ReportRow['result'], number>> {
  const counts = { done: 0, failed: 0, skipped: 0, 'not-started': 0 };
  for (const r of rows) counts[r.result]++;
  return counts;
}

/** The plan of the changes whose rows failed or were not started (left-out changes stay out). */
export function retryFailed(plan: Plan, rows: readonly ReportRow[], now: number = Date.now()): Plan {
  const again = new Set(
    rows.filter((r) => r.result === 'failed' || r.result === 'not-started').flatMap((r) => r.changeIds),
  );
  const keep = <T extends PlanChange>(list: readonly T[]): T[] => list.filter((c) => again.has(c.id));
  const conflicts = plan.conflicts
    .map((c) => ({ ...c, changeIds: c.changeIds.filter((id) => again.has(id)) }))
    .filter((c) => c.changeIds.length > 0);
  return {
    ...plan,
    origin: 'retry',
    createdAt: now,
    newMembers: keep(plan.newMembers),
    fieldChanges: keep(plan.fieldChanges),
    groupChanges: keep(plan.groupChanges),
    disabled: keep(plan.disabled),
    absent: keep(plan.absent),
    conflicts,
    permanentDeletions: plan.permanentDeletions.filter((id) => again.has(id)),
    // What ran was chosen already: a conflict the user chose stays chosen.
    leftOutByDefault: [],
  };
}
