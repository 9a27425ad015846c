/**
 * File + portal → plan. Pure: the same file and portal always give the same plan, with the same change ids.
 *
 * A row's empty cell is a value for name, e-mail (both a problem), job title (none), tags (none) and a group (not
 * in it); for enabled, locked, twoFactor and accountPermission it leaves the member's value as it is. A column the
 * file leaves out is not touched. A row whose member changed on the portal after the export (the portal's
 * `lastModified` is later than the row's) is a conflict: its changes are listed and left out unless the user
 * chooses them. A member on the portal but not in the file is left alone unless `absent` says otherwise.
 */
import { diagnose, readDate, rowsWithErrors, blocksPlanning } from './file/diagnose';
import {
  groupNameOf,
  readAccountPermission,
  readBoolean,
  readGroupWord,
  readTags,
  usernameOf,
  valueOf,
} from './file/membersFile';
import { memberBefore } from './portalState';
import type {
  AbsentChange,
  AbsentChoice,
  Conflict,
  CreateChange,
  FieldChange,
  FieldValues,
  MembersFileRow,
  GroupChange,
  GroupLevel,
  MemberBefore,
  MembersFile,
  Plan,
  PortalGroup,
  PortalMember,
  PortalState,
} from './model';

export interface PlanOptions {
  /** Members on the portal but not in the file: left alone (default), disabled, or removed. */
  readonly absent?: AbsentChoice;
  /** Usernames the absent choice never touches (the signed-in user, say). Lower-case. */
  readonly keep?: ReadonlySet<string>;
  /** For `createdAt`; default Date.now(). */
  readonly now?: number;
}

