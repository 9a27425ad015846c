/** One member as the portal holds them, read into the engine's terms: the group list, a member's values and levels. */
import { isPortalError, type Member, type V2Api, type V3Api } from '../../api/index';
import { orderedPages } from '../../node/orderedPages';
import { runPool } from '../../node/pool';
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

/** Members read by name: by lower-case username, those the portal no longer holds, and the requests it took. */
export interface NamedMembers {
  readonly members: ReadonlyMap<string, PortalMember>;
  readonly gone: readonly string[];
  readonly requests: number;
}

const LIST_PAGE_SIZE = 100;

/**
 * The members named, as the portal holds them now, in the fewest requests: the list's first page says how many pages
 * there are; fewer members still to find than pages left are read one by one, more by walking the list, which stops
 * once every one is found (a thousand members out of twenty thousand cost at most 200 pages, not 1,000 reads).
 */
export async function readNamedMembers(
  client: { readonly v3: { readonly members: Pick<V3Api['members'], 'page' | 'get'> } },
  accountId: number,
  usernames: readonly string[],
  o: { readonly concurrency: number; readonly signal?: AbortSignal | undefined },
): Promise<NamedMembers> {
  const wanted = new Map(usernames.map((u) => [u.toLowerCase(), u]));
  const members = new Map<string, PortalMember>();
  let requests = 0;
  if (wanted.size === 0) return { members, gone: [], requests };
  const take = (items: readonly Member[]): void => {
    for (const m of items) {
      const key = m.user.username.toLowerCase();
      if (wanted.delete(key)) members.set(key, portalMemberOf(m));
    }
  };
  const page = (n: number, signal: AbortSignal | undefined) => {
    requests++;
    return client.v3.members.page(accountId, { page: n, size: LIST_PAGE_SIZE }, { signal });
  };
  const first = await page(1, o.signal);
  take(first.items);
  const pagesLeft = first.hasNext ? (first.totalPages ?? Number.POSITIVE_INFINITY) - 1 : 0;
  if (wanted.size > 0 && wanted.size <= pagesLeft) {
    const gone: string[] = [];
    await runPool(
      [...wanted.values()],
      o.concurrency,
      async (username) => {
        requests++;
        try {
          members.set(username.toLowerCase(), portalMemberOf(await client.v3.members.get(accountId, username, o)));
        } catch (error) {
          if (!isPortalError(error, 'not-found')) throw error;
          gone.push(username);
        }
      },
      o.signal,
    );
    o.signal?.throwIfAborted();
    return { members, gone, requests };
  }
  if (wanted.size > 0 && pagesLeft > 0) {
    const fetch = (n: number, signal: AbortSignal) => (n === 1 ? Promise.resolve(first) : page(n, signal));
    for await (const p of orderedPages(fetch, { readAhead: o.concurrency - 1, signal: o.signal })) {
      if (p !== first) take(p.items);
      if (wanted.size === 0) break;
    }
  }
  return { members, gone: [...wanted.values()], requests };
}
