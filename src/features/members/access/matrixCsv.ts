/**
 * The access matrix, or one group's list, as CSV: the rows the page shows (same filter, same order), every cell
 * neutralised as the member export's are (csv.ts). Streamed line by line, so 20,000 rows × 500 groups never sit in
 * one string. No VS Code here.
 */
import { writeAtomically } from '../../../node/atomicFile';
import { groupPermissionWords } from '../../../shared/permissions';
import { csvLine, UTF8_BOM } from '../csv/csv';
import type { AccessMatrix } from './accessMatrix';
import {
  cellOf,
  columnOrder,
  LEVEL_PERMISSIONS,
  ROW,
  visibleRows,
  type MatrixView,
  type WireRow,
} from './matrix.protocol';

export interface MatrixCsvHeaders {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly tags: string;
  /** The level column of a group's list. */
  readonly level: string;
}

function levelWords(level: number): string {
  return level > 0 ? groupPermissionWords(LEVEL_PERMISSIONS[level] ?? level) : '';
}

export function* matrixCsvLines(matrix: AccessMatrix, view: MatrixView, headers: MatrixCsvHeaders): Generator<string> {
  const rows: WireRow[] = visibleRows(matrix.all(), view);
  const group = view.group;
  const columns = group !== undefined ? [group] : columnOrder(matrix.columns);
  const head = [headers.username, headers.name, headers.email, headers.tags];
  if (group !== undefined) head.push(headers.level);
  else for (const c of columns) head.push(matrix.columns[c] ?? '');
  yield UTF8_BOM + csvLine(head);
  for (const row of rows) {
    const cells = [
      row[ROW.username],
      row[ROW.name],
      row[ROW.email],
      row[ROW.tags].map((t) => matrix.tags[t] ?? '').join('; '),
    ];
    for (const c of columns) cells.push(levelWords(cellOf(row, c)));
    yield csvLine(cells);
  }
}

/** Writes the CSV atomically; answers the number of rows written. */
export async function writeMatrixCsv(
  file: string,
  matrix: AccessMatrix,
  view: MatrixView,
  headers: MatrixCsvHeaders,
  signal?: AbortSignal,
): Promise<number> {
  let rows = -1;
  async function* lines(): AsyncGenerator<string> {
    for (const line of matrixCsvLines(matrix, view, headers)) {
      rows++;
      yield line;
    }
  }
  await writeAtomically(file, lines(), { replace: true, ...(signal ? { signal } : {}) });
  return Math.max(0, rows);
}
