/**
 * "Give Same Access as…" as a plan of its own: for each target, the group levels, tags and account permission that
 * differ from the source's, each a change with the target's value before. The Plan view previews it, the engine
 * applies it through its journal (resumable, nothing twice) and Undo puts it back. No file text, no VS Code here.
 */
import type { PortalClient } from '../../../../api/index';
import {
  derivedPlan,
  type FieldChange,
  type GroupChange,
  type MemberBefore,
  type Plan,
} from '../../../../engine/members/model';
import { groupLevelsOf, memberBefore, portalMemberOf, readGroups } from '../../../../engine/members/portal';
import type { GroupLevel, PortalGroup, PortalMember } from '../../../../engine/members/model';

export interface SameAccessOptions {
  /** Copy the source's tags (replacing the targets'). */
  readonly tags: boolean;
  /** Copy the source's account permission. */
  readonly permission: boolean;
  /** Also take the targets out of groups the source is not in: the same access, not just at least the same. */
  readonly exact: boolean;
}

/** The groups the plan looks at: the source's, and with `exact` the targets' too, those the organisation has. */
function groupIds(
  source: PortalMember,
  targets: readonly PortalMember[],
  groups: readonly PortalGroup[],
  exact: boolean,
) {
  const ids = new Set<number>(source.groups?.keys() ?? []);
  if (exact) for (const t of targets) for (const id of t.groups?.keys() ?? []) ids.add(id);
  const known = new Set(groups.map((g) => g.id));
  return [...ids].filter((id) => known.has(id)).sort((a, b) => a - b);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** One target's changes: each group level, the tags and the permission that differ from the source's. */
function targetChanges(
  source: PortalMember,
  t: PortalMember,
  ids: readonly number[],
  names: ReadonlyMap<number, string>,
  o: SameAccessOptions,
) {
  const key = t.username.toLowerCase();
  const base = { username: t.username, row: undefined };
  const groups: GroupChange[] = [];
  for (const id of ids) {
    const before: GroupLevel = t.groups?.get(id) ?? 0;
    const after: GroupLevel = source.groups?.get(id) ?? 0;
    const groupName = names.get(id) ?? String(id);
    if (before !== after)
      groups.push({ kind: 'group', id: `${key}#group:${id}`, ...base, groupId: id, groupName, before, after });
  }
  const fields: FieldChange[] = [];
  if (o.tags && !sameSet(t.tags, source.tags))
    fields.push({ kind: 'field', id: `${key}#field:tags`, ...base, field: 'tags', before: t.tags, after: source.tags });
  const permission = source.accountPermission;
  if (o.permission && permission !== null && permission !== t.accountPermission)
    fields.push({
      kind: 'field',
      id: `${key}#field:accountPermission`,
      ...base,
      field: 'accountPermission',
      before: t.accountPermission,
      after: permission,
    });
  return { groups, fields };
}

/** The plan that gives `targets` the access of `source` (all with their groups read). Pure. */
export function sameAccessPlan(
  accountId: number,
  source: PortalMember,
  targets: readonly PortalMember[],
  groups: readonly PortalGroup[],
  o: SameAccessOptions,
  now: number = Date.now(),
): Plan {
  const ids = groupIds(source, targets, groups, o.exact);
  const names = new Map(groups.map((g) => [g.id, g.name]));
  const groupChanges: GroupChange[] = [];
  const fieldChanges: FieldChange[] = [];
  const before = new Map<string, MemberBefore>();
  for (const t of targets) {
    const changes = targetChanges(source, t, ids, names, o);
    groupChanges.push(...changes.groups);
    fieldChanges.push(...changes.fields);
    if (changes.groups.length + changes.fields.length > 0) before.set(t.username.toLowerCase(), memberBefore(t, ids));
  }
  return derivedPlan({ accountId, groups, origin: 'file', createdAt: now }, { groupChanges, fieldChanges, before });
}

/** What reading for the plan needs of a PortalClient. */
export type SameAccessClient = Pick<PortalClient, 'v2' | 'v3'>;

/**
 * Reads what the plan compares (the source and the targets, each a v3 read and a v2 read for their groups, and the
 * group list) and plans. 2 × (1 + targets) + 1 requests, however large the organisation.
 */
export async function planSameAccess(
  client: SameAccessClient,
  accountId: number,
  source: string,
  targets: readonly string[],
  o: SameAccessOptions,
  signal?: AbortSignal,
): Promise<Plan> {
  const groups = await readGroups(client, accountId, signal ? { signal } : {});
  const read = async (username: string): Promise<PortalMember> => {
    const [m, v2] = await Promise.all([
      client.v3.members.get(accountId, username, { signal }),
      client.v2.members.get(accountId, username, { signal }),
    ]);
    return { ...portalMemberOf(m), groups: groupLevelsOf(v2.groups, groups) };
  };
  const [from, ...to] = await Promise.all([source, ...targets].map(read));
  if (!from) throw new Error('no source member');
  return sameAccessPlan(accountId, from, to, groups, o);
}
