/**
 * The problems of a members file, at their line and column: what the Problems panel shows while the file is open,
 * and which rows a plan cannot plan. Codes and arguments only (see ProblemCode); the UI words them. Columns are
 * named as the file's header writes them; rows by the editor's line numbers.
 *
 * An empty cell means: no job title, no tags, not in the group; but for enabled, locked, twoFactor and
 * accountPermission it leaves the member's value as it is (a new member: enabled, not locked, Member). A value the
 * portal already holds (compared canonically) is not checked again: what the portal holds, the file may repeat.
 */
import { groupNameOf, placeIn } from './membersFile';
import {
  canonical,
  canonicalTags,
  desiredRows,
  desiredRowsInSlices,
  headerText,
  SLICE_ROWS,
  type DesiredRow,
} from './desiredRows';
import { addRows, RowIndex, rowIndexOf } from './rowIndex';
import { groupElevation, holdsPower, permissionElevation, signInElevation, type Elevation } from '../elevation';
import type {
  ColumnKey,
  FileWithoutRows,
  MembersFile,
  PortalGroup,
  PortalMember,
  Problem,
  ProblemCode,
  Severity,
  SkippedRow,
  Span,
} from '../model';
import {
  EMAIL,
  MAX_EMAIL,
  MAX_JOB_TITLE,
  MAX_NAME,
  MAX_TAG_LENGTH,
  MAX_TAGS_PER_MEMBER,
  USERNAME,
} from '../../../../../shared/memberRules';

export { readDate } from './desiredRows';

/** What is known of the portal; without it, group names and "new member" checks are skipped. */
export interface DiagnoseContext {
  readonly groups?: readonly PortalGroup[];
  /** By lower-case username. A row whose username is not here is a new member. */
  readonly members?: ReadonlyMap<string, PortalMember>;
  /** For "an activation date in the past"; default Date.now(). */
  readonly now?: number;
  /** When the portal was read: a `lastModified` later than this is no baseline. Default: `now`. */
  readonly readAt?: number;
}

/** The file checked: every problem, and its rows split into those a plan can plan and those it cannot. */
export interface FileCheck {
  readonly problems: readonly Problem[];
  /** Rows without errors, each username once. */
  readonly rows: readonly DesiredRow[];
  readonly skipped: readonly SkippedRow[];
  /** No username column, or CSV that does not parse: nothing can be planned. */
  readonly blocked: boolean;
}

const READ_ONLY: ReadonlySet<ColumnKey> = new Set<ColumnKey>(['created', 'lastActive']);

/** Every problem of the file, the parse problems included, in file order. */
export function diagnose(file: MembersFile, context: DiagnoseContext = {}): Problem[] {
  return [...checkFile(file, context).problems];
}

/** Checks the file against what is known of the portal. */
export function checkFile(file: MembersFile, context: DiagnoseContext = {}): FileCheck {
  const check = new Check(file, rowIndexOf(file), context);
  const ok: DesiredRow[] = [];
  if (file.columns.has('username')) for (const row of desiredRows(file).rows) if (check.row(row)) ok.push(row);
  return check.result(ok);
}

/** checkFile in slices of SLICE_ROWS rows, awaiting `pause` between them. */
export async function checkFileInSlices(
  file: MembersFile,
  context: DiagnoseContext,
  pause: () => Promise<void>,
): Promise<FileCheck> {
  const index = new RowIndex();
  for (let at = 0; at < file.rows.length; at += SLICE_ROWS) {
    addRows(index, file, file.rows.slice(at, at + SLICE_ROWS));
    await pause();
  }
  const check = new Check(file, index, context);
  const ok: DesiredRow[] = [];
  if (!file.columns.has('username')) return check.result(ok);
  const { rows } = await desiredRowsInSlices(file, pause);
  for (let at = 0; at < rows.length; at += SLICE_ROWS) {
    for (const row of rows.slice(at, at + SLICE_ROWS)) if (check.row(row)) ok.push(row);
    await pause();
  }
  return check.result(ok);
}

/** Whether a file cannot be planned at all: it has no username column, or CSV that does not parse. */
export function fileBlocked(file: FileWithoutRows): boolean {
  return !file.columns.has('username') || file.problems.some((p) => p.code === 'csv-malformed');
}

/**
 * A check under way: the header's problems first, then each row's as it comes. The rows a plan can plan are the
 * caller's to keep (or plan as they come); `keepRowProblems: false` keeps only the errors of rows skipped, for a plan
 * that shows no other problem.
 */
export class Check {
  private readonly problems: Problem[];
  private readonly skipped: SkippedRow[] = [];

  constructor(
    private readonly file: FileWithoutRows,
    private readonly index: RowIndex,
    private readonly context: DiagnoseContext,
    private readonly keepRowProblems = true,
  ) {
    this.problems = [...file.problems];
    headerProblems(file, index.rows, context, this.problems);
  }

  /** Checks a row: whether a plan can plan it (it has no error). */
  row(row: DesiredRow): boolean {
    const own = [...row.problems, ...rowProblems(this.file, row, this.context, this.index)];
    if (this.keepRowProblems) this.problems.push(...own);
    const errors = own.filter((p) => p.severity === 'error');
    if (errors.length === 0) return true;
    this.skipped.push({ row: row.row, line: row.line, username: row.username, problems: sorted(errors) });
    return false;
  }

