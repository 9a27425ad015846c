/**
 * A review's Remove and Lower decisions as a plan of member changes, made the way Give Same Access makes its plan
 * (members/access/sameAccess/plan.ts): each member read now (v3, and v2 for their groups when a group changes), each change with the
 * member's value before, through the engine's model. The Plan view shows it and the engine applies it (journal,
 * report, Undo); nothing is sent here. Removed from the organisation: the members file's removal (deleting the user
 * for good when they belong to no other organisation, which the engine reads again at sending). Removed from, or
 * lowered in, a group: a group change. No VS Code here.
 */
import { isPortalError, type PortalClient } from '../../../api/index';
import {
  derivedPlan,
  type AbsentChange,
  type GroupChange,
  type MemberBefore,
  type Plan,
  type PortalGroup,
  type PortalMember,
} from '../../../engine/members/model';
import { readNamedMembers } from '../../../engine/members/namedRead';
import { groupLevelsOf, memberBefore, readGroups } from '../../../engine/members/portal';
import { groupLevelOf, type GroupLevel } from '../../../shared/groupLevel';
import { runPool } from '../../../node/pool';
import type { Decision, ReviewRow } from './review.protocol';

export type ReviewPlanClient = Pick<PortalClient, 'v2' | 'v3'>;

export interface ReviewPlanResult {
  readonly plan: Plan;
  /** Members who were decided on but are no longer on the portal: nothing to change for them. */
  readonly gone: readonly string[];
  /** Requests the reads took. */
  readonly requests: number;
}

interface Target {
  readonly username: string;
  readonly decision: Decision;
}

/** The groups a decision changes for the member, with the level after: removed (0) or lowered. */
function groupTargets(m: PortalMember, d: Decision, scope: PortalGroup | undefined): Array<[number, number]> {
  const levels = [...(m.groups ?? new Map()).entries()];
  const inScope = scope ? levels.filter(([id]) => id === scope.id) : levels;
  if (d.kind === 'remove') return inScope.map(([id]) => [id, 0]);
  const to = d.level ?? 0;
  return inScope.filter(([, level]) => level > to).map(([id]) => [id, to]);
}

/** One member's changes: a removal from the organisation, or group changes. Pure. */
function changesOf(m: PortalMember, d: Decision, scope: PortalGroup | undefined, groups: readonly PortalGroup[]) {
  const key = m.username.toLowerCase();
  const base = { username: m.username, row: undefined };
  if (d.kind === 'remove' && !scope) {
    const absent: AbsentChange = {
      kind: 'absent',
      id: `${key}#absent`,
      ...base,
      action: 'remove',
      permanent: !m.memberOfMultipleAccounts,
    };
    return { absent: [absent], groups: [] as GroupChange[], before: memberBefore(m, []) };
  }
  const names = new Map(groups.map((g) => [g.id, g.name]));
  const changes: GroupChange[] = groupTargets(m, d, scope).map(([groupId, after]) => ({
    kind: 'group',
    id: `${key}#group:${groupId}`,
    ...base,
    groupId,
    groupName: names.get(groupId) ?? String(groupId),
    before: m.groups?.get(groupId) ?? 0,
    after: groupLevelOf(after),
  }));
  return {
    absent: [] as AbsentChange[],
    groups: changes,
    before: memberBefore(
      m,
      changes.map((c) => c.groupId),
    ),
  };
}

/** The plan from members as read now. Pure. */
export function reviewPlan(
  accountId: number,
  members: ReadonlyArray<{ readonly member: PortalMember; readonly decision: Decision }>,
  groups: readonly PortalGroup[],
  scopeName: string | undefined,
  title: string,
  now: number = Date.now(),
): Plan {
  const scope =
    scopeName === undefined ? undefined : groups.find((g) => g.name.toLowerCase() === scopeName.toLowerCase());
  const absent: AbsentChange[] = [];
  const groupChanges: GroupChange[] = [];
  const before = new Map<string, MemberBefore>();
  for (const { member, decision } of members) {
    const c = changesOf(member, decision, scope, groups);
    if (c.absent.length + c.groups.length === 0) continue;
    absent.push(...c.absent);
    groupChanges.push(...c.groups);
    before.set(member.username.toLowerCase(), c.before);
  }
  return derivedPlan({ accountId, groups, origin: 'file', createdAt: now, title }, { absent, groupChanges, before });
}

/**
 * Reads what the plan compares and plans: the group list, the members decided on (one by one, or a walk of the member
 * list when that takes fewer requests: see readNamedMembers), and a v2 read for the groups of each member who does
 * not leave the organisation.
 */
export async function planReview(
  client: ReviewPlanClient,
  accountId: number,
  decided: ReadonlyArray<{ readonly row: ReviewRow; readonly decision: Decision }>,
  scopeName: string | undefined,
  o: { readonly title: string; readonly concurrency: number; readonly signal?: AbortSignal | undefined },
): Promise<ReviewPlanResult> {
  const signal = o.signal;
  const groups = await readGroups(client, accountId, signal ? { signal } : {});
  const targets: Target[] = decided.map((d) => ({ username: d.row.identity, decision: d.decision }));
  const needsGroups = (t: Target): boolean => scopeName !== undefined || t.decision.kind === 'lower';
  const needGroups = targets.filter(needsGroups);
  const levels = new Map<string, Map<number, GroupLevel>>();
  const [named] = await Promise.all([
    readNamedMembers(
      client,
      accountId,
      targets.map((t) => t.username),
      { concurrency: o.concurrency, signal },
    ),
    runPool(
      needGroups,
      o.concurrency,
      async (t) => {
        try {
          const v2 = await client.v2.members.get(accountId, t.username, { signal });
          levels.set(t.username.toLowerCase(), groupLevelsOf(v2.groups, groups));
        } catch (error) {
          // No longer on the portal: left out of the plan below, as gone.
          if (!isPortalError(error, 'not-found')) throw error;
        }
      },
      signal,
    ),
  ]);
  signal?.throwIfAborted();
  const members: Array<{ member: PortalMember; decision: Decision }> = [];
  const gone = new Set(named.gone);
  for (const t of targets) {
    const key = t.username.toLowerCase();
    const m = named.members.get(key);
    const g = levels.get(key);
    if (!m || (!g && needsGroups(t))) gone.add(t.username);
    else members.push({ member: g ? { ...m, groups: g } : m, decision: t.decision });
  }
  const requests = 1 + named.requests + needGroups.length;
  return { plan: reviewPlan(accountId, members, groups, scopeName, o.title), gone: [...gone], requests };
}
