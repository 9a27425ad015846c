/**
 * A plan as units of work: one per member, in plan order, with the requests it takes and the values it had, so the
 * journal's first line holds the whole run before anything is sent. Pure.
 */
import type { GroupLevel } from '../../shared/groupLevel';
import {
  allChanges,
  type CreateChange,
  type JournalWork,
  type MemberTarget,
  type Plan,
  type PlanChange,
  type RestoreChange,
} from './model';
import { createRequests, emptyBefore, targetOfSpec, updateRequests } from './requests';

/** What the one confirmation names. */
export interface PlanCounts {
  readonly members: number;
  readonly create: number;
  readonly update: number;
  readonly disable: number;
  readonly remove: number;
  /** Removals that delete a user for good. */
  readonly permanent: number;
  readonly conflictsChosen: number;
}

/** The changes that will run: every change not left out. */
export function chosenChanges(plan: Plan, leftOut: ReadonlySet<string> = new Set(plan.leftOutByDefault)): PlanChange[] {
  return allChanges(plan).filter((c) => !leftOut.has(c.id));
}

/** Counts for the confirmation. */
export function countPlan(plan: Plan, leftOut: ReadonlySet<string> = new Set(plan.leftOutByDefault)): PlanCounts {
  const changes = chosenChanges(plan, leftOut);
  const work = workOf(plan, changes);
  const chosen = new Set(changes.map((c) => c.id));
  const count = (test: (w: JournalWork) => boolean) => work.filter(test).length;
  return {
    members: work.length,
    create: count((w) => w.action === 'create' || w.action === 'restore'),
    update: count((w) => w.action === 'update'),
    disable: count((w) => w.action === 'disable'),
    remove: count((w) => w.action === 'remove'),
    permanent: count((w) => w.permanent),
    conflictsChosen: plan.conflicts.filter((c) => c.changeIds.some((id) => chosen.has(id))).length,
  };
}

type Base = Pick<JournalWork, 'seq' | 'username' | 'row' | 'changeIds'>;

function createWork(plan: Plan, base: Base, created: CreateChange | RestoreChange): JournalWork {
  const groupNames: Record<string, string> = {};
  for (const g of plan.groups) if (created.member.groups.has(g.id)) groupNames[String(g.id)] = g.name;
  return {
    ...base,
    action: created.kind === 'create' ? 'create' : 'restore',
    before: null,
    after: targetOfSpec(created.member),
    requests: createRequests(created.member, created.kind === 'restore' ? created.profile : undefined),
    groupNames,
    permanent: false,
  };
}

function updateWork(plan: Plan, base: Base, list: readonly PlanChange[]): JournalWork {
  const before = plan.before.get(base.username.toLowerCase()) ?? emptyBefore(base.username);
  const fields: Record<string, unknown> = {};
  const groups: Record<string, GroupLevel> = {};
  const groupNames: Record<string, string> = {};
  let disables = false;
  for (const c of list) {
    if (c.kind === 'field') fields[c.field] = c.after;
    if (c.kind === 'group') groups[String(c.groupId)] = c.after;
    if (c.kind === 'group') groupNames[String(c.groupId)] = c.groupName;
    if (c.kind === 'absent') fields.enabled = false;
    if ((c.kind === 'field' && c.field === 'enabled' && !c.after) || c.kind === 'absent') disables = true;
  }
  const after: MemberTarget = { fields: fields as MemberTarget['fields'], groups };
  const action = disables && list.length === 1 ? 'disable' : 'update';
  return { ...base, action, before, after, requests: updateRequests(after, before), groupNames, permanent: false };
}

/** One member's changes as one unit: a create, a removal, or an update of fields and groups. */
function memberWork(plan: Plan, seq: number, list: readonly PlanChange[]): JournalWork {
  const first = list[0] as PlanChange;
  const base: Base = { seq, username: first.username, row: first.row, changeIds: list.map((c) => c.id) };
  const created = list.find((c): c is CreateChange | RestoreChange => c.kind === 'create' || c.kind === 'restore');
  if (created) return createWork(plan, base, created);
  const removal = list.find((c) => (c.kind === 'absent' && c.action === 'remove') || c.kind === 'uncreate');
  if (removal && (removal.kind === 'absent' || removal.kind === 'uncreate')) {
    const before = plan.before.get(base.username.toLowerCase()) ?? emptyBefore(base.username);
    const requests = [{ method: 'v3.delete' as const }];
    return { ...base, action: 'remove', before, after: null, requests, groupNames: {}, permanent: removal.permanent };
  }
  return updateWork(plan, base, list);
}

/** The plan's chosen changes as work items, one per member, in plan order. */
export function workOf(plan: Plan, changes: readonly PlanChange[]): JournalWork[] {
  const byMember = new Map<string, PlanChange[]>();
  for (const c of changes) {
    const key = c.username.toLowerCase();
    const list = byMember.get(key);
    if (list) list.push(c);
    else byMember.set(key, [c]);
  }
  return [...byMember.values()].map((list, seq) => memberWork(plan, seq, list));
}
