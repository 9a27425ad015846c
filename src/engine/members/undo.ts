/**
 * Undo and "Retry Failed" from a run's journal: each a plan of its own, previewed like any plan before it runs.
 */
import type { GroupLevel } from '../../shared/groupLevel';
import type { FieldChange, JournalRecord, JournalWork, MemberBefore, MemberTarget, Plan, PortalGroup } from './model';
import { derivedPlan } from './model';
import { sameValue } from './remaining';
import { joinedGroups, newMemberOf } from './requests';

type Fields = MemberTarget['fields'];

function groupsNamed(names: ReadonlyMap<number, string>): PortalGroup[] {
  return [...names].map(([id, name]) => ({ id, name, friendlyName: name }));
}

function applied(before: MemberBefore, target: MemberTarget): MemberBefore {
  const groups = { ...before.groups, ...target.groups };
  return { ...before, ...(target.fields as Partial<MemberBefore>), groups };
}

type Sections = {
  -readonly [K in 'newMembers' | 'fieldChanges' | 'groupChanges' | 'disabled' | 'absent']: Array<Plan[K][number]>;
} & { before: Map<string, MemberBefore> };

/**
 * A plan made from a journal's planned work: each member `take` keeps adds its changes through `add`. Undo and
 * "Retry Failed" differ only in which members they take and which way each change goes.
 */
function planFromJournal(
  record: JournalRecord,
  origin: 'undo' | 'retry',
  now: number,
  take: (work: JournalWork) => boolean,
  add: (work: JournalWork, key: string, base: { username: string; row: number | undefined }, into: Sections) => void,
): Plan {
  const into: Sections = {
    newMembers: [],
    fieldChanges: [],
    groupChanges: [],
    disabled: [],
    absent: [],
    before: new Map(),
  };
  const names = new Map<number, string>();
  for (const work of record.begin.work) {
    if (!take(work)) continue;
    for (const [id, name] of Object.entries(work.groupNames)) names.set(Number(id), name);
    add(work, work.username.toLowerCase(), { username: work.username, row: work.row }, into);
  }
  const base = { accountId: record.begin.accountId, groups: groupsNamed(names), origin, createdAt: now };
  return derivedPlan({ ...base, ...(origin === 'undo' ? { undoOf: record.applyId } : {}) }, into);
}

/** A field change from `before` to `after`; a member being disabled goes to the plan's own section. */
function addField(into: Sections, key: string, base: object, field: string, before: unknown, after: unknown): void {
  const change = { kind: 'field', id: `${key}#field:${field}`, ...base, field, before, after } as FieldChange;
  (field === 'enabled' && after === false ? into.disabled : into.fieldChanges).push(change);
}

function addGroup(
  into: Sections,
  work: JournalWork,
  key: string,
  id: string,
  before: GroupLevel,
  after: GroupLevel,
): void {
  into.groupChanges.push({
    kind: 'group',
    id: `${key}#group:${id}`,
    username: work.username,
    row: work.row,
    groupId: Number(id),
    groupName: work.groupNames[id] ?? id,
    before,
    after,
  });
}

/**
 * The plan that puts every member the run changed back to their previous values: fields and groups back, created
 * members removed, members deleted for good re-created (everything but the password). Members whose outcome is not
 * known (an unfinished run) are left out: resume first; so are removals whose user lives on elsewhere, and members
 * `member` says no to (those an earlier undo put back, or not chosen this time). Pure.
 */
export function undoPlan(
  record: JournalRecord,
  now: number = Date.now(),
  member: (username: string) => boolean = () => true,
): Plan {
  const done = (work: JournalWork) => record.outcomes.get(work.seq)?.result === 'done' && member(work.username);
  return planFromJournal(record, 'undo', now, done, (work, key, base, into) => {
    const was = record.intents.get(work.seq)?.before ?? work.before;
    if (work.action === 'create' || work.action === 'restore') {
      into.absent.push({ kind: 'uncreate', id: `${key}#uncreate`, ...base, permanent: true });
      return;
    }
    if (work.action === 'remove') {
      // Only a user deleted for good comes back (re-created, with the snapshot taken first). A user who lives on in
      // another organisation cannot be added to this one again (the API has no way), so that removal is not offered.
      if (!record.intents.get(work.seq)?.snapshot) return;
      // Re-creating needs the profile; a bulk removal journals only what the view row knew.
      if (!was?.email) return;
      into.newMembers.push({
        kind: 'restore',
        id: `${key}#restore`,
        ...base,
        member: {
          username: was.username,
          name: was.name,
          email: was.email,
          jobTitle: was.jobTitle,
          enabled: was.enabled,
          locked: was.locked,
          accountPermission: was.accountPermission ?? 1,
          tags: was.tags,
          groups: joinedGroups(was.groups),
          activationDate: undefined,
        },
      });
      return;
    }
    if (!was || !work.after) return;
    into.before.set(key, applied(was, work.after));
    for (const [field, after] of Object.entries(work.after.fields)) {
      const back = was[field as keyof Fields];
      // Two-factor can be turned off, not on again: the member sets it up themselves.
      if (field !== 'twoFactor' && !sameValue(back, after)) addField(into, key, base, field, after, back);
    }
    for (const [id, after] of Object.entries(work.after.groups)) {
      // A level not known before the run (a bulk edit on rows without their groups) is not guessed back.
      if (!(id in was.groups)) continue;
      const back = was.groups[id] ?? 0;
      if (back !== after) addGroup(into, work, key, id, after, back);
    }
  });
}

/**
 * "Retry Failed" when the plan is gone (after a reload): the plan of the run's members that failed or never
 * started, rebuilt from the journal's planned work (before → after, as the first run meant it). A retry reads
 * nothing: like any plan, it is applied with the journal's previous values as its baseline.
 */
export function retryPlanFromJournal(record: JournalRecord, now: number = Date.now()): Plan {
  const notDone = (work: JournalWork) => {
    const result = record.outcomes.get(work.seq)?.result;
    return result !== 'done' && result !== 'skipped';
  };
  return planFromJournal(record, 'retry', now, notDone, addPlanned);
}

/** A member's planned work as the plan's changes, the way the first run meant them (before → after). */
function addPlanned(
  work: JournalWork,
  key: string,
  base: { username: string; row: number | undefined },
  into: Sections,
): void {
  if (work.action === 'remove') {
    into.absent.push({ kind: 'absent', id: `${key}#absent`, ...base, action: 'remove', permanent: work.permanent });
    if (work.before) into.before.set(key, work.before);
    return;
  }
  const after = work.after;
  if (!after) return;
  if (work.action === 'create' || work.action === 'restore') {
    into.newMembers.push({ kind: 'create', id: `${key}#create`, ...base, member: newMemberOf(work, after) });
    return;
  }
  const was = work.before;
  if (!was) return;
  into.before.set(key, was);
  for (const [field, value] of Object.entries(after.fields))
    addField(into, key, base, field, was[field as keyof Fields], value);
  for (const [id, level] of Object.entries(after.groups)) addGroup(into, work, key, id, was.groups[id] ?? 0, level);
}

/**
 * What a resume would still do: the members of an unfinished run with no outcome yet, as a plan to show before
 * anything is sent (a member started but not confirmed is checked against the portal first, so it may need less).
 */
export function remainingPlan(record: JournalRecord, now: number = Date.now()): Plan {
  return planFromJournal(record, 'retry', now, (work) => !record.outcomes.has(work.seq), addPlanned);
}
