/**
 * "Export the Members view to CSV": every member matching the view's query (search text, starts-with, or tags;
 * order; the activity and state filter, checked on the rows as the view checks them), walked page by page and
 * streamed as CSV lines, so 20,000 members never sit in one string.
 */
import { Readable } from 'node:stream';
import {
  DEFAULT_MAX_CONCURRENT,
  PortalError,
  type Member,
  type Page,
  type V2Api,
  type V3Api,
} from '../../../api/index';
import { accountPermissionWords, levelWordOf } from '../../../shared/permissions';
import { writeAtomically } from '../../../node/atomicFile';
import { runPool } from '../../../node/pool';
import { hasActivityFilter, memberRow, type MemberQuery } from '../../../shared/members';
import { groupDigest, type GroupLevel } from '../../../node/groupDigest';
import { csvLine, UTF8_BOM } from './csv';
import { activityScan, keepScoped, type GroupsReader, type NeverSignedInReader } from '../../../shared/activityScan';
import { orderedPages } from '../../../node/orderedPages';

/** The Members view's query: an export lists what the view lists. */
export type MemberExportQuery = MemberQuery;

/** What an export needs of a PortalClient. */
interface MembersCsvClient {
  readonly v3: {
    readonly members: Pick<V3Api['members'], 'page'>;
    readonly memberTags: Pick<V3Api['memberTags'], 'members'>;
  };
  /** Needed only for an export with group columns. */
  readonly v2?: { readonly members: Pick<V2Api['members'], 'get'> };
}

/** What an export costs: requests, and the time they take within the request budget. */
export interface ExportCost {
  readonly requests: number;
  /** Estimated seconds: the pace of `concurrency` requests at `latencyMs`, or the budget's pace when slower. */
  readonly seconds: number;
  /** The export spends more than the budget window allows, so it waits for the budget part of the time. */
  readonly budgetBound: boolean;
}

/**
 * The cost of exporting `members` members: one page request per 100, plus one v2 member read per member with
 * group columns; time from the budget (`limit` requests per `windowMs`) and a typical request time.
 */
export function estimateExportCost(
  members: number,
  options: {
    readonly groups: boolean;
    readonly budget: { readonly limit: number; readonly windowMs: number };
    readonly latencyMs?: number;
    readonly concurrency?: number;
  },
): ExportCost {
  const pages = Math.max(1, Math.ceil(members / PAGE_SIZE));
  const requests = pages + (options.groups ? members : 0);
  const latency = options.latencyMs ?? 150;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_MAX_CONCURRENT);
  const atPace = (requests * latency) / concurrency / 1000;
  // Past the budget, each further `limit` requests wait for the next window.
  const windows = Math.floor(Math.max(0, requests - 1) / Math.max(1, options.budget.limit));
  const seconds = Math.max(atPace, (windows * options.budget.windowMs) / 1000);
  return { requests, seconds: Math.round(seconds * 10) / 10, budgetBound: windows > 0 };
}

const PAGE_SIZE = 100;

export { DEFAULT_MEMBER_HEADERS, MEMBER_COLUMNS, type MemberColumn } from './memberColumns';
import { DEFAULT_MEMBER_HEADERS, MEMBER_COLUMNS, type MemberColumn } from './memberColumns';

/** A group column of an export with group permissions. */
export interface ExportGroup {
  readonly id: number;
  /** The group's unique name: the column is `group:<name>`. */
  readonly name: string;
}

export interface MembersCsvOptions {
  readonly signal?: AbortSignal;
  /**
   * Adds one `group:<name>` column per group (the member's permission as a word: Basic, Standard, Administrator,
   * or empty) and the `groupDigest` column; costs one v2 member read per member (see estimateExportCost). The
   * client must then have `v2.members.get`.
   */
  readonly groups?: readonly ExportGroup[];
  /**
   * Adds the `lastModified` column (the member's portal timestamp), the baseline a plan uses to find rows changed on
   * the portal since the export. Default: true when `groups` is given, else false (the plain export stays as it was).
   */
  readonly baseline?: boolean;
  /** Member reads at once for the group columns; default the client's default concurrency. */
  readonly concurrency?: number;
  readonly headers?: Partial<Record<MemberColumn, string>>;
  /** Pages asked for beyond the one being written; default 4. */
  readonly readAhead?: number;
  /** Called after each page with the number of rows so far and, when the portal says, the total. */
  readonly onProgress?: (rows: number, total: number | undefined) => void;
  /** The clock an activity filter's "inactive N days" is measured with; default Date.now. */
  readonly now?: () => number;
  /** Learns members' groups for an activity filter scoped to a group (required then), as the Members view does. */
  readonly memberGroups?: GroupsReader;
  /** Tells who never signed in, for the "never signed in" filter (required then), as the Members view does. */
  readonly neverSignedIn?: NeverSignedInReader;
}

