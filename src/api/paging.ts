/**
 * One page type for the three list shapes the portal uses, and lazy iterators over them.
 * - v3 envelope: { items, currentPage, totalPages, pageSize, totalResults, nextPage, previousPage }
 * - v2 envelope: { page: [...], currentPage, pageSize, nextPage, (members:) totalResults, totalPages, previousPage }
 * - plain arrays (v3 applications/accounts/components/member-tags, v2 accounts/groups): the spec names no paging
 *   for them. Some portals slice them by page/size anyway, others send the whole list whatever is asked.
 *
 * Rules, so that neither kind of portal can make a list repeat or grow without end:
 * - An envelope page may hold at most max(size asked, the envelope's own pageSize capped at MAX_PAGE_SIZE) rows.
 *   A longer one is an 'invalid-response' error (code PAGE_TOO_LONG) saying what the portal sent: rows beyond
 *   the page cannot be placed in the list without guessing.
 * - A plain array longer than the size asked for is the whole list: no next page. One exactly as long may have a
 *   next page (a slicing portal); a short one is the last.
 * - A plain array over MAX_LIST_ROWS rows (or over the byte cap) fails clearly (see models/read.ts).
 * - Walks (`pages`, `items`, the endpoints' iterate methods) de-duplicate rows by their key, and a page that adds
 *   no new row ends the walk: a portal that ignores paging answers every page with the first one.
 */
import * as l10n from '@vscode/l10n';
import { ERROR_CODES, PortalError, invalidModel } from './errors';
import { asObject, boolOrNull, numOrNull } from './models/read';

export { MAX_LIST_ROWS } from './models/read';

export interface Page<T> {
  items: T[];
  /** 1-based page number. */
  page: number;
  pageSize: number;
  hasNext: boolean;
  totalResults?: number;
  totalPages?: number;
}

export interface PageQuery {
  /** 1-based; default 1. */
  page?: number;
  /** Default 20 on the server, at most 100 (larger sizes are clamped). */
  size?: number;
}

export const MAX_PAGE_SIZE = 100;
/** Page size the iterators use unless told otherwise: the largest, to spend the fewest requests. */
export const ITERATE_PAGE_SIZE = 100;
/** Hard stop for any walk (a server that always says "next" must not loop forever). */
export const MAX_PAGES = 100_000;

function optionalCount(
  o: Record<string, unknown>,
  key: string,
): Partial<Record<'totalResults' | 'totalPages', number>> {
  const v = numOrNull(o, key);
  return v === null ? {} : { [key]: v };
}

/** Most rows an envelope page may carry (see the rules above). */
export function pageRowLimit(requestedSize: number, envelopePageSize: number | null): number {
  return Math.max(requestedSize, Math.min(envelopePageSize ?? 0, MAX_PAGE_SIZE));
}

function pageTooLong(rows: number, requestedSize: number): PortalError {
  return new PortalError({
    kind: 'invalid-response',
    endpoint: '',
    code: ERROR_CODES.pageTooLong,
    message: l10n.t(
      'The portal sent {0} rows for a page of {1}; it does not keep to the page size asked for, so the list cannot be shown reliably.',
      rows.toLocaleString('en-US'),
      requestedSize,
    ),
  });
}

/** The two envelopes differ only in the name of the list; the counts and flags read the same. */
/** Where a page's rows are: `items` in v3's envelope, `page` in v2's. */
export type EnvelopeKey = 'items' | 'page';

export function parseEnvelope<T>(
  listKey: EnvelopeKey,
  json: unknown,
  parse: (item: unknown) => T,
  requested: { page: number; size: number },
): Page<T> {
  const expected = listKey === 'items' ? l10n.t('an "{0}" list', 'items') : l10n.t('a "{0}" list', 'page');
  const o = asObject(json);
  const list = o?.[listKey];
  if (!o || !Array.isArray(list)) throw invalidModel('page', expected);
  const reportedSize = numOrNull(o, 'pageSize');
  // Checked before a single row is parsed: a hostile page costs nothing but this error.
  if (list.length > pageRowLimit(requested.size, reportedSize)) throw pageTooLong(list.length, requested.size);
  const items = list.map(parse);
  const page = numOrNull(o, 'currentPage') ?? requested.page;
  const pageSize = reportedSize ?? requested.size;
  const totalPages = numOrNull(o, 'totalPages');
  const next = boolOrNull(o, 'nextPage');
  return {
    items,
    page,
    pageSize,
    hasNext: next ?? (totalPages !== null ? page < totalPages : items.length >= pageSize && items.length > 0),
    ...optionalCount(o, 'totalResults'),
    ...optionalCount(o, 'totalPages'),
  };
}

