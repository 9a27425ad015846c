/**
 * "Export the Members view to CSV": every member matching the view's query (search text, starts-with, or tags;
 * order), walked page by page and streamed as CSV lines, so 20,000 members never sit in one string.
 */
import { Readable } from 'node:stream';
import { PortalError, type Member, type Page, type V3Api } from '../../../api/index';
import { accountPermissionWords } from '../../../shared/permissions';
import { writeAtomically } from '../../../node/atomicFile';
import type { MemberQuery } from '../../../shared/members';
import { csvLine, UTF8_BOM } from './csv';
import { orderedPages } from '../view/memberPages';

/** The Members view's query: an export lists what the view lists. */
export type MemberExportQuery = MemberQuery;

/** What an export needs of a PortalClient. */
interface MembersCsvClient {
  readonly v3: {
    readonly members: Pick<V3Api['members'], 'page'>;
    readonly memberTags: Pick<V3Api['memberTags'], 'members'>;
  };
}

export const MEMBER_COLUMNS = [
  'username',
  'name',
  'email',
  'enabled',
  'locked',
  'accountPermission',
  'tags',
  'twoFactor',
  'created',
  'lastActive',
  'jobTitle',
] as const;
export type MemberColumn = (typeof MEMBER_COLUMNS)[number];

/** Header cells; a caller with translated labels passes its own. */
const DEFAULT_MEMBER_HEADERS: Readonly<Record<MemberColumn, string>> = {
  username: 'Username',
  name: 'Name',
  email: 'E-mail',
  enabled: 'Enabled',
  locked: 'Locked',
  accountPermission: 'Account permission',
  tags: 'Tags',
  twoFactor: 'Two-factor',
  created: 'Member since',
  lastActive: 'Last active',
  jobTitle: 'Job title',
};

interface MembersCsvOptions {
  readonly signal?: AbortSignal;
  readonly headers?: Partial<Record<MemberColumn, string>>;
  /** Pages asked for beyond the one being written; default 4. */
  readonly readAhead?: number;
  /** Called after each page with the number of rows so far and, when the portal says, the total. */
  readonly onProgress?: (rows: number, total: number | undefined) => void;
}

const PAGE_SIZE = 100;
const date = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/** One member as cells, in MEMBER_COLUMNS order. */
export function memberCells(m: Member): string[] {
  const cells: Record<MemberColumn, string> = {
    username: m.user.username,
    name: m.user.name,
    email: m.user.email,
    enabled: String(m.user.enabled),
    locked: String(m.user.locked),
    accountPermission: accountPermissionWords(m.permission),
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
  yield csvLine(MEMBER_COLUMNS.map((c) => headers[c]));
  const keep = localTextFilter(query);
  const seen = new Set<string>();
  for await (const page of orderedPages(pageFetcher(client, accountId, query), {
    readAhead: options.readAhead,
    signal: options.signal,
  })) {
    for (const m of page.items) {
      if (seen.has(m.user.username) || (keep && !keep(m))) continue;
      seen.add(m.user.username);
      yield csvLine(memberCells(m));
    }
    options.onProgress?.(seen.size, keep ? undefined : page.totalResults);
  }
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
    if (options.signal?.aborted)
      throw new PortalError({
        kind: 'cancelled',
        endpoint: '',
        message: 'The export was cancelled; no file was written.',
      });
    throw error;
  }
  return { rows };
}
