/**
 * File + portal → plan. Pure: the same file and portal always give the same plan, with the same change ids.
 *
 * Works on the file's typed rows (desiredRows.ts), whose values are canonical; the portal's values are made
 * canonical the same way before they are compared, so an export planned against its portal plans nothing.
 *
 * A row's empty cell is a value for name, e-mail (both a problem), job title (none), tags (none) and a group (not
 * in it); for enabled, locked, twoFactor and accountPermission it leaves the member's value as it is. A column the
 * file leaves out is not touched. A row whose member changed on the portal after the export (the portal's
 * `lastModified` is later than the row's, or the member's groups no longer match the row's `groupDigest`) is a
 * conflict: its changes are listed and left out unless the user chooses them. A row the plan cannot plan is listed
 * in `skipped` with its problems. A member on the portal but not in the file is left alone unless `absent` says
 * otherwise.
 */
import { createHash } from 'node:crypto';
import { Check, fileBlocked, isAdministrator, sameTags } from './file/diagnose';
import { canonical, desiredRows, type DesiredRow } from './file/desiredRows';
import { rowIndexOf, type RowIndex } from './file/rowIndex';
import { groupDigest } from '../../../../node/groupDigest';
import { memberBefore } from '../../../../engine/members/portal';
import { newMember } from '../../../../engine/members/model';
import type {
  AbsentChange,
  AbsentChoice,
  Conflict,
  CreateChange,
  FieldChange,
  FieldValues,
  FileWithoutRows,
  GroupChange,
  GroupLevel,
  MemberBefore,
  MembersFile,
  FilePlan,
  PortalGroup,
  PortalMember,
  PortalState,
  Problem,
} from './model';

export interface PlanOptions {
  /** Members on the portal but not in the file: left alone (default), disabled, or removed. */
  readonly absent?: AbsentChoice;
  /** Usernames the absent choice never touches (the signed-in user, say). Lower-case. */
  readonly keep?: ReadonlySet<string>;
  /** For `createdAt`; default Date.now(). */
  readonly now?: number;
  /** The file's text as planned, for the plan's `source` digest (see fileDigest); without it, none is recorded. */
  readonly fileDigest?: string;
}

/** The digest a plan records of the file's text: Apply compares it with the text then. */
export function fileDigest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** Characters hashed between two pauses of fileDigestInSlices. */
const DIGEST_SLICE = 4_000_000;

/** fileDigest in slices, awaiting `pause` between them: the same digest, without holding the event loop. */
export async function fileDigestInSlices(text: string, pause: () => Promise<void>): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + DIGEST_SLICE);
    // A slice never ends between the two halves of a surrogate pair: each slice is hashed as UTF-8 on its own.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    hash.update(text.slice(at, end));
    at = end;
    await pause();
  }
  return hash.digest('base64url');
}

/** A change id: the member's lower-case username and what changes. */
export function changeId(username: string, what: string): string {
  return `${username.toLowerCase()}#${what}`;
}

/** The file's group columns the portal knows, by lower-case name. */
function groupColumns(file: FileWithoutRows, groups: readonly PortalGroup[]): Map<string, PortalGroup> {
  const byName = new Map(groups.map((g) => [g.name.toLowerCase(), g]));
  const out = new Map<string, PortalGroup>();
  for (const name of file.groupColumns) {
    const group = byName.get(name.toLowerCase());
    if (group) out.set(name.toLowerCase(), group);
  }
  return out;
}

/** The field changes a row asks of a member on the portal, values compared canonically. */
function fieldValues(row: DesiredRow, p: PortalMember): FieldValues[] {
  const out: FieldValues[] = [];
  for (const field of ['name', 'email'] as const) {
    const v = row[field];
    if (v !== undefined && v !== canonical(p[field])) out.push({ field, before: p[field], after: v });
  }
  if (row.jobTitle !== undefined && (row.jobTitle ?? '') !== canonical(p.jobTitle))
    out.push({ field: 'jobTitle', before: p.jobTitle, after: row.jobTitle });
  for (const field of ['enabled', 'locked', 'twoFactor'] as const) {
    const v = row[field];
    if (v === undefined || v === p[field]) continue;
    if (field === 'twoFactor' && v) continue; // a file can turn two-factor off, never on
    out.push({ field, before: p[field], after: v });
  }
  if (row.accountPermission !== undefined && row.accountPermission !== p.accountPermission)
    out.push({ field: 'accountPermission', before: p.accountPermission, after: row.accountPermission });
  if (row.tags !== undefined && !sameTags(row.tags, p.tags))
    out.push({ field: 'tags', before: p.tags, after: row.tags });
  return out;
}