/**
 * A plain-array answer to a paged request. Longer than asked: the portal ignored paging and sent the whole list,
 * so there is no next page. Exactly as long: maybe a next page (a slicing portal). Shorter: the last page.
 */
export function pageFromArray<T>(items: T[], requested: { page: number; size: number }): Page<T> {
  return {
    items,
    page: requested.page,
    pageSize: requested.size,
    hasNext: items.length === requested.size && items.length > 0,
  };
}

export function normalisePageQuery(query: PageQuery | undefined, defaultSize = 20): { page: number; size: number } {
  const page = Math.max(1, Math.floor(query?.page ?? 1));
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(query?.size ?? defaultSize)));
  return { page, size };
}

export type PageFetcher<T> = (page: number, size: number, signal?: AbortSignal) => Promise<Page<T>>;

export interface WalkOptions<T = unknown> {
  /** First page (1-based); default 1. */
  startPage?: number;
  /** Page size; default ITERATE_PAGE_SIZE. */
  size?: number;
  signal?: AbortSignal;
  /** Stop after this many pages; default MAX_PAGES. */
  maxPages?: number;
  /**
   * A row's identity (an id, a username). With it, rows seen on an earlier page are left out of later ones, and a
   * page that brings no new row ends the walk.
   */
  key?: (item: T) => unknown;
}

/** Pages, one request each, fetched only when the consumer asks for the next one. */
export async function* pages<T>(
  fetch: PageFetcher<T>,
  options: WalkOptions<T> = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const { page: startPage, size } = normalisePageQuery(
    { page: options.startPage, size: options.size },
    ITERATE_PAGE_SIZE,
  );
  const maxPages = options.maxPages ?? MAX_PAGES;
  const key = options.key;
  const seen = key ? new Set<unknown>() : undefined;
  let page = startPage;
  for (let n = 0; n < maxPages; n++) {
    let result = await fetch(page, size, options.signal);
    if (key && seen) {
      const fresh = result.items.filter((item) => {
        const k = key(item);
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
      if (fresh.length === 0) return;
      if (fresh.length !== result.items.length) result = { ...result, items: fresh };
    }
    yield result;
    if (!result.hasNext || result.items.length === 0) return;
    page = result.page + 1 > page ? result.page + 1 : page + 1;
  }
}

/** Items across pages, lazily. */
export async function* items<T>(
  fetch: PageFetcher<T>,
  options: WalkOptions<T> = {},
): AsyncGenerator<T, void, undefined> {
  for await (const p of pages(fetch, options)) yield* p.items;
}

/** What the endpoints' lists tell their items apart by, so a page that shifts under a walk repeats none. */
export const byId = (item: { readonly id: number }): number => item.id;
export const byUsername = (member: { readonly user: { readonly username: string } }): string => member.user.username;

/**
 * Items of a paged list as the endpoints' iterate methods hand them out: at the caller's page size (default
 * ITERATE_PAGE_SIZE), and stopped by the caller's signal, which each page request carries too.
 */
export function iteratePaged<T>(
  fetchPage: (query: { page: number; size: number }, options?: { signal: AbortSignal }) => Promise<Page<T>>,
  query: { readonly size?: number | undefined },
  options: { readonly signal?: AbortSignal | undefined } | undefined,
  key: (item: T) => unknown,
): AsyncIterable<T> {
  return items((page, pageSize, s) => fetchPage({ page, size: pageSize }, s ? { signal: s } : undefined), {
    size: query.size ?? ITERATE_PAGE_SIZE,
    signal: options?.signal,
    key,
  });
}

/** Collects at most `limit` items of an async iterable (for callers that want an array). */
export async function collect<T>(iterable: AsyncIterable<T>, limit = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  if (limit <= 0) return out;
  for await (const item of iterable) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}
