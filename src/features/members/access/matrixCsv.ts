/**
 * The access matrix, or one group's list, as CSV: the rows the page shows (same filter, same order, the same member
 * columns), every cell neutralised as the member export's are (csv.ts). Its first line says which filters made it
 * and when the portal was read, so a file passed on still answers "as of when, and of whom". Streamed line by line,
 * so 20,000 rows × 500 groups never sit in one string. No VS Code here.
 */
import { writeAtomically } from '../../../node/atomicFile';
import { cellOf, ROW, type WireRow } from '../../../shared/accessRow';
import { accountPermissionWords } from '../../../shared/permissions';
import { csvLine, UTF8_BOM } from '../csv/csv';
import type { AccessMatrix } from './store/accessMatrix';
import { columnOrder, levelWord, stateWords, visibleRows, type MatrixView } from './matrix.protocol';

export interface MatrixCsvHeaders {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly tags: string;
  readonly lastActive: string;
  readonly state: string;
  readonly permission: string;
  /** The level column of a group's list. */
  readonly level: string;
  /** The last-active cell of a member never active. */
  readonly never: string;
}

export interface MatrixCsvOptions {
  readonly headers: MatrixCsvHeaders;
  /** The line before the header: the filters and the read time, in words. */
  readonly about?: string | undefined;
  /** The time "inactive N days" counts from (the page's, so both show the same rows). */
  readonly now?: number | undefined;
}

/** A day as the members file writes dates: 2026-01-31. */
function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function* matrixCsvLines(matrix: AccessMatrix, view: MatrixView, options: MatrixCsvOptions): Generator<string> {
  const { headers } = options;
  const rows: WireRow[] = visibleRows(matrix.all(), view, options.now);
  const group = view.group;
  const columns = group !== undefined ? [group] : columnOrder(matrix.columns.map((_, i) => matrix.label(i)));
  const head = [
    headers.username,
    headers.name,
    headers.email,
    headers.tags,
    headers.lastActive,
    headers.state,
    headers.permission,
  ];
  if (group !== undefined) head.push(headers.level);
  else for (const c of columns) head.push(matrix.label(c));
  yield UTF8_BOM + (options.about !== undefined ? csvLine([options.about]) : '') + csvLine(head);
  for (const row of rows) {
    const last = row[ROW.lastActive];
    const cells = [
      row[ROW.username],
      row[ROW.name],
      row[ROW.email],
      row[ROW.tags].map((t) => matrix.tags[t] ?? '').join('; '),
      last >= 0 ? isoDay(last) : headers.never,
      stateWords(row),
      accountPermissionWords(row[ROW.permission]),
    ];
    for (const c of columns) cells.push(levelWord(cellOf(row, c)));
    yield csvLine(cells);
  }
}

/** Writes the CSV atomically; answers the number of rows written. */
export async function writeMatrixCsv(
  file: string,
  matrix: AccessMatrix,
  view: MatrixView,
  options: MatrixCsvOptions,
  signal?: AbortSignal,
): Promise<number> {
  let rows = -1;
  async function* lines(): AsyncGenerator<string> {
    for (const line of matrixCsvLines(matrix, view, options)) {
      rows++;
      yield line;
    }
  }
  await writeAtomically(file, lines(), { replace: true, ...(signal ? { signal } : {}) });
  return Math.max(0, rows);
}
