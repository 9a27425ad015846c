/**
 * The action report: one CSV row per member (row, username, action, result, message), neutralised like the
 * members export so a spreadsheet never runs a cell; and "Retry Failed", a plan of the failed rows.
 */
import type { Plan, ReportRow } from './model';

export const REPORT_COLUMNS = ['row', 'username', 'action', 'result', 'message'] as const;

/** The report as CSV text, header first, with the UTF-8 byte order mark unless `bom` is false. */
export function reportCsv(rows: readonly ReportRow[], options: { readonly bom?: boolean } = {}): string {
  void rows;
  void options;
  throw new Error('not yet');
}

/** Writes the report to `file` atomically. */
export async function writeReport(file: string, rows: readonly ReportRow[]): Promise<void> {
  void file;
  void rows;
  throw new Error('not yet');
}

/** Counts by result, for the summary the UI shows. */
export function reportCounts(rows: readonly ReportRow[]): Readonly<Record<ReportRow['result'], number>> {
  void rows;
  throw new Error('not yet');
}

/** The plan of the changes whose rows failed or were not started (left-out changes stay out). */
export function retryFailed(plan: Plan, rows: readonly ReportRow[], now: number = Date.now()): Plan {
  void plan;
  void rows;
  void now;
  throw new Error('not yet');
}