/** Everything a plan gathers while it walks the rows. */
class Parts {
  readonly newMembers: CreateChange[] = [];
  readonly fieldChanges: FieldChange[] = [];
  readonly groupChanges: GroupChange[] = [];
  readonly disabled: FieldChange[] = [];
  readonly absent: AbsentChange[] = [];
  readonly conflicts: Conflict[] = [];
  readonly before = new Map<string, MemberBefore>();
  unchanged = 0;
}

const NO_LEVELS: ReadonlyMap<number, GroupLevel> = new Map();

function createChange(row: DesiredRow, columns: ReadonlyMap<string, PortalGroup>): CreateChange {
  const levels = new Map<number, GroupLevel>();
  for (const [name, level] of row.groups) {
    const group = columns.get(name.toLowerCase());
    if (group && level !== 0) levels.set(group.id, level);
  }
  // A new member in no group shares one empty map: a file may hold a great many of them.
  return {
    kind: 'create',
    id: changeId(row.username, 'create'),
    username: row.username,
    row: row.row,
    member: newMember(row.username, row, levels.size ? levels : NO_LEVELS, row.activationDate),
  };
}

function planNew(parts: Parts, row: DesiredRow, columns: ReadonlyMap<string, PortalGroup>, baseline: boolean): void {
  const change = createChange(row, columns);
  parts.newMembers.push(change);
  // Exported with the member, who has left the portal since: someone else removed them.
  if (baseline && row.lastModified !== undefined)
    parts.conflicts.push({
      id: changeId(row.username, 'conflict'),
      username: row.username,
      row: row.row,
      exported: row.lastModified,
      portal: null,
      changeIds: [change.id],
    });
}

function groupChanges(row: DesiredRow, p: PortalMember, columns: ReadonlyMap<string, PortalGroup>): GroupChange[] {
  const out: GroupChange[] = [];
  if (!p.groups) return out;
  for (const [name, after] of row.groups) {
    const group = columns.get(name.toLowerCase());
    const was = group ? (p.groups.get(group.id) ?? 0) : 0;
    if (!group || after === was) continue;
    out.push({
      kind: 'group',
      id: changeId(p.username, `group:${group.id}`),
      username: p.username,
      row: row.row,
      groupId: group.id,
      groupName: group.name,
      before: was,
      after,
    });
  }
  return out;
}

/** Whether the member's groups read now differ from those the row's `groupDigest` was exported with. */
function groupsMoved(
  row: DesiredRow,
  p: PortalMember,
  file: FileWithoutRows,
  columns: ReadonlyMap<string, PortalGroup>,
) {
  if (row.groupDigest === undefined || !p.groups) return false;
  const now = new Map<string, GroupLevel>();
  for (const name of file.groupColumns) {
    const group = columns.get(name.toLowerCase());
    now.set(group?.name ?? name, group ? (p.groups.get(group.id) ?? 0) : 0);
  }
  return groupDigest(now) !== row.groupDigest;
}

function planExisting(
  parts: Parts,
  row: DesiredRow,
  p: PortalMember,
  file: FileWithoutRows,
  columns: ReadonlyMap<string, PortalGroup>,
) {
  const key = p.username.toLowerCase();
  const ofAdministrator = isAdministrator(row, p) ? { ofAdministrator: true } : {};
  const fields = fieldValues(row, p).map(
    (values) =>
      ({
        kind: 'field',
        id: changeId(key, `field:${values.field}`),
        username: p.username,
        row: row.row,
        ...values,
        ...ofAdministrator,
      }) as FieldChange,
  );
  for (const c of fields) (c.field === 'enabled' && !c.after ? parts.disabled : parts.fieldChanges).push(c);
  const groups = groupChanges(row, p, columns);
  parts.groupChanges.push(...groups);
  const ids = [...fields, ...groups].map((c) => c.id);
  if (ids.length === 0) {
    parts.unchanged++;
    return;
  }
  parts.before.set(
    key,
    memberBefore(
      p,
      groups.map((g) => g.groupId),
    ),
  );
  const exported = file.columns.has('lastModified') ? row.lastModified : undefined;
  const modified = exported !== undefined && p.lastModified !== null && p.lastModified > exported;
  if (modified || groupsMoved(row, p, file, columns))
    parts.conflicts.push({
      id: changeId(key, 'conflict'),
      username: p.username,
      row: row.row,
      exported: exported ?? 0,
      portal: p.lastModified,
      changeIds: ids,
      reason: modified ? 'modified' : 'groups',
    });
}