const date = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/**
 * The organisation permission as the members file reads it back: its word for Member, Group creator and Super
 * administrator; empty (the file leaves it as it is) for none or a value the file has no word for.
 */
function permissionCell(permission: number | null): string {
  return permission === 1 || permission === 4 || permission === 16 ? accountPermissionWords(permission) : '';
}

/** One member as cells, in MEMBER_COLUMNS order. */
export function memberCells(m: Member): string[] {
  const cells: Record<MemberColumn, string> = {
    username: m.user.username,
    name: m.user.name,
    email: m.user.email,
    enabled: String(m.user.enabled),
    locked: String(m.user.locked),
    accountPermission: permissionCell(m.permission),
    tags: m.tags.join(', '),
    twoFactor: String(m.twoFactorAuthentication),
    created: date(m.dateCreated),
    lastActive: date(m.user.lastActive),
    jobTitle: m.user.jobTitle ?? '',
  };
  return MEMBER_COLUMNS.map((c) => cells[c]);
}

/**
 * The portal's tag listing takes no search text: with both, the tags go to the portal and the text is matched
 * here, the way the portal matches it.
 */
function localTextFilter(query: MemberExportQuery): ((m: Member) => boolean) | undefined {
  const text = query.search?.trim().toLowerCase();
  if (!text || !query.tags?.length) return undefined;
  const starts = query.startsWith === true;
  return (m) => {
    const fields = starts ? [m.user.name, m.user.email] : [m.user.name, m.user.email, m.user.username];
    return fields.some((f) => (starts ? f.toLowerCase().startsWith(text) : f.toLowerCase().includes(text)));
  };
}

function pageFetcher(client: MembersCsvClient, accountId: number, query: MemberExportQuery) {
  const order = {
    ...(query.orderBy ? { orderBy: query.orderBy } : {}),
    ...(query.ascending !== undefined ? { ascending: query.ascending } : {}),
  };
  const text = query.search?.trim();
  return (page: number, signal: AbortSignal): Promise<Page<Member>> =>
    query.tags?.length
      ? client.v3.memberTags.members(accountId, query.tags, { page, size: PAGE_SIZE, ...order }, { signal })
      : client.v3.members.page(
          accountId,
          {
            page,
            size: PAGE_SIZE,
            ...order,
            ...(text ? (query.startsWith ? { startsWith: text } : { name: text }) : {}),
          },
          { signal },
        );
}

/** The header line, then one line per matching member (each once, even if pages shift during the walk). */
export async function* membersCsvLines(
  client: MembersCsvClient,
  accountId: number,
  query: MemberExportQuery,
  options: MembersCsvOptions = {},
): AsyncGenerator<string, void, undefined> {
  const headers = { ...DEFAULT_MEMBER_HEADERS, ...options.headers };
  const groups = options.groups;
  const baseline = options.baseline ?? groups !== undefined;
  const v2 = client.v2;
  if (groups && !v2) throw new Error('An export with group columns needs a client with v2 member reads.');
  yield csvLine([
    ...MEMBER_COLUMNS.map((c) => headers[c]),
    ...(baseline ? ['lastModified'] : []),
    ...(groups ? [...groups.map((g) => `group:${g.name}`), 'groupDigest'] : []),
  ]);
  const keep = localTextFilter(query);
  // The activity filter has no query parameter: the rows are checked here, walked in the order the view walks them.
  const scan = hasActivityFilter(query.activity) ? activityScan(query, (options.now ?? Date.now)()) : undefined;
  const seen = new Set<string>();
  let ended = false;
  for await (const page of orderedPages(pageFetcher(client, accountId, scan?.portalQuery ?? query), {
    readAhead: options.readAhead,
    signal: options.signal,
  })) {
    let members: Member[] = [];
    for (const m of page.items) {
      if (seen.has(m.user.username) || (keep && !keep(m))) continue;
      if (scan) {
        const row = memberRow(m);
        if (scan.endsAt(row)) {
          ended = true;
          break;
        }
        if (!scan.keeps(row)) continue;
      }
      seen.add(m.user.username);
      members.push(m);
    }
    if (scan) members = await inScopedGroup(members, query, options);
    const groupCells = groups && v2 ? await readGroupCells(v2, accountId, members, groups, options) : undefined;
    for (const [i, m] of members.entries()) {
      yield csvLine([...memberCells(m), ...(baseline ? [date(m.user.lastModified)] : []), ...(groupCells?.[i] ?? [])]);
    }
    options.onProgress?.(seen.size, keep || scan ? undefined : page.totalResults);
    if (ended) break;
  }
}

