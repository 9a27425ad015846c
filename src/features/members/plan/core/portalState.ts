/**
 * Reads what the plan compares a file with: one walk of the v3 member list, the group list (only when the file has
 * group columns or a member's groups are read, and not at all when the caller already has it), and v2 member reads
 * (the only read that carries a member's groups, in every portal profile) only for the rows whose groups may change
 * (group cells that no longer match their `groupDigest`, or have none) and the rows that would hand over the sign-in
 * of a member who may be an Administrator of a group (see groupReadsNeeded).
 */
import { DEFAULT_MAX_CONCURRENT, isPortalError, PortalError, type V2Api, type V3Api } from '../../../../api/index';
import { runPool } from '../../../../node/pool';
import { orderedPages } from '../../../../node/orderedPages';
import { desiredRows } from './file/desiredRows';
import { groupReadsNeeded } from './file/groupReads';
import { memberBefore, portalMemberOf, groupLevelsOf, readGroups } from '../../../../engine/members/portal';
import type { MembersFile, PortalGroup, PortalMember, PortalState } from './model';

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
/**
 * What reading the portal needs to know of a members file: whether it has group columns, and whose groups to read
 * once the members are known. A file read in this thread answers from its rows (needsOf); one read by the planning
 * worker answers through it.
 */
export interface StateNeeds {
  readonly hasGroupColumns: boolean;
  groupReads(members: ReadonlyMap<string, PortalMember>): Promise<readonly string[]> | readonly string[];
}

export function needsOf(file: MembersFile | StateNeeds): StateNeeds {
  if (!('rows' in file)) return file;
  return { hasGroupColumns: file.groupColumns.length > 0, groupReads: (members) => groupReadsNeeded(file, members) };
}

/** Reads the organisation's members, groups and, for the rows that need it, members' groups. */
export async function readPortalState(
  client: PortalStateClient,
  accountId: number,
  file: MembersFile | StateNeeds | undefined,
  options: PortalStateOptions = {},
): Promise<PortalState> {
  const readAt = Date.now();
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_MAX_CONCURRENT);
  const read: Reading = { requests: 0, total: undefined, members: new Map() };
  const fetch = (page: number, signal: AbortSignal) => {
    read.requests++;
    return client.v3.members.page(accountId, { page, size: PAGE_SIZE }, { signal });
  };
  for await (const page of orderedPages(fetch, { readAhead: concurrency - 1, signal: options.signal })) {
    for (const m of page.items) read.members.set(m.user.username.toLowerCase(), portalMemberOf(m));
    read.total ??= page.totalResults;
    progressOf(read, options);
  }
  return withGroups(client, accountId, file, read, { ...options, concurrency }, readAt);
}

/** What a read has gathered so far. */
interface Reading {
  requests: number;
  total: number | undefined;
  readonly members: Map<string, PortalMember>;
}

function progressOf(read: Reading, options: PortalStateOptions): void {
  options.onProgress?.({ requests: read.requests, members: read.members.size, total: read.total });
}

/** The group list when the file has group columns, then the groups of the members whose rows need them. */
async function withGroups(
  client: PortalStateClient,
  accountId: number,
  file: MembersFile | StateNeeds | undefined,
  read: Reading,
  options: PortalStateOptions & { readonly concurrency: number },
  readAt: number,
): Promise<PortalState> {
  const { members } = read;
  const needs = file === undefined ? undefined : needsOf(file);
  const reads = needs ? await needs.groupReads(members) : [];
  // A member's groups are read by name: the list names them, with or without group columns.
  const wantsGroups = needs === undefined || needs.hasGroupColumns || reads.length > 0;
  let groups: readonly PortalGroup[] = options.groups ?? [];
  if (wantsGroups && !options.groups) {
    groups = await readGroups(client, accountId, { signal: options.signal });
    read.requests++;
  }
  if (needs) {
    await runPool(
      reads,
      options.concurrency,
      async (key) => {
        const portal = members.get(key);
        if (!portal) return;
        read.requests++;
        try {
          const v2 = await client.v2.members.get(accountId, portal.username, { signal: options.signal });
          members.set(key, { ...portal, groups: groupLevelsOf(v2.groups, groups) });
        } catch (error) {
          // Removed since the walk: the plan sees a new member, as the portal now does.
          if (!isPortalError(error, 'not-found')) throw error;
          members.delete(key);
        }
        progressOf(read, options);
      },
      options.signal,
    );
  }
  if (options.signal?.aborted)
    throw new PortalError({ kind: 'cancelled', endpoint: '', message: 'Reading the portal was cancelled.' });
  return { accountId, readAt, members, groups, requests: read.requests };
}

/** The lower-case usernames the file's rows name, each once. */
export function namedUsernames(file: MembersFile): string[] {
  return [
    ...new Set(
      desiredRows(file)
        .rows.map((r) => r.username.toLowerCase())
        .filter((u) => u !== ''),
    ),
  ];
}

/**
 * Requests reading the portal for `file` takes at most, in an organisation of `total` members: by the walk of the
 * member list (`pages` of them; default one per 100 members), or by one read of each member the rows name. The
 * group list and the members' group reads are the same either way.
 */
export function stateReads(file: MembersFile, total: number, pages?: number): { list: number; named: number } {
  const named = namedUsernames(file).length;
  const groupReads = file.groupColumns.length > 0 ? 1 + named : 0;
  return { list: (pages ?? Math.max(1, Math.ceil(total / PAGE_SIZE))) + groupReads, named: named + groupReads };
}

/** What reading the named members needs of a PortalClient: one member read each. */
export interface NamedStateClient extends PortalStateClient {
  readonly v3: { readonly members: Pick<V3Api['members'], 'page' | 'get'> };
}

/**
 * The portal as the plan of a file sees it, from one read of each member its rows name (`usernames`, see
 * namedUsernames) instead of the walk: for a file that names a few members of a large organisation. A name the
 * portal does not know is a new member. Only a plan that leaves absent members alone may be made from it: the other
 * members are not read. The members' groups are read as `file` asks (its rows, or the worker that holds them).
 */
export async function readNamedPortalState(
  client: NamedStateClient,
  accountId: number,
  usernames: readonly string[],
  file: MembersFile | StateNeeds,
  options: PortalStateOptions = {},
): Promise<PortalState> {
  const readAt = Date.now();
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_MAX_CONCURRENT);
  const read: Reading = { requests: 0, total: usernames.length, members: new Map() };
  await runPool(
    usernames,
    concurrency,
    async (username) => {
      read.requests++;
      try {
        const m = await client.v3.members.get(accountId, username, { signal: options.signal });
        read.members.set(m.user.username.toLowerCase(), portalMemberOf(m));
      } catch (error) {
        if (!isPortalError(error, 'not-found')) throw error;
      }
      progressOf(read, options);
    },
    options.signal,
  );
  return withGroups(client, accountId, file, read, { ...options, concurrency }, readAt);
}