  /** The check, with the rows it found a plan can plan. */
  result(ok: readonly DesiredRow[]): FileCheck {
    const problems = sorted(this.problems);
    // Only reading the file finds malformed CSV, and only the header a missing username column.
    if (fileBlocked(this.file)) return blockedCheck(this.index, problems);
    return { problems, rows: ok, skipped: this.skipped, blocked: false };
  }
}

/** A file that cannot be planned at all: every row is skipped, for the file's own problems. */
function blockedCheck(index: RowIndex, problems: Problem[]): FileCheck {
  const blocking = problems.filter((p) => p.code === 'no-username-column' || p.code === 'csv-malformed');
  const skipped = index.lines.map((line, i) => ({ row: i + 1, line, username: '', problems: blocking }));
  return { problems, rows: [], skipped, blocked: true };
}

type Add = (span: Span, code: ProblemCode, args?: Array<string | number>, severity?: Severity) => void;

function rowProblems(file: FileWithoutRows, row: DesiredRow, context: DiagnoseContext, index: RowIndex): Problem[] {
  const out: Problem[] = [];
  const add: Add = (span, code, args = [], severity = 'error') =>
    out.push({ ...span, code, severity, args, row: row.row });
  const at = (key: ColumnKey): Span => cellSpan(file, row, key);
  if (!row.username) {
    add(at('username'), 'empty-username');
    return out;
  }
  const key = row.username.toLowerCase();
  const others = index.otherLines(key, row.line);
  if (others.length > 0) add(at('username'), 'duplicate-username', [row.username, others[0] ?? 0]);
  const portal = context.members?.get(key);
  const isNew = context.members !== undefined && portal === undefined;
  if (isNew && !USERNAME.test(row.username)) add(at('username'), 'bad-username', [row.username]);
  // Before the portal is read, a row carrying the export's lastModified came from the portal: a value the portal
  // holds is not the user's mistake, so a format problem on it is a warning until a plan shows it was edited.
  const exported = context.members === undefined && row.lastModified !== undefined;
  valueProblems(file, row, portal, isNew, exported ? (span, code, args) => add(span, code, args, 'warning') : add);
  dateProblems(file, row, context, isNew, add);
  for (const e of rowElevations(row, portal, context))
    add(
      e.group !== undefined ? at(`group:${e.group}`) : at('accountPermission'),
      'elevation',
      [e.kind, e.group ?? ''],
      'warning',
    );
  for (const e of signInElevations(row, portal))
    add(at(e.field ?? 'username'), 'elevation', [e.kind, e.field ?? ''], 'warning');
  return out;
}

function cellSpan(file: FileWithoutRows, row: DesiredRow, key: ColumnKey): Span {
  return placeIn(file, row.cells, key);
}

/**
 * Name, e-mail, job title, two-factor and tags: checked where they change (or for a new member). A value the portal
 * holds is never checked: an unedited export has no error.
 */
function valueProblems(
  file: FileWithoutRows,
  row: DesiredRow,
  portal: PortalMember | undefined,
  isNew: boolean,
  add: Add,
) {
  const at = (key: ColumnKey): Span => cellSpan(file, row, key);
  const name = (key: ColumnKey) => headerText(file, key);
  for (const field of ['name', 'email'] as const) {
    const value = row[field];
    const has = file.columns.has(field);
    if (isNew && value === undefined) {
      add(has ? at(field) : at('username'), 'missing-for-create', [row.username, name(field)]);
      continue;
    }
    if (!has || (portal && canonical(portal[field]) === (value ?? ''))) continue;
    const max = field === 'name' ? MAX_NAME : MAX_EMAIL;
    if (value === undefined) add(at(field), 'blank-value', [name(field)]);
    else if (value.length > max) add(at(field), 'too-long', [name(field), max]);
    else if (field === 'email' && !EMAIL.test(value)) add(at(field), 'bad-email', [value]);
  }
  const job = row.jobTitle;
  if (job && job.length > MAX_JOB_TITLE && !(portal && canonical(portal.jobTitle) === job))
    add(at('jobTitle'), 'too-long', [name('jobTitle'), MAX_JOB_TITLE]);
  if (row.twoFactor === true && (isNew || (portal !== undefined && !portal.twoFactor)))
    add(at('twoFactor'), 'cannot-enable-two-factor');
  const tags = row.tags;
  if (tags && !(portal && sameTags(tags, portal.tags))) {
    const long = tags.find((t) => t.length > MAX_TAG_LENGTH);
    if (long !== undefined) add(at('tags'), 'bad-tag', [long]);
    else if (tags.length > MAX_TAGS_PER_MEMBER) add(at('tags'), 'too-long', [name('tags'), MAX_TAGS_PER_MEMBER]);
  }
}

/** Whether two tag lists hold the same tags, compared canonically. */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  const x = canonicalTags(a);
  const y = new Set(canonicalTags(b));
  return x.length === y.size && x.every((t) => y.has(t));
}

