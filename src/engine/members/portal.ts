/** One member as the portal holds them, read into the engine's terms: the group list, a member's values and levels. */
import type { Member, V2Api } from '../../api/index';
import { groupLevelOf, type GroupLevel } from '../../shared/groupLevel';
import type { MemberBefore, PortalGroup, PortalMember } from './model';

/** The organisation's groups (one request on most portals): for the export's group columns and for diagnostics. */
export async function readGroups(
  client: { readonly v2: { readonly groups: Pick<V2Api['groups'], 'list'> } },
  accountId: number,
  options: { readonly signal?: AbortSignal } = {},
): Promise<PortalGroup[]> {
  const groups = await client.v2.groups.list(accountId, undefined, { signal: options.signal });
  return groups.map((g) => ({ id: g.id, name: g.name, friendlyName: g.friendlyName }));
}

/** A v3 member in the file's terms (no groups: those come from a v2 read). */
export function portalMemberOf(member: Member): PortalMember {
  const u = member.user;
  return {
    username: u.username,
    name: u.name,
    email: u.email,
    jobTitle: u.jobTitle,
    enabled: u.enabled,
    locked: u.locked,
    pendingUnlock: member.pendingUnlock,
    accountPermission: member.permission,
    tags: member.tags,
    twoFactor: member.twoFactorAuthentication,
    lastModified: u.lastModified,
    created: member.dateCreated,
    lastActive: u.lastActive,
    memberOfMultipleAccounts: member.memberOfMultipleAccounts,
  };
}

/**
 * The member's values before a change, for the journal and undo; group levels for `groupIds` (default: every group
 * the member is known to be in) as the portal has them.
 */
export function memberBefore(p: PortalMember, groupIds: Iterable<number> = p.groups?.keys() ?? []): MemberBefore {
  const groups: Record<string, GroupLevel> = {};
  for (const id of groupIds) groups[String(id)] = p.groups?.get(id) ?? 0;
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
    groups,
  };
}

/** A v2 member read's `groups` (group name → permission) as group id → level, for the groups known by name. */
export function groupLevelsOf(
  groups: Readonly<Record<string, number>> | undefined,
  known: readonly PortalGroup[],
): Map<number, GroupLevel> {
  const byName = new Map(known.map((g) => [g.name.toLowerCase(), g.id]));
  const out = new Map<number, GroupLevel>();
  for (const [name, value] of Object.entries(groups ?? {})) {
    const id = byName.get(name.toLowerCase());
    const l = groupLevelOf(value);
    if (id !== undefined && l !== 0) out.set(id, l);
  }
  return out;
}
