/**
 * Reads what the plan compares a file with: one walk of the v3 member list, the group list (only when the file has
 * group columns, and not at all when the caller already has it), and v2 member reads (the only read that carries a
 * member's groups, in every portal profile) only for the rows whose groups may change: rows whose group cells no
 * longer match their `groupDigest` (or have none), and rows whose member changed on the portal since the export.
 */
import { DEFAULT_MAX_CONCURRENT, isPortalError, PortalError, type V2Api, type V3Api } from '../../../../api/index';
import { runPool } from '../../../../node/pool';
import { orderedPages } from '../../../../node/orderedPages';
import { readDate } from './file/diagnose';
import { groupDigest, groupNameOf, readGroupWord, usernameOf, valueOf } from './file/membersFile';
import { memberBefore, portalMemberOf, groupLevelsOf, readGroups } from '../../../../engine/members/portal';
import type { GroupLevel, MembersFile, PortalGroup, PortalMember, PortalState } from './model';

// Reading one member, as the write engine reads them too.
export { groupLevelsOf, memberBefore, portalMemberOf, readGroups };

/** What reading the portal needs of a PortalClient. */
export interface PortalStateClient {
  readonly v3: { readonly members: Pick<V3Api['members'], 'page'> };
  readonly v2: {
    readonly groups: Pick<V2Api['groups'], 'list'>;
    readonly members: Pick<V2Api['members'], 'get'>;
  };
}

export interface PortalStateOptions {
  readonly signal?: AbortSignal;
  /** After each page and each group read: what has been read, and the total when known. */
  readonly onProgress?: (progress: {
    readonly requests: number;
    readonly members: number;
    readonly total: number | undefined;
  }) => void;
  /** Requests at once (pages ahead, group reads); default the client's default concurrency. */
  readonly concurrency?: number;
  /**
   * The organisation's groups when the caller already has them (read for the file's diagnostics): the plan then
   * does not read them again.
   */
  readonly groups?: readonly PortalGroup[];
}

const PAGE_SIZE = 100;
/** The row's group cells as group name → level (cells that are not a permission word left out). */
export function rowGroupLevels(file: MembersFile, row: MembersFile['rows'][number]): Map<string, GroupLevel> {
  const levels = new Map<string, GroupLevel>();
  for (const [key] of file.columns) {
    const name = groupNameOf(key);
    if (name === undefined) continue;
    const l = readGroupWord(valueOf(file, row, key) ?? '');
    if (l !== undefined) levels.set(name, l);
  }
  return levels;
}

/**
 * Lower-case usernames whose groups must be read to plan `file`: rows with group cells, on the portal, whose
 * cells no longer match their `groupDigest` (or have none), or whose member changed on the portal since the export.
 */
export function groupReadsNeeded(file: MembersFile, members: ReadonlyMap<string, PortalMember>): string[] {
  if (file.groupColumns.length === 0) return [];
  const out = new Set<string>();
  for (const row of file.rows) {
    const key = usernameOf(file, row).toLowerCase();
    const portal = key ? members.get(key) : undefined;
    if (!portal || out.has(key)) continue;
    const digest = valueOf(file, row, 'groupDigest')?.trim();
    const exported = readDate(valueOf(file, row, 'lastModified') ?? '');
    const unchangedOnPortal = exported !== undefined && portal.lastModified !== null && portal.lastModified <= exported;
    if (digest && unchangedOnPortal && groupDigest(rowGroupLevels(file, row)) === digest) continue;
    out.add(key);
  }
  return [...out];
}

/** Reads the organisation's members, groups and, for the rows that need it, members' groups. */
export async function readPortalState(
  client: PortalStateClient,
  accountId: number,
  file: MembersFile | undefined,
  options: PortalStateOptions = {},
): Promise<PortalState> {
  const readAt = Date.now();
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_MAX_CONCURRENT);
  let requests = 0;
  let total: number | undefined;
  const members = new Map<string, PortalMember>();
  const progress = () => options.onProgress?.({ requests, members: members.size, total });
  const fetch = (page: number, signal: AbortSignal) => {
    requests++;
    return client.v3.members.page(accountId, { page, size: PAGE_SIZE }, { signal });
  };
  for await (const page of orderedPages(fetch, { readAhead: concurrency - 1, signal: options.signal })) {
    for (const m of page.items) members.set(m.user.username.toLowerCase(), portalMemberOf(m));
    total ??= page.totalResults;
    progress();
  }
  const wantsGroups = file === undefined || file.groupColumns.length > 0;
  let groups: readonly PortalGroup[] = options.groups ?? [];
  if (wantsGroups && !options.groups) {
    groups = await readGroups(client, accountId, { signal: options.signal });
    requests++;
  }
  if (file) {
    const reads = groupReadsNeeded(file, members);
    await runPool(
      reads,
      concurrency,
      async (key) => {
        const portal = members.get(key);
        if (!portal) return;
        requests++;
        try {
          const v2 = await client.v2.members.get(accountId, portal.username, { signal: options.signal });
          members.set(key, { ...portal, groups: groupLevelsOf(v2.groups, groups) });
        } catch (error) {
          // Removed since the walk: the plan sees a new member, as the portal now does.
          if (!isPortalError(error, 'not-found')) throw error;
          members.delete(key);
        }
        progress();
      },
      options.signal,
    );
  }
  if (options.signal?.aborted)
    throw new PortalError({ kind: 'cancelled', endpoint: '', message: 'Reading the portal was cancelled.' });
  return { accountId, readAt, members, groups, requests };
}