function dateProblems(file: FileWithoutRows, row: DesiredRow, context: DiagnoseContext, isNew: boolean, add: Add) {
  const now = context.now ?? Date.now();
  const when = row.activationDate;
  if (when !== undefined && (isNew || context.members === undefined) && when <= now)
    add(cellSpan(file, row, 'activationDate'), 'bad-date', [
      headerText(file, 'activationDate'),
      String(row.cells.values[file.columns.get('activationDate') ?? -1] ?? ''),
    ]);
  const baseline = row.lastModified;
  if (baseline !== undefined && baseline > (context.readAt ?? now))
    add(cellSpan(file, row, 'lastModified'), 'future-last-modified', [
      String(row.cells.values[file.columns.get('lastModified') ?? -1] ?? ''),
    ]);
}

/**
 * What the row grants that the member does not have. With the portal known: against the member's values. Without
 * it: only rows without a `lastModified` (new rows, or a file not from an export), as an export repeats what is.
 */
function rowElevations(row: DesiredRow, portal: PortalMember | undefined, context: DiagnoseContext): Elevation[] {
  if (context.members === undefined && row.lastModified !== undefined) return [];
  const out: Elevation[] = [];
  if (row.accountPermission !== undefined) {
    const e = permissionElevation(portal?.accountPermission, row.accountPermission);
    if (e) out.push(e);
  }
  const ids = new Map((context.groups ?? []).map((g) => [g.name.toLowerCase(), g.id]));
  for (const [group, level] of row.groups) {
    const id = ids.get(group.toLowerCase());
    const before = portal?.groups && id !== undefined ? (portal.groups.get(id) ?? 0) : undefined;
    if (portal && !portal.groups && row.groupDigest !== undefined) continue; // unread: the export's own cells
    const e = groupElevation(group, before, level);
    if (e) out.push(e);
  }
  return out;
}

/**
 * Whether the row's member is an administrator, as the portal holds them (their groups as far as read) or as the
 * row makes them.
 */
export function isAdministrator(row: DesiredRow, portal: PortalMember | undefined): boolean {
  return (
    holdsPower(portal?.accountPermission, portal?.groups?.values() ?? []) ||
    holdsPower(row.accountPermission, row.groups.values())
  );
}

/** An administrator's sign-in the row hands over: each field changed that could (see signInElevation). */
function signInElevations(row: DesiredRow, portal: PortalMember | undefined): Elevation[] {
  return portal && isAdministrator(row, portal) ? signInChanges(row, portal) : [];
}

/** The row's changes that would hand over the member's sign-in, were they an administrator. */
export function signInChanges(row: DesiredRow, portal: PortalMember): Elevation[] {
  const out: Elevation[] = [];
  if (row.email !== undefined && row.email !== canonical(portal.email))
    out.push({ kind: 'administrator-sign-in', field: 'email' });
  for (const field of ['twoFactor', 'enabled', 'locked'] as const) {
    const e = row[field] === undefined ? undefined : signInElevation(field, portal[field], row[field]);
    if (e) out.push(e);
  }
  return out;
}

function headerProblems(file: FileWithoutRows, rows: number, context: DiagnoseContext, problems: Problem[]): void {
  const add: Add = (span, code, args = [], severity = 'error') => problems.push({ ...span, code, severity, args });
  const headerSpan = file.header[0]?.span ?? { line: 0, column: 0, endLine: 0, endColumn: 0 };
  if (!file.columns.has('username')) add({ ...headerSpan, endColumn: headerSpan.column }, 'no-username-column');
  const known = context.groups && new Set(context.groups.map((g) => g.name.toLowerCase()));
  const seen = new Set<ColumnKey>();
  for (const h of file.header) {
    if (h.key === undefined) {
      add(h.span, 'unknown-column', [h.text]);
      continue;
    }
    if (seen.has(h.key)) add(h.span, 'duplicate-column', [h.text], 'warning');
    seen.add(h.key);
    if (READ_ONLY.has(h.key)) add(h.span, 'read-only-column', [h.text.trim()], 'info');
    const group = groupNameOf(h.key);
    if (group !== undefined && known && !known.has(group.toLowerCase())) add(h.span, 'unknown-group', [group]);
  }
  const changesSomething = file.header.some((h) => h.key !== undefined && h.key !== 'username');
  if (
    file.columns.has('username') &&
    changesSomething &&
    !file.columns.has('lastModified') &&
    (file.groupColumns.length > 0 || rows > 0)
  )
    add({ ...headerSpan, endColumn: headerSpan.column }, 'no-lastmodified-column', [], 'info');
}

function sorted(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Data rows with an error (not a warning): the planner leaves them out. */
export function rowsWithErrors(problems: readonly Problem[]): Set<number> {
  const rows = new Set<number>();
  for (const p of problems) if (p.severity === 'error' && p.row !== undefined) rows.add(p.row);
  return rows;
}

/** Whether a file problem keeps the whole file from being planned (no username column, malformed CSV). */
export function blocksPlanning(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.code === 'no-username-column' || p.code === 'csv-malformed');
}
