/**
 * The journal of an apply (and of a bulk edit), and what it makes possible: `resumeApply` finishes a run that
 * stopped (a crash, a reload), checking each member started but not confirmed against the portal first, so nothing
 * is done twice and nothing is lost; `undoPlan` turns a run back through a plan of its own.
 */
import { isPortalError, type Member } from '../../../../api/index';
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
  FieldValues,
  GroupChange,
  GroupLevel,
  JournalRecord,
  JournalWork,
  MemberBefore,
  MemberTarget,
  Plan,
  RestoreChange,
  UncreateChange,
} from './model';
import { groupLevelsOf, portalMemberOf, readGroups } from './portalState';

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
  const levels: Record<string, GroupLevel> = {};
  if (withGroups) {
    runner.requests++;
    const v2 = await runner.client.v2.members.get(runner.accountId, username);
    for (const [id, level] of groupLevelsOf(v2.groups, await groups())) levels[String(id)] = level;
  }
  return {
    username: p.username,
    name: p.name,
    email: p.email,
    jobTitle: p.jobTitle,
    enabled: p.enabled,
    locked: p.locked,
    accountPermission: p.accountPermission,
    tags: p.tags,
    twoFactor: p.twoFactor,
    lastModified: p.lastModified,
    groups: levels,
  };
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
    if (before && (before.groups[id] ?? 0) !== have) changedElsewhere.push(`group ${id}`);
    else groups[id] = want;
  }
  return { target: { fields: fields as Fields, groups }, changedElsewhere };
}

/**
 * Finishes an unfinished run: each member started but not confirmed is read from the portal; if the portal already
 * shows the change it counts as done, if it still shows the previous values the rest is sent, and what someone else
 * changed meanwhile is left as it is and reported as failed. Members never started are run. The run's journal gets
 * the outcomes and its end.
 */
export async function resumeApply(
  client: ApplyClient,
  record: JournalRecord,
  options: Omit<ApplyOptions, 'leftOut' | 'portalId'>,
): Promise<ApplyResult> {
  const journal = await Journal.reopen(record);
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
      return runner.outcome(work, { result: 'failed', message });
    }
  };
  try {
    const run = await runWork(runner, items, options, check);
    await journal.append({ type: 'end', finishedAt: Date.now(), cancelled: run.cancelled });
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

function applied(before: MemberBefore, target: MemberTarget): MemberBefore {
  const groups = { ...before.groups, ...target.groups };
  return { ...before, ...(target.fields as Partial<MemberBefore>), groups };
}

/**
 * The plan that puts every member the run changed back to their previous values: fields and groups back, created
 * members removed, removed members re-created (everything but the password). Members whose outcome is not known
 * (an unfinished run) are left out: resume first. Pure.
 */
export function undoPlan(record: JournalRecord, now: number = Date.now()): Plan {
  const newMembers: RestoreChange[] = [];
  const fieldChanges: FieldChange[] = [];
  const groupChanges: GroupChange[] = [];
  const disabled: FieldChange[] = [];
  const absent: UncreateChange[] = [];
  const beforeMap = new Map<string, MemberBefore>();
  const names = new Map<number, string>();
  for (const work of record.begin.work) {
    if (record.outcomes.get(work.seq)?.result !== 'done') continue;
    const key = work.username.toLowerCase();
    const base = { username: work.username, row: work.row };
    const was = record.intents.get(work.seq)?.before ?? work.before;
    for (const [id, name] of Object.entries(work.groupNames)) names.set(Number(id), name);
    if (work.action === 'create' || work.action === 'restore') {
      absent.push({ kind: 'uncreate', id: `${key}#uncreate`, ...base, permanent: true });
      continue;
    }
    if (work.action === 'remove') {
      if (!was) continue;
      const groups = new Map<number, GroupLevel>();
      for (const [id, level] of Object.entries(was.groups)) if (level !== 0) groups.set(Number(id), level);
      newMembers.push({
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
          groups,
          activationDate: undefined,
        },
      });
      continue;
    }
    if (!was || !work.after) continue;
    beforeMap.set(key, applied(was, work.after));
    for (const [field, after] of Object.entries(work.after.fields)) {
      const back = was[field as keyof Fields];
      // Two-factor can be turned off, not on again: the member sets it up themselves.
      if (field === 'twoFactor' || sameValue(back, after)) continue;
      const values = { field, before: after, after: back } as FieldValues;
      const change = { kind: 'field', id: `${key}#field:${field}`, ...base, ...values } as FieldChange;
      (field === 'enabled' && back === false ? disabled : fieldChanges).push(change);
    }
    for (const [id, after] of Object.entries(work.after.groups)) {
      const back = was.groups[id] ?? 0;
      if (back === after) continue;
      groupChanges.push({
        kind: 'group',
        id: `${key}#group:${id}`,
        ...base,
        groupId: Number(id),
        groupName: work.groupNames[id] ?? id,
        before: after,
        after: back,
      });
    }
  }
  return {
    accountId: record.begin.accountId,
    groups: [...names].map(([id, name]) => ({ id, name, friendlyName: name })),
    origin: 'undo',
    createdAt: now,
    newMembers,
    fieldChanges,
    groupChanges,
    disabled,
    absent,
    conflicts: [],
    permanentDeletions: absent.map((a) => a.id),
    leftOutByDefault: [],
    before: beforeMap,
    conflictsChecked: false,
  };
}