function planAbsent(parts: Parts, state: PortalState, inFile: RowIndex, options: PlanOptions): void {
  const choice = options.absent ?? 'leave';
  if (choice === 'leave') return;
  for (const [key, p] of state.members) {
    if (inFile.has(key) || options.keep?.has(key)) continue;
    if (choice === 'disable' && !p.enabled) continue;
    parts.absent.push({
      kind: 'absent',
      id: changeId(key, 'absent'),
      username: p.username,
      row: undefined,
      action: choice,
      permanent: choice === 'remove' && !p.memberOfMultipleAccounts,
    });
    parts.before.set(key, memberBefore(p, []));
  }
}

/**
 * The plan for `file` against `state`. Rows with errors (see checkFile) are not guessed at: they are the plan's
 * `skipped` rows, each with its problems. A file without a username column, or with malformed CSV, plans nothing
 * and skips every row. A username that appears twice is planned for neither row.
 */
export function makePlan(file: MembersFile, state: PortalState, options: PlanOptions = {}): FilePlan {
  const planning = new Planning(file, rowIndexOf(file), state, options);
  if (file.columns.has('username')) for (const row of desiredRows(file).rows) planning.row(row);
  return planning.plan();
}

/** Sections of a plan that only grow while its rows are planned, each change of one row. */
export const GROWING_SECTIONS = ['newMembers', 'fieldChanges', 'groupChanges', 'disabled'] as const;
export type GrowingSection = (typeof GROWING_SECTIONS)[number];

/**
 * A plan under way: each row checked as it comes and, when a plan can plan it, planned. makePlan hands it a file's
 * rows; a reader that keeps no rows (the planning worker's) hands them over as it reads them, with the file's
 * RowIndex read before. The same rows in the same order make the same plan.
 */
export class Planning {
  private readonly parts = new Parts();
  private readonly columns: Map<string, PortalGroup>;
  private readonly check: Check;
  private readonly blocked: boolean;
  private readonly now: number;

  constructor(
    private readonly file: FileWithoutRows,
    private readonly index: RowIndex,
    private readonly state: PortalState,
    private readonly options: PlanOptions,
  ) {
    this.now = options.now ?? Date.now();
    const context = { groups: state.groups, members: state.members, now: this.now, readAt: state.readAt };
    // A plan shows only the errors of the rows it skips: the other problems are the Problems panel's.
    this.check = new Check(file, index, context, false);
    this.blocked = fileBlocked(file);
    this.columns = groupColumns(file, state.groups);
  }

  row(row: DesiredRow): void {
    if (this.blocked || !this.check.row(row)) return;
    const p = this.state.members.get(row.username.toLowerCase());
    if (p) planExisting(this.parts, row, p, this.file, this.columns);
    else planNew(this.parts, row, this.columns, this.file.columns.has('lastModified'));
  }

  /** Changes planned so far in a section and not taken. */
  planned(section: GrowingSection): number {
    return this.parts[section].length;
  }

  /**
   * The first `count` changes of a section, taken out of the plan: whoever takes them puts them before the
   * section's changes in the plan made at the end.
   */
  take(section: GrowingSection, count: number): ReadonlyArray<FilePlan[GrowingSection][number]> {
    return this.parts[section].splice(0, count);
  }

  /** The file's own problems, its header's against the portal read: the plan lists only the rows it skips. */
  fileProblems(): readonly Problem[] {
    return this.check.result([]).problems;
  }

  /** The plan of the rows planned; `absent` is planned now that every row of the file is known. */
  plan(): FilePlan {
    const { parts, file, state, index } = this;
    const check = this.check.result([]);
    if (!check.blocked) planAbsent(parts, state, index, this.options);
    return {
      accountId: state.accountId,
      groups: state.groups,
      origin: 'file',
      createdAt: this.now,
      newMembers: parts.newMembers,
      fieldChanges: parts.fieldChanges,
      groupChanges: parts.groupChanges,
      disabled: parts.disabled,
      absent: parts.absent,
      conflicts: parts.conflicts,
      permanentDeletions: parts.absent.filter((a) => a.permanent).map((a) => a.id),
      leftOutByDefault: parts.conflicts.flatMap((c) => c.changeIds),
      before: parts.before,
      conflictsChecked: file.columns.has('lastModified'),
      skipped: check.skipped,
      source: {
        fileDigest: this.options.fileDigest ?? '',
        readAt: state.readAt,
        rows: index.rows,
        unchanged: parts.unchanged,
        rowLines: index.lines,
      },
    };
  }
}
