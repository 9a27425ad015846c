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
import { membersSigned, signInWire, type OthersView } from './outsiders/outsiders.protocol';
import { hasSignIns, outsiderCsvLines, signInCell } from './outsiders/outsidersCsv';

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
  /** The sign-in column, written when the audit was read. */
  readonly signIn?: string | undefined;
}

export interface MatrixCsvOptions {
  readonly headers: MatrixCsvHeaders;
  /** The line before the header: the filters and the read time, in words. */
  readonly about?: string | undefined;
  /** The time "inactive N days" counts from (the page's, so both show the same rows). */
  readonly now?: number | undefined;
  /**
   * The page's guests', invitations' and sign-in filters (outsiders/): with them, the CSV has the members' last
   * sign-in (when the audit was read) and, after the members, the guests and invitations those filters show.
   */
  readonly others?: OthersView | undefined;
}

/** A day as the members file writes dates: 2026-01-31. */
function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function* matrixCsvLines(matrix: AccessMatrix, view: MatrixView, options: MatrixCsvOptions): Generator<string> {
  const { headers } = options;
  const others = options.others;
  const rows: WireRow[] = membersSigned(
    visibleRows(matrix.all(), view, options.now),
    others ?? {},
    signInWire(matrix.signIns),
    (r) => ({
      username: r[ROW.username],
      lastActive: r[ROW.lastActive],
    }),
  );
  const signIns = others !== undefined && hasSignIns(matrix);
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
  if (signIns) head.push(headers.signIn ?? 'Last sign-in');
  if (group !== undefined) head.push(headers.level);
  else for (const c of columns) head.push(matrix.label(c));
  // One line held back, so the guests and invitations go out with the last: the caller counts a line per member.
  let held = UTF8_BOM + (options.about !== undefined ? csvLine([options.about]) : '') + csvLine(head);
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
    if (signIns) cells.push(signInCell(matrix, row[ROW.username]));
    for (const c of columns) cells.push(levelWord(cellOf(row, c)));
    yield held;
    held = csvLine(cells);
  }
  if (others !== undefined) {
    const groupName = group !== undefined ? matrix.columns[group] : undefined;
    for (const line of outsiderCsvLines(matrix, others, options.now ?? Date.now(), groupName)) held += line;
  }
  yield held;
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
