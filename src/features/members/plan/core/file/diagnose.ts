/**
 * The problems of a members file, at their line and column: what the Problems panel shows while the file is open.
 * Codes and arguments only (see ProblemCode); the UI words them.
 *
 * An empty cell means: no job title, no tags, not in the group; but for enabled, locked, twoFactor and
 * accountPermission it leaves the member's value as it is (a new member: enabled, not locked, Member).
 */
import {
  groupNameOf,
  placeOf,
  readAccountPermission,
  readBoolean,
  readGroupWord,
  readTags,
  usernameOf,
} from './membersFile';
import type { ColumnKey, MembersFile, PortalGroup, PortalMember, Problem, ProblemCode, Severity, Span } from '../model';
import { EMAIL, MAX_EMAIL, MAX_JOB_TITLE, MAX_NAME, MAX_TAG, MAX_TAGS, USERNAME } from './rules';

/** What is known of the portal; without it, group names and "new member" checks are skipped. */
export interface DiagnoseContext {
  readonly groups?: readonly PortalGroup[];
  /** By lower-case username. A row whose username is not here is a new member. */
  readonly members?: ReadonlyMap<string, PortalMember>;
  /** For "an activation date in the past"; default Date.now(). */
  readonly now?: number;
}

const READ_ONLY: ReadonlySet<ColumnKey> = new Set<ColumnKey>(['created', 'lastActive']);

/** An ISO 8601 date or date-time as ms; undefined when it is not one. */
export function readDate(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) return undefined;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Every problem of the file, the parse problems included, in file order. */
export function diagnose(file: MembersFile, context: DiagnoseContext = {}): Problem[] {
  const problems: Problem[] = [...file.problems];
  const add = (
    span: Span,
    code: ProblemCode,
    args: Array<string | number> = [],
    severity: Severity = 'error',
    row?: number,
  ) => problems.push({ ...span, code, severity, args, ...(row !== undefined ? { row } : {}) });

  headerProblems(file, context, add);
  if (!file.columns.has('username')) return sorted(problems);

  const firstRow = new Map<string, number>();
  for (const row of file.rows) {
    const cell = (key: ColumnKey): { value: string; span: Span } | undefined => {
      const index = file.columns.get(key);
      if (index === undefined) return undefined;
      const value = row.values[index];
      return value === undefined ? undefined : { value, span: placeOf(row, index) };
    };
    const at = (span: Span, code: ProblemCode, args: Array<string | number> = [], severity: Severity = 'error') =>
      add(span, code, args, severity, row.row);
    const rowSpan: Span = { line: row.line, column: 0, endLine: row.line, endColumn: 0 };
    const userCell = cell('username');
    const username = usernameOf(file, row);
    if (!username) {
      at(userCell?.span ?? rowSpan, 'empty-username');
      continue;
    }
    const key = username.toLowerCase();
    const first = firstRow.get(key);
    if (first !== undefined) at(userCell?.span ?? rowSpan, 'duplicate-username', [username, first]);
    else firstRow.set(key, row.row);
    const portal = context.members?.get(key);
    const isNew = context.members !== undefined && portal === undefined;
    if (isNew && !USERNAME.test(username)) at(userCell?.span ?? rowSpan, 'bad-username', [username]);

    if (row.values.length > file.header.length)
      at(placeOf(row, file.header.length), 'extra-cells', [row.values.length - file.header.length], 'warning');

    for (const field of ['name', 'email'] as const) {
      const c = cell(field);
      if (isNew && (c === undefined || c.value.trim() === '')) {
        at(c?.span ?? userCell?.span ?? rowSpan, 'missing-for-create', [username, field]);
        continue;
      }
      if (c === undefined) continue;
      if (c.value.trim() === '') at(c.span, 'blank-value', [field]);
      else if (c.value.length > (field === 'name' ? MAX_NAME : MAX_EMAIL))
        at(c.span, 'too-long', [field, field === 'name' ? MAX_NAME : MAX_EMAIL]);
      else if (field === 'email' && !EMAIL.test(c.value.trim())) at(c.span, 'bad-email', [c.value]);
    }
    const job = cell('jobTitle');
    if (job && job.value.length > MAX_JOB_TITLE) at(job.span, 'too-long', ['jobTitle', MAX_JOB_TITLE]);

    for (const field of ['enabled', 'locked', 'twoFactor'] as const) {
      const c = cell(field);
      if (!c || c.value.trim() === '') continue;
      const value = readBoolean(c.value);
      if (value === undefined) at(c.span, 'bad-boolean', [field, c.value]);
      else if (field === 'twoFactor' && value && (isNew || (portal !== undefined && !portal.twoFactor)))
        at(c.span, 'cannot-enable-two-factor');
    }
    const permission = cell('accountPermission');
    if (permission && permission.value.trim() !== '' && readAccountPermission(permission.value) === undefined)
      at(permission.span, 'bad-account-permission', [permission.value]);

    const tags = cell('tags');
    if (tags) {
      const list = readTags(tags.value);
      const long = list.find((t) => t.length > MAX_TAG);
      if (long !== undefined) at(tags.span, 'bad-tag', [long]);
      else if (list.length > MAX_TAGS) at(tags.span, 'too-long', ['tags', MAX_TAGS]);
    }

    for (const group of file.groupColumns) {
      const c = cell(`group:${group}`);
      if (c && readGroupWord(c.value) === undefined) at(c.span, 'bad-group-permission', [c.value]);
    }

    const activation = cell('activationDate');
    if (activation && activation.value.trim() !== '' && (isNew || context.members === undefined)) {
      const when = readDate(activation.value);
      if (when === undefined || when <= (context.now ?? Date.now()))
        at(activation.span, 'bad-date', ['activationDate', activation.value]);
    }
  }
  return sorted(problems);
}

function headerProblems(
  file: MembersFile,
  context: DiagnoseContext,
  add: (span: Span, code: ProblemCode, args?: Array<string | number>, severity?: Severity) => void,
): void {
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
    if (READ_ONLY.has(h.key)) add(h.span, 'read-only-column', [h.key], 'info');
    const group = groupNameOf(h.key);
    if (group !== undefined && known && !known.has(group.toLowerCase())) add(h.span, 'unknown-group', [group]);
  }
  const hasGroups = file.groupColumns.length > 0;
  const changesSomething = file.header.some((h) => h.key !== undefined && h.key !== 'username');
  if (
    file.columns.has('username') &&
    changesSomething &&
    !file.columns.has('lastModified') &&
    (hasGroups || file.rows.length > 0)
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
