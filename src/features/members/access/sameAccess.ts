/**
 * "Give Same Access as…" as an input to the membership-as-code planner: a members file with one row per target that
 * says "these groups at the source's levels" (and, when asked, the source's tags and account permission). The planner
 * then compares it with the portal as for any file, so the change is previewed in the Plan view, applied through its
 * journal (resumable, nothing twice) and undoable, with no second planner here. No VS Code here.
 */
import { csvLine } from '../csv/csv';
import { accountPermissionWord, groupWord, parseMembersFile } from '../plan/core/file/membersFile';
import { groupLevelsOf, portalMemberOf, readGroups } from '../plan/core/portalState';
import { makePlan } from '../plan/core/planner';
import {
  GROUP_COLUMN_PREFIX,
  type GroupLevel,
  type Plan,
  type PortalGroup,
  type PortalMember,
  type PortalState,
} from '../plan/core/model';
import type { PortalClient } from '../../../api/index';

export interface SameAccessOptions {
  /** Copy the source's tags (replacing the targets'). */
  readonly tags: boolean;
  /** Copy the source's account permission. */
  readonly permission: boolean;
  /** Also take the targets out of groups the source is not in: the same access, not just at least the same. */
  readonly exact: boolean;
}

/** The members file that gives `targets` the access of `source` (all with their groups read). */
export function sameAccessFile(
  source: PortalMember,
  targets: readonly PortalMember[],
  groups: readonly PortalGroup[],
  o: SameAccessOptions,
): string {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const sourceGroups = source.groups ?? new Map<number, GroupLevel>();
  const ids = new Set<number>(sourceGroups.keys());
  if (o.exact) for (const t of targets) for (const id of t.groups?.keys() ?? []) ids.add(id);
  const columns = [...ids].filter((id) => byId.has(id)).sort((a, b) => a - b);
  const header = ['username', ...columns.map((id) => `${GROUP_COLUMN_PREFIX}${byId.get(id)?.name ?? ''}`)];
  if (o.tags) header.push('tags');
  if (o.permission) header.push('accountPermission');
  let text = csvLine(header);
  for (const t of targets) {
    const cells = [t.username, ...columns.map((id) => groupWord(sourceGroups.get(id) ?? 0))];
    if (o.tags) cells.push(source.tags.join(', '));
    if (o.permission) cells.push(accountPermissionWord(source.accountPermission));
    text += csvLine(cells);
  }
  return text;
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
  const members = new Map<string, PortalMember>();
  for (const m of [from, ...to]) members.set(m.username.toLowerCase(), m);
  const state: PortalState = { accountId, readAt: Date.now(), members, groups, requests: 1 + 2 * members.size };
  const file = parseMembersFile(sameAccessFile(from, to, groups, o));
  return makePlan(file, state, { absent: 'leave' });
}