/**
 * Of the members that met the activity filter, those that never signed in (when it asks) and in its group (when it
 * has one); the invitations alone list no member.
 */
async function inScopedGroup(members: Member[], query: MemberExportQuery, o: MembersCsvOptions): Promise<Member[]> {
  if (query.activity?.invited) return [];
  if (!query.activity?.group && !query.activity?.neverSignedIn) return members;
  const read = { neverSignedIn: o.neverSignedIn, groups: o.memberGroups };
  const kept = await keepScoped(members.map(memberRow), query, read, o.signal);
  const names = new Set(kept.map((r) => r.username));
  return members.filter((m) => names.has(m.user.username));
}

/** Each member's group cells (a word per group, then the digest), read with one v2 member read per member. */
async function readGroupCells(
  v2: NonNullable<MembersCsvClient['v2']>,
  accountId: number,
  members: readonly Member[],
  groups: readonly ExportGroup[],
  options: MembersCsvOptions,
): Promise<string[][]> {
  const out: string[][] = new Array<string[]>(members.length);
  await runPool(
    members,
    options.concurrency ?? DEFAULT_MAX_CONCURRENT,
    async (m, i) => {
      const read = await v2.members.get(accountId, m.user.username, { signal: options.signal });
      const byName = new Map(Object.entries(read.groups ?? {}).map(([name, p]) => [name.toLowerCase(), p]));
      const words = groups.map((g) => levelWordOf(byName.get(g.name.toLowerCase())) ?? '');
      const levels = new Map(groups.map((g) => [g.name, (byName.get(g.name.toLowerCase()) ?? 0) as GroupLevel]));
      out[i] = [...words, groupDigest(levels)];
    },
    options.signal,
  );
  if (options.signal?.aborted) throw exportCancelled();
  return out;
}

/** A cancelled export, said the one way whichever step noticed. */
function exportCancelled(): PortalError {
  return new PortalError({
    kind: 'cancelled',
    endpoint: '',
    message: 'The export was cancelled; no file was written.',
  });
}

/**
 * Writes the export to `file` (replacing it), through a temporary file: an export cancelled or failed half-way
 * leaves no file, and an earlier export at the same path stays as it was. Starts with a UTF-8 byte order mark
 * unless `bom` is false.
 */
export async function writeMembersCsv(
  client: MembersCsvClient,
  accountId: number,
  query: MemberExportQuery,
  file: string,
  options: MembersCsvOptions & { readonly bom?: boolean } = {},
): Promise<{ rows: number }> {
  let rows = -1;
  // Lines gathered into chunks of about 64 KB: one write per chunk rather than one per member.
  async function* chunks(): AsyncGenerator<string, void, undefined> {
    let chunk = options.bom === false ? '' : UTF8_BOM;
    for await (const line of membersCsvLines(client, accountId, query, options)) {
      rows++;
      chunk += line;
      if (chunk.length >= 64 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  try {
    await writeAtomically(file, Readable.from(chunks()), {
      replace: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    // The abort surfaces as the stream's AbortError or as the request's cancellation, whichever came first.
    if (options.signal?.aborted) throw exportCancelled();
    throw error;
  }
  return { rows };
}
