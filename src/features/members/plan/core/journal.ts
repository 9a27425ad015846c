/**
 * The journal of an apply (and of a bulk edit), and what it makes possible: `resumeApply` finishes a run that
 * stopped (a crash, a reload), checking each member started but not confirmed against the portal first, so nothing
 * is done twice and nothing is lost; `undoPlan` turns a run back through a plan of its own.
 */
import { cancelledError, isPortalError, type Member } from '../../../../api/index';
import {
  reportRows,
  Runner,
  runWork,
  updateRequests,
  type ApplyClient,
  type ApplyOptions,
  type ApplyResult,
} from './apply';
import { Journal } from './journalFile';
import type {
  FieldChange,
  GroupLevel,
  JournalRecord,
  JournalWork,
  MemberBefore,
  MemberTarget,
  Plan,
  PortalGroup,
} from './model';
import { derivedPlan } from './model';
import { groupLevelsOf, memberBefore, portalMemberOf, readGroups } from './portalState';

export {
  discardJournal,
  Journal,
  journalFolderOf,
  lastUndoable,
  listJournals,
  readJournal,
  unfinishedJournals,
} from './journalFile';

type Fields = MemberTarget['fields'];

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return (a ?? '') === (b ?? '');
}

/** The member as the portal has them now (groups only when asked), or undefined when not on the portal. */
async function current(
  runner: Runner,
  username: string,
  withGroups: boolean,
  groups: () => Promise<Awaited<ReturnType<typeof readGroups>>>,
): Promise<MemberBefore | undefined> {
  let member: Member;
  try {
    runner.requests++;
    member = await runner.client.v3.members.get(runner.accountId, username);
  } catch (error) {
    if (isPortalError(error, 'not-found')) return undefined;
    throw error;
  }
  const p = portalMemberOf(member);
  if (!withGroups) return memberBefore(p, []);
  runner.requests++;
  const v2 = await runner.client.v2.members.get(runner.accountId, username);
  return memberBefore({ ...p, groups: groupLevelsOf(v2.groups, await groups()) });
}

/**
 * What is left of a target: the fields and groups the portal does not show yet. `changedElsewhere` lists those
 * that show neither the target nor the value before (someone else changed them meanwhile).
 */
function remaining(
  target: MemberTarget,
  now: MemberBefore,
  before: MemberBefore | null,
): { target: MemberTarget; changedElsewhere: string[] } {
  const fields: Record<string, unknown> = {};
  const groups: Record<string, GroupLevel> = {};
  const changedElsewhere: string[] = [];
  for (const [field, want] of Object.entries(target.fields)) {
    const have = now[field as keyof Fields];
    if (sameValue(want, have)) continue;
    if (field === 'twoFactor' && want === false && !now.twoFactor) continue;
    if (before && !sameValue(before[field as keyof Fields], have)) changedElsewhere.push(field);
    else fields[field] = want;
  }
  for (const [id, want] of Object.entries(target.groups)) {
    const have = now.groups[id] ?? 0;
    if (have === want) continue;
    if (before && id in before.groups && (before.groups[id] ?? 0) !== have) changedElsewhere.push(`group ${id}`);
    else groups[id] = want;
  }
  return { target: { fields: fields as Fields, groups }, changedElsewhere };
}

export interface ResumeOptions extends Omit<ApplyOptions, 'leftOut' | 'portalId'> {
  /**
   * Shown the plan of what remains (read under the journal's lock, after the journal was checked) before anything is
   * sent; false, or a throw, sends nothing. A journal is a file that can be edited, so what it says is shown first.
   */
  readonly confirm: (remaining: Plan, record: JournalRecord) => Promise<boolean>;
}

/** The result of a resume that found nothing left (another window finished the run meanwhile). */
function nothingLeft(record: JournalRecord): ApplyResult {
  return {
    applyId: record.applyId,
    journalFile: record.file,
    rows: reportRows(record.begin.work, record.outcomes),
    requests: 0,
    cancelled: false,
  };
}

/**
 * Finishes an unfinished run: each member started but not confirmed is read from the portal; if the portal already
 * shows the change it counts as done, if it still shows the previous values the rest is sent, and what someone else
 * changed meanwhile is left as it is and reported as failed. Members never started are run. The run's journal gets
 * the outcomes and its end. The journal is locked for the whole resume (throws 'conflict' while another window or
 * process runs it), read again under the lock and checked value by value ('invalid-input'), and what remains is
 * confirmed before anything is sent.
 */
export async function resumeApply(
  client: ApplyClient,
  stale: Pick<JournalRecord, 'file'>,
  options: ResumeOptions,
): Promise<ApplyResult> {
  const { journal, record } = await Journal.reopen(stale);
  try {
    if (!record.unfinished) return nothingLeft(record);
    if (!(await options.confirm(remainingPlan(record), record))) throw cancelledError();
  } catch (error) {
    await journal.close();
    throw error;
  }
  return resumeLocked(client, record, journal, options);
}

