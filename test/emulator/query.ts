// Query-string parsing shared by every list: paging, booleans, enums.
import { badRequest } from './http';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Paging {
  page: number;
  size: number;
}

function positiveInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw badRequest(`Query parameter ${name} must be a whole number of at least 1`, [
      { field: name, message: 'must be a whole number of at least 1' },
    ]);
  }
  return Number(raw);
}

export function paging(query: URLSearchParams): Paging {
  const page = positiveInt(query, 'page') ?? 1;
  const size = Math.min(positiveInt(query, 'size') ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { page, size };
}

/** Plain-array lists: the whole array unless page or size is given. */
export function optionalPaging(query: URLSearchParams): Paging | undefined {
  return query.has('page') || query.has('size') ? paging(query) : undefined;
}

export function sliceOf<T>(items: readonly T[], p: Paging | undefined): T[] {
  if (!p) return [...items];
  const start = (p.page - 1) * p.size;
  return items.slice(start, start + p.size);
}

/** true, false, or present without a value (which means true). */
export function bool(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const v = raw.toLowerCase();
  if (v === '' || v === 'true') return true;
  if (v === 'false') return false;
  throw badRequest(`Query parameter ${name} must be true or false`, [
    { field: name, message: 'must be true or false' },
  ]);
}

export function oneOf<T extends string>(query: URLSearchParams, name: string, values: readonly T[], fallback: T): T {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const found = values.find((v) => v.toLowerCase() === raw.toLowerCase());
  if (!found)
    throw badRequest(`Query parameter ${name} must be one of ${values.join(', ')}`, [
      { field: name, message: `must be one of ${values.join(', ')}` },
    ]);
  return found;
}

export function text(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  return raw === null || raw === '' ? undefined : raw;
}

export function epochMs(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d{1,15}$/.test(raw))
    throw badRequest(`Query parameter ${name} must be a timestamp in milliseconds`, [
      { field: name, message: 'must be a timestamp in milliseconds' },
    ]);
  return Number(raw);
}

export interface Window<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
}

export function windowOf<T>(all: readonly T[], p: Paging): Window<T> {
  const start = (p.page - 1) * p.size;
  return { items: all.slice(start, start + p.size), total: all.length, page: p.page, size: p.size };
}

/** v3 envelope (spec 2.7). totalPages is 0 for an empty list. */
export function v3Envelope<T, R>(w: Window<T>, map: (item: T) => R): Record<string, unknown> {
  const totalPages = Math.ceil(w.total / w.size);
  return {
    items: w.items.map(map),
    currentPage: w.page,
    totalPages,
    pageSize: w.size,
    totalResults: w.total,
    nextPage: w.page < totalPages,
    previousPage: w.page > 1,
  };
}

/** v2 member envelope: the file envelope plus totals and previousPage. */
export function v2MemberEnvelope<T, R>(w: Window<T>, map: (item: T) => R): Record<string, unknown> {
  const totalPages = Math.ceil(w.total / w.size);
  return {
    page: w.items.map(map),
    currentPage: w.page,
    pageSize: w.size,
    nextPage: w.page < totalPages,
    previousPage: w.page > 1,
    totalResults: w.total,
    totalPages,
  };
}

export function v2FileEnvelope<T, R>(w: Window<T>, map: (item: T) => R): Record<string, unknown> {
  return {
    page: w.items.map(map),
    currentPage: w.page,
    pageSize: w.size,
    nextPage: w.page * w.size < w.total,
  };
}
