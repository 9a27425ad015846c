/**
 * A members file read once into typed rows: what each row asks the portal to hold, with the row's cells kept (and
 * so their places) for the Problems panel. The planner, the portal read and the diagnostics all work on these rows,
 * never on cells again.
 *
 * Values are canonical (see `canonical`): the portal's values are put through the same function before the two are
 * compared, so whitespace or Unicode composition never makes a change.
 */
import {
  groupNameOf,
  placeIn,
  placeOf,
  readAccountPermission,
  readBoolean,
  readGroupWord,
  isKeepGroupWord,
  readTags,
  valueOf,
} from './membersFile';
import type {
  ColumnKey,
  FileWithoutRows,
  GroupLevel,
  MembersFile,
  MembersFileRow,
  Problem,
  ProblemCode,
  Severity,
  Span,
} from '../model';

/**
 * A text as the file and the portal are compared: NFC, without leading or trailing whitespace (tab, CR, line
 * breaks and Unicode spaces included). `null` and blank are the same: no value.
 */
export function canonical(text: string | null | undefined): string {
  return (text ?? '').normalize('NFC').trim();
}

/** Tags as compared: canonical, blank ones dropped, each once. */
export function canonicalTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map(canonical).filter((t) => t !== ''))];
}

/** An ISO 8601 date or date-time as ms; undefined when it is not one. */
export function readDate(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) return undefined;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms : undefined;
}

/** One data row as the portal should hold it. An absent key: the file leaves that value as it is. */
export interface DesiredRow {
  /** 1-based data row number. */
  readonly row: number;
  /** Zero-based line where the row starts. */
  readonly line: number;
  /** As written, trimmed. */
  readonly username: string;
  readonly cells: MembersFileRow;
  /** Canonical; absent when the column is missing or the cell blank (a problem for an existing member's change). */
  readonly name?: string;
  readonly email?: string;
  /** null: the cell is blank (no job title). */
  readonly jobTitle?: string | null;
  readonly enabled?: boolean;
  readonly locked?: boolean;
  readonly twoFactor?: boolean;
  readonly accountPermission?: number;
  readonly tags?: readonly string[];
  /** By the group name the header writes; only cells that read as a level (0 = not in the group). */
  readonly groups: ReadonlyMap<string, GroupLevel>;
  readonly lastModified?: number;
  readonly groupDigest?: string;
  readonly activationDate?: number;
  /** Problems of the row's own cells, whatever the portal holds (errors keep the row from being planned). */
  readonly problems: readonly Problem[];
}

export interface RowsRead {
  readonly rows: readonly DesiredRow[];
  /** Group names of the header's group columns. */
  readonly groupColumns: readonly string[];
}

const NO_GROUPS: ReadonlyMap<string, GroupLevel> = new Map();
const NO_PROBLEMS: readonly Problem[] = Object.freeze([]);

type Add = (span: Span, code: ProblemCode, args?: Array<string | number>, severity?: Severity) => void;

const read = new WeakMap<MembersFile, RowsRead>();

/** The file's rows, typed: read once per parse, then from memory. */
export function desiredRows(file: MembersFile): RowsRead {
  const known = read.get(file);
  if (known) return known;
  const rows = file.rows.map((r) => desiredRow(file, r));
  const result: RowsRead = { rows, groupColumns: file.groupColumns };
  read.set(file, result);
  return result;
}

/** Rows read between two pauses of the sliced readers: a few milliseconds of work. */
export const SLICE_ROWS = 500;

/** desiredRows in slices of SLICE_ROWS rows, awaiting `pause` between them; the same result, kept the same way. */
export async function desiredRowsInSlices(file: MembersFile, pause: () => Promise<void>): Promise<RowsRead> {
  const known = read.get(file);
  if (known) return known;
  const rows: DesiredRow[] = [];
  for (let at = 0; at < file.rows.length; at += SLICE_ROWS) {
    for (const r of file.rows.slice(at, at + SLICE_ROWS)) rows.push(desiredRow(file, r));
    await pause();
  }
  const result: RowsRead = { rows, groupColumns: file.groupColumns };
  read.set(file, result);
  return result;
}

