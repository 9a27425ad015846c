/**
 * The action report: one CSV row per member (row, username, action, result, message), neutralised like the
 * members export so a spreadsheet never runs a cell; and "Retry Failed", a plan of the failed rows.
 */
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { writeAtomically } from '../../../../node/atomicFile';
import { fileFacts } from '../../../../node/disk';
import { inFolder, PRIVATE_FILE_MODE } from '../../../../node/privateFiles';
import { csvLine, UTF8_BOM } from '../../csv/csv';
import type { Plan, PlanChange, ReportRow } from './model';

/** Where action reports are written: the extension's storage, not the user's folders. */
export const reportsFolderOf = (storage: string): string => path.join(storage, 'reports');

/**
 * The names an apply's report may have, the one to write first: "apply-2027-02-03-1012.csv", when the run began
 * (local time, to the minute, from the run's id); the id's random part is added when another run of that minute has
 * the name already ("apply-2027-02-03-1012-dbe866cc.csv"); reports written before were named "report-<id>.csv".
 * An id that is not the engine's (a journal edited by hand) has only that last name.
 */
export function reportNames(applyId: string): {
  readonly first: string;
  readonly taken: string;
  readonly older: string;
} {
  const older = `report-${applyId}.csv`;
  const m = /^(\d{14})-([0-9a-f]{8})$/.exec(applyId);
  const at = m ? new Date(Number(m[1])) : undefined;
  if (!m || !at || Number.isNaN(at.getTime())) return { first: older, taken: older, older };
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}-${two(at.getHours())}${two(at.getMinutes())}`;
  return { first: `apply-${stamp}.csv`, taken: `apply-${stamp}-${m[2]}.csv`, older };
}

/** Where an apply's report is written in `folder`: its first name, unless another run's report holds it already. */
export async function newReportFile(folder: string, applyId: string): Promise<string> {
  const names = reportNames(applyId);
  const first = inFolder(folder, names.first);
  return (await fileFacts(first)) ? inFolder(folder, names.taken) : first;
}

/** An apply's report in `folder`, by the most particular of its names that is there; undefined when none is. */
export async function reportFileOf(folder: string, applyId: string): Promise<string | undefined> {
  const names = reportNames(applyId);
  for (const name of [names.taken, names.first, names.older]) {
    const file = inFolder(folder, name);
    if ((await fileFacts(file))?.isFile) return file;
  }
  return undefined;
}

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
