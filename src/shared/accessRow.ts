/**
 * One member of an organisation's access store, by position: what the access matrix keeps, draws and exports, and
 * what chat answers from. Both read a row through ROW and cellOf here, so a change to the layout is one change, and
 * a reader that missed it fails to compile. Pure: the matrix's webview reads it too.
 */
import { hasState, inactiveFor, notStarted, stateWord, type MemberState } from './memberStates';

/**
 * [id, username, name, e-mail, tag indexes, organisation permission, last active (-1: never), flags (FLAG in
 * memberStates.ts), cells as [column, level, column, level, …], read at (0: not read yet)].
 */
export type WireRow = [
  id: number,
  username: string,
  name: string,
  email: string,
  tags: number[],
  permission: number,
  lastActive: number,
  flags: number,
  cells: number[],
  readAt: number,
];

/** A row as its readers see it. */
export type AccessRow = readonly [
  id: number,
  username: string,
  name: string,
  email: string,
  tags: readonly number[],
  permission: number,
  lastActive: number,
  flags: number,
  cells: readonly number[],
  readAt: number,
];

export const ROW = {
  id: 0,
  username: 1,
  name: 2,
  email: 3,
  tags: 4,
  permission: 5,
  lastActive: 6,
  flags: 7,
  cells: 8,
  readAt: 9,
} as const;

/** Cell levels as small numbers: 0 none, then the portal's group permissions 1, 4 and 16. */
export const LEVEL_PERMISSIONS = [0, 1, 4, 16] as const;
export type LevelCode = 0 | 1 | 2 | 3;

/** The code of a group permission; a mask that is not a documented level counts as the highest level it holds. */
export function levelCode(permission: number): LevelCode {
  if (permission >= 16) return 3;
  if (permission >= 4) return 2;
  if (permission >= 1) return 1;
  return 0;
}

/** The level of `row` in `column`, 0 when it is not a member of that group. */
export function cellOf(row: AccessRow, column: number): number {
  const cells = row[ROW.cells];
  for (let i = 0; i + 1 < cells.length; i += 2) if (cells[i] === column) return cells[i + 1] ?? 0;
  return 0;
}

/** Whether the row's member is in `state`. */
export function rowInState(row: AccessRow, state: MemberState): boolean {
  return hasState(row[ROW.flags], row[ROW.lastActive], state);
}

/** Whether the row's member has not been active for at least `days` at `now` (never active counts). */
export function rowInactiveFor(row: AccessRow, days: number, now: number): boolean {
  return inactiveFor(row[ROW.lastActive], days, now);
}

/** Whether the row's member has not started yet (memberStates.ts: never active, activation still to come). */
export function rowNotStarted(row: AccessRow): boolean {
  return notStarted(row[ROW.flags], row[ROW.lastActive]);
}

/** The member's state in words: "Enabled", or what stands out ("Disabled, two-factor off"). */
export function rowStateWords(row: AccessRow): string {
  const parts: MemberState[] = (['disabled', 'locked', 'pending', 'twoFactorOff'] as const).filter((s) =>
    rowInState(row, s),
  );
  if (!parts.includes('disabled') && !parts.includes('locked')) parts.unshift('enabled');
  const words = parts.map(stateWord);
  return words.map((w, i) => (i === 0 ? w : w.toLowerCase())).join(', ');
}