/** A change id: the member's lower-case username and what changes. */
export function changeId(username: string, what: string): string {
  return `${username.toLowerCase()}#${what}`;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

interface GroupColumn {
  readonly key: `group:${string}`;
  readonly group: PortalGroup;
}

function groupColumns(file: MembersFile, groups: readonly PortalGroup[]): GroupColumn[] {
  const byName = new Map(groups.map((g) => [g.name.toLowerCase(), g]));
  const out: GroupColumn[] = [];
  for (const [key] of file.columns) {
    const name = groupNameOf(key);
    const group = name === undefined ? undefined : byName.get(name.toLowerCase());
    if (group) out.push({ key: key as `group:${string}`, group });
  }
  return out;
}

/** The field changes a row asks of a member on the portal. */
function fieldValues(file: MembersFile, row: MembersFileRow, p: PortalMember): FieldValues[] {
  const out: FieldValues[] = [];
  const cell = (
    key: 'name' | 'email' | 'jobTitle' | 'enabled' | 'locked' | 'twoFactor' | 'accountPermission' | 'tags',
  ) => valueOf(file, row, key);
  for (const field of ['name', 'email'] as const) {
    const v = cell(field)?.trim();
    if (v !== undefined && v !== '' && v !== p[field]) out.push({ field, before: p[field], after: v });
  }
  const job = cell('jobTitle');
  if (job !== undefined) {
    const after = job.trim() === '' ? null : job.trim();
    if ((after ?? '') !== (p.jobTitle ?? '')) out.push({ field: 'jobTitle', before: p.jobTitle, after });
  }
  for (const field of ['enabled', 'locked', 'twoFactor'] as const) {
    const v = readBoolean(cell(field) ?? '');
    if (v === undefined || v === p[field]) continue;
    if (field === 'twoFactor' && v) continue; // a file can turn two-factor off, never on
    out.push({ field, before: p[field], after: v });
  }
  const permission = readAccountPermission(cell('accountPermission') ?? '');
  if (permission !== undefined && permission !== p.accountPermission)
    out.push({ field: 'accountPermission', before: p.accountPermission, after: permission });
  const tags = cell('tags');
  if (tags !== undefined) {
    const after = readTags(tags);
    if (!sameSet(after, p.tags)) out.push({ field: 'tags', before: p.tags, after });
  }
  return out;
}

/**
 * The plan for `file` against `state`. Rows with errors (see diagnose) are skipped, not guessed at: the caller
 * shows the problems. A file without a username column, or with malformed CSV, plans nothing. A username that
 * appears twice is planned for neither row.
 */
export function makePlan(file: MembersFile, state: PortalState, options: PlanOptions = {}): Plan {
  const now = options.now ?? Date.now();
  const problems = diagnose(file, { groups: state.groups, members: state.members, now });
  const blocked = blocksPlanning(problems);
  const badRows = rowsWithErrors(problems);
  const columns = groupColumns(file, state.groups);
  const conflictsChecked = file.columns.has('lastModified');

  const newMembers: CreateChange[] = [];
  const fieldChanges: FieldChange[] = [];
  const groupChanges: GroupChange[] = [];
  const disabled: FieldChange[] = [];
  const absent: AbsentChange[] = [];
  const conflicts: Conflict[] = [];
  const before = new Map<string, MemberBefore>();

  const count = new Map<string, number>();
  for (const row of file.rows) {
    const key = usernameOf(file, row).toLowerCase();
    if (key) count.set(key, (count.get(key) ?? 0) + 1);
  }

  for (const row of blocked ? [] : file.rows) {
    const username = usernameOf(file, row);
    const key = username.toLowerCase();
    if (!key || badRows.has(row.row) || (count.get(key) ?? 0) > 1) continue;
    const p = state.members.get(key);
    const exported = conflictsChecked ? readDate(valueOf(file, row, 'lastModified') ?? '') : undefined;
    const ids: string[] = [];

    if (!p) {
      const levels = new Map<number, GroupLevel>();
      for (const c of columns) {
        const l = readGroupWord(valueOf(file, row, c.key) ?? '') ?? 0;
        if (l !== 0) levels.set(c.group.id, l);
      }
      const job = valueOf(file, row, 'jobTitle')?.trim();
      const activation = valueOf(file, row, 'activationDate')?.trim();
      const change: CreateChange = {
        kind: 'create',
        id: changeId(key, 'create'),
        username,
        row: row.row,
        member: {
          username,
          name: (valueOf(file, row, 'name') ?? '').trim(),
          email: (valueOf(file, row, 'email') ?? '').trim(),
          jobTitle: job ? job : null,
          enabled: readBoolean(valueOf(file, row, 'enabled') ?? '') ?? true,
          locked: readBoolean(valueOf(file, row, 'locked') ?? '') ?? false,
          accountPermission: readAccountPermission(valueOf(file, row, 'accountPermission') ?? '') ?? 1,
          tags: readTags(valueOf(file, row, 'tags') ?? ''),
          groups: levels,
          activationDate: activation ? readDate(activation) : undefined,
        },
      };
      newMembers.push(change);
      // Exported with the member, who has left the portal since: someone else removed them.
      if (exported !== undefined)
        conflicts.push({
          id: changeId(key, 'conflict'),
          username,
          row: row.row,
          exported,
          portal: null,
          changeIds: [change.id],
        });
      continue;
    }

    for (const values of fieldValues(file, row, p)) {
      const change = {
        kind: 'field',
        id: changeId(key, `field:${values.field}`),
        username: p.username,
        row: row.row,
        ...values,
      } as FieldChange;
      (values.field === 'enabled' && !values.after ? disabled : fieldChanges).push(change);
      ids.push(change.id);
    }
    const changedGroups: number[] = [];
    if (p.groups) {
      for (const c of columns) {
        const after = readGroupWord(valueOf(file, row, c.key) ?? '');
        const was = p.groups.get(c.group.id) ?? 0;
        if (after === undefined || after === was) continue;
        const change: GroupChange = {
          kind: 'group',
          id: changeId(key, `group:${c.group.id}`),
          username: p.username,
          row: row.row,
          groupId: c.group.id,
          groupName: c.group.name,
          before: was,
          after,
        };
        groupChanges.push(change);
        ids.push(change.id);
        changedGroups.push(c.group.id);
      }
    }
    if (ids.length === 0) continue;
    before.set(key, memberBefore(p, changedGroups));
    if (exported !== undefined && p.lastModified !== null && p.lastModified > exported)
      conflicts.push({
        id: changeId(key, 'conflict'),
        username: p.username,
        row: row.row,
        exported,
        portal: p.lastModified,
        changeIds: ids,
      });
  }

  const choice = options.absent ?? 'leave';
  if (choice !== 'leave' && !blocked) {
    const inFile = new Set(count.keys());
    for (const [key, p] of state.members) {
      if (inFile.has(key) || options.keep?.has(key)) continue;
      if (choice === 'disable' && !p.enabled) continue;
      absent.push({
        kind: 'absent',
        id: changeId(key, 'absent'),
        username: p.username,
        row: undefined,
        action: choice,
        permanent: choice === 'remove' && !p.memberOfMultipleAccounts,
      });
      before.set(key, memberBefore(p, []));
    }
  }

  return {
    accountId: state.accountId,
    groups: state.groups,
    origin: 'file',
    createdAt: now,
    newMembers,
    fieldChanges,
    groupChanges,
    disabled,
    absent,
    conflicts,
    permanentDeletions: absent.filter((a) => a.permanent).map((a) => a.id),
    leftOutByDefault: conflicts.flatMap((c) => c.changeIds),
    before,
    conflictsChecked,
  };
}