/** The header's words for a column (what a message names it by), or the key when the file has no such column. */
export function headerText(file: FileWithoutRows, key: ColumnKey): string {
  const index = file.columns.get(key);
  const text = index === undefined ? undefined : file.header[index]?.text.trim();
  return text ? text : key;
}

/** One row, typed: what desiredRows keeps for each row, for a reader that keeps none (see streamMembersFile). */
export function desiredRow(file: FileWithoutRows, r: MembersFileRow): DesiredRow {
  const problems: Problem[] = [];
  const add: Add = (span, code, args = [], severity = 'error') =>
    problems.push({ ...span, code, severity, args, row: r.row });
  const span = (key: ColumnKey): Span => placeIn(file, r, key);
  const cell = (key: ColumnKey): string | undefined => valueOf(file, r, key);
  const text = (key: 'name' | 'email'): string | undefined => {
    const v = canonical(cell(key));
    return v === '' ? undefined : v;
  };
  const flag = (key: 'enabled' | 'locked' | 'twoFactor'): boolean | undefined => {
    const v = cell(key);
    if (v === undefined || v.trim() === '') return undefined;
    const b = readBoolean(v);
    if (b === undefined) add(span(key), 'bad-boolean', [headerText(file, key), v]);
    return b;
  };
  if (r.values.length > file.header.length)
    add(placeOf(file, r, file.header.length), 'extra-cells', [r.values.length - file.header.length], 'warning');
  const job = cell('jobTitle');
  const tags = cell('tags');
  const activation = cell('activationDate');
  const values = {
    name: text('name'),
    email: text('email'),
    jobTitle: job === undefined ? undefined : canonical(job) || null,
    enabled: flag('enabled'),
    locked: flag('locked'),
    twoFactor: flag('twoFactor'),
    accountPermission: permissionOf(cell('accountPermission'), () => span('accountPermission'), add),
    tags: tags === undefined ? undefined : canonicalTags(readTags(tags)),
    groups: groupsOf(file, r, span, add),
    lastModified: readDate(cell('lastModified') ?? ''),
    groupDigest: cell('groupDigest')?.trim() || undefined,
    activationDate: activation?.trim() ? readDate(activation) : undefined,
  };
  if (activation?.trim() && values.activationDate === undefined)
    add(span('activationDate'), 'bad-date', [headerText(file, 'activationDate'), activation]);
  const username = (cell('username') ?? '').trim();
  // One shape for every row (absent values as undefined keys), and nothing allocated for what a row does not have:
  // a file of a million rows keeps a million of these.
  return {
    row: r.row,
    line: r.line,
    username,
    cells: r,
    ...values,
    groups: values.groups.size ? values.groups : NO_GROUPS,
    problems: problems.length ? problems : NO_PROBLEMS,
  } as DesiredRow;
}

function permissionOf(value: string | undefined, span: () => Span, add: Add): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const p = readAccountPermission(value);
  if (p === undefined) add(span(), 'bad-account-permission', [value]);
  return p;
}

function groupsOf(
  file: FileWithoutRows,
  r: MembersFileRow,
  span: (key: ColumnKey) => Span,
  add: Add,
): Map<string, GroupLevel> {
  const levels = new Map<string, GroupLevel>();
  for (const [key] of file.columns) {
    const name = groupNameOf(key);
    const v = name === undefined ? undefined : valueOf(file, r, key);
    if (name === undefined || v === undefined || isKeepGroupWord(v)) continue;
    const level = readGroupWord(v);
    if (level === undefined) add(span(key), 'bad-group-permission', [v]);
    else levels.set(name, level);
  }
  return levels;
}