async function resumeLocked(
  client: ApplyClient,
  record: JournalRecord,
  journal: Journal,
  options: ResumeOptions,
): Promise<ApplyResult> {
  const runner = new Runner(client, record.begin.accountId, journal, options);
  let groups: ReturnType<typeof readGroups> | undefined;
  const knownGroups = () => {
    groups ??= readGroups(client, record.begin.accountId).then((g) => {
      runner.requests++;
      return g;
    });
    return groups;
  };
  const items = record.begin.work.filter((w) => !record.outcomes.has(w.seq));
  const check = async (work: JournalWork) => {
    const intent = record.intents.get(work.seq);
    if (!intent) return runner.run(work);
    try {
      if (work.action === 'remove') {
        const now = await current(runner, work.username, false, knownGroups);
        if (!now) return await runner.outcome(work, { result: 'done', message: '' });
        return await runner.run(work);
      }
      const target = work.after as MemberTarget;
      const now = await current(runner, work.username, Object.keys(target.groups).length > 0, knownGroups);
      if (!now) {
        if (work.action === 'create' || work.action === 'restore') return await runner.run(work);
        return await runner.outcome(work, { result: 'failed', message: 'The member is no longer on the portal.' });
      }
      const before = work.action === 'create' || work.action === 'restore' ? null : (intent.before ?? work.before);
      const left = remaining(target, now, before);
      if (left.changedElsewhere.length > 0)
        return await runner.outcome(work, {
          result: 'failed',
          message: `Changed on the portal meanwhile, left as it is: ${left.changedElsewhere.join(', ')}.`,
        });
      const requests = updateRequests(left.target, now);
      if (requests.length === 0) return await runner.outcome(work, { result: 'done', message: '' });
      return await runner.run(work, requests, now);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (isPortalError(error, 'cancelled'))
        return { result: 'failed' as const, message, kind: 'cancelled' as const, unconfirmed: true };
      return runner.outcome(work, { result: 'failed', message });
    }
  };
  try {
    const run = await runWork(runner, items, options, check);
    if (!run.unconfirmed) await journal.append({ type: 'end', finishedAt: Date.now(), cancelled: run.cancelled });
    const outcomes = new Map<number, { result: 'done' | 'failed' | 'skipped'; message: string }>(record.outcomes);
    for (const [seq, o] of run.outcomes) outcomes.set(seq, o);
    return {
      applyId: record.applyId,
      journalFile: record.file,
      rows: reportRows(record.begin.work, outcomes),
      requests: runner.requests,
      cancelled: run.cancelled,
      ...(run.stoppedBy ? { stoppedBy: run.stoppedBy } : {}),
    };
  } finally {
    await journal.close();
  }
}

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
  return derivedPlan({ accountId: record.begin.accountId, groups: groupsNamed(names), origin, createdAt: now }, into);
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

/** The groups a new member joins: every level but none. */
function joined(levels: Readonly<Record<string, GroupLevel>>): Map<number, GroupLevel> {
  const groups = new Map<number, GroupLevel>();
  for (const [id, level] of Object.entries(levels)) if (level !== 0) groups.set(Number(id), level);
  return groups;
}

/**
 * The plan that puts every member the run changed back to their previous values: fields and groups back, created
 * members removed, removed members re-created (everything but the password). Members whose outcome is not known
 * (an unfinished run) are left out: resume first. Pure.
 */
export function undoPlan(record: JournalRecord, now: number = Date.now()): Plan {
  const done = (work: JournalWork) => record.outcomes.get(work.seq)?.result === 'done';
  return planFromJournal(record, 'undo', now, done, (work, key, base, into) => {
    const was = record.intents.get(work.seq)?.before ?? work.before;
    if (work.action === 'create' || work.action === 'restore') {
      into.absent.push({ kind: 'uncreate', id: `${key}#uncreate`, ...base, permanent: true });
      return;
    }
    if (work.action === 'remove') {
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
          groups: joined(was.groups),
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
    const f = after.fields;
    const created = work.requests.find((r) => r.method === 'v2.create');
    into.newMembers.push({
      kind: 'create',
      id: `${key}#create`,
      ...base,
      member: {
        username: work.username,
        name: f.name ?? '',
        email: f.email ?? '',
        jobTitle: f.jobTitle ?? null,
        enabled: f.enabled ?? true,
        locked: f.locked ?? false,
        accountPermission: f.accountPermission ?? 1,
        tags: f.tags ?? [],
        groups: joined(after.groups),
        activationDate: created?.method === 'v2.create' ? created.body.activationDate : undefined,
      },
    });
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
