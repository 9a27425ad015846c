/**
 * One page type for the three list shapes the portal uses, and lazy iterators over them.
 * - v3 envelope: { items, currentPage, totalPages, pageSize, totalResults, nextPage, previousPage }
 * - v2 envelope: { page: [...], currentPage, pageSize, nextPage, (members:) totalResults, totalPages, previousPage }
 * - plain arrays (v3 applications/accounts/components/member-tags, v2 accounts/groups): the server returns the
 *   slice when page/size are given, else everything; there is no "next" flag, so a short page ends the walk.
 */
import { invalidModel } from './errors';
import { asObject, boolOrNull, numOrNull } from './models/read';

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

function optionalCount(o: Record<string, unknown>, key: string): Partial<Record<'totalResults' | 'totalPages', number>> {
  const v = numOrNull(o, key);
  return v === null ? {} : { [key]: v };
}

/** v3 envelope (`items`). */
export function parseItemsEnvelope<T>(json: unknown, parse: (item: unknown) => T, requested: { page: number; size: number }): Page<T> {
  return parseEnvelope(json, 'items', 'an "items" list', parse, requested);
}

/** v2 envelope (`page`). */
export function parsePageEnvelope<T>(json: unknown, parse: (item: unknown) => T, requested: { page: number; size: number }): Page<T> {
  return parseEnvelope(json, 'page', 'a "page" list', parse, requested);
}

/** The two envelopes differ only in the name of the list; the counts and flags read the same. */
function parseEnvelope<T>(
  json: unknown, listKey: 'items' | 'page', expected: string, parse: (item: unknown) => T, requested: { page: number; size: number },
): Page<T> {
  const o = asObject(json);
  const list = o?.[listKey];
  if (!o || !Array.isArray(list)) throw invalidModel('page', expected);
  const items = list.map(parse);
  const page = numOrNull(o, 'currentPage') ?? requested.page;
  const pageSize = numOrNull(o, 'pageSize') ?? requested.size;
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

/** A plain-array answer to a paged request: a full page may have a next one, a short page is the last. */
export function pageFromArray<T>(items: T[], requested: { page: number; size: number }): Page<T> {
  return {
    items,
    page: requested.page,
    pageSize: requested.size,
    hasNext: items.length >= requested.size && items.length > 0,
  };
}

export function normalisePageQuery(query: PageQuery | undefined, defaultSize = 20): { page: number; size: number } {
  const page = Math.max(1, Math.floor(query?.page ?? 1));
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(query?.size ?? defaultSize)));
  return { page, size };
}

export type PageFetcher<T> = (page: number, size: number, signal?: AbortSignal) => Promise<Page<T>>;

export interface WalkOptions {
  /** First page (1-based); default 1. */
  startPage?: number;
  /** Page size; default ITERATE_PAGE_SIZE. */
  size?: number;
  signal?: AbortSignal;
  /** Stop after this many pages; default MAX_PAGES. */
  maxPages?: number;
}

/** Pages, one request each, fetched only when the consumer asks for the next one. */
export async function* pages<T>(fetch: PageFetcher<T>, options: WalkOptions = {}): AsyncGenerator<Page<T>, void, undefined> {
  const { page: startPage, size } = normalisePageQuery({ page: options.startPage, size: options.size }, ITERATE_PAGE_SIZE);
  const maxPages = options.maxPages ?? MAX_PAGES;
  let page = startPage;
  for (let n = 0; n < maxPages; n++) {
    const result = await fetch(page, size, options.signal);
    yield result;
    if (!result.hasNext || result.items.length === 0) return;
    page = result.page + 1 > page ? result.page + 1 : page + 1;
  }
}

/** Items across pages, lazily. */
export async function* items<T>(fetch: PageFetcher<T>, options: WalkOptions = {}): AsyncGenerator<T, void, undefined> {
  for await (const p of pages(fetch, options)) yield* p.items;
}

/**
 * Items of a paged list as the endpoints' iterate methods hand them out: at the caller's page size (default
 * ITERATE_PAGE_SIZE), and stopped by the caller's signal, which each page request carries too.
 */
export function iteratePaged<T>(
  fetchPage: (query: { page: number; size: number }, options?: { signal: AbortSignal }) => Promise<Page<T>>,
  size: number | undefined,
  signal: AbortSignal | undefined,
): AsyncIterable<T> {
  return items((page, pageSize, s) => fetchPage({ page, size: pageSize }, s ? { signal: s } : undefined), {
    size: size ?? ITERATE_PAGE_SIZE,
    signal,
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
