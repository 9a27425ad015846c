/**
 * What checking and planning a file need to know of all its rows before they look at any one of them: where each
 * row starts and which rows share a username. Small next to the rows themselves, so a file read one row at a time
 * (the planning worker's) keeps only this between its reads.
 */
import { usernameOf } from './membersFile';
import type { MembersFile, MembersFileRow } from '../model';

export class RowIndex {
  /** Zero-based line where each data row starts, by row number - 1. */
  readonly lines: number[] = [];
  /**
   * Editor lines (1-based) of each lower-case username's rows: one number for a username written once, as nearly
   * every one is, rather than a list of one for each of a million rows.
   */
  private readonly byUsername = new Map<string, number | number[]>();
  private emptyUsername = false;

  /** The next row, with its username as written (trimmed). */
  add(row: MembersFileRow, username: string): void {
    this.lines.push(row.line);
    const key = username.toLowerCase();
    if (!key) {
      this.emptyUsername = true;
      return;
    }
    const line = row.line + 1;
    const known = this.byUsername.get(key);
    if (known === undefined) this.byUsername.set(key, line);
    else if (typeof known === 'number') this.byUsername.set(key, [known, line]);
    else known.push(line);
  }

  /** Data rows. */
  get rows(): number {
    return this.lines.length;
  }

  /** Whether a row has this lower-case username ('' for a row without one). */
  has(key: string): boolean {
    return key ? this.byUsername.has(key) : this.emptyUsername;
  }

  /** Editor lines of the other rows with this lower-case username than the one at `line` (zero-based). */
  otherLines(key: string, line: number): number[] {
    const known = this.byUsername.get(key) ?? [];
    return (typeof known === 'number' ? [known] : known).filter((l) => l !== line + 1);
  }
}

/** The index of a file read whole. */
export function rowIndexOf(file: MembersFile): RowIndex {
  return addRows(new RowIndex(), file, file.rows);
}

/** Adds `rows` of `file` to `index`: a file's rows in slices. */
export function addRows(index: RowIndex, file: MembersFile, rows: readonly MembersFileRow[]): RowIndex {
  for (const r of rows) index.add(r, usernameOf(file, r));
  return index;
}
