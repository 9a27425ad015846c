// The `oversized-page` fault: a list answer carrying `factor` times the rows that were asked for,
// the extra rows copies of the real ones under new ids, so a client that trusts a page's length
// (or de-duplicates by id) still holds far more than it asked for.
import type { Reply } from './http';
import { isPlainObject } from './validate';

export const DEFAULT_OVERSIZE_FACTOR = 10;
/** Copies get ids from here up, far beyond every seeded or created id. */
const COPY_ID_BASE = 900_000_000;

type Json = unknown;

/** A copy of one row with a new identity: numeric ids, user ids and usernames, client ids, names. */
function renamed(row: Json, copy: number, nextId: () => number): Json {
  if (typeof row === 'string') return `${row}-copy${copy}`;
  if (!isPlainObject(row)) return row;
  const out: Record<string, unknown> = { ...row };
  if (typeof out.id === 'number') out.id = nextId();
  if (typeof out.clientId === 'string') out.clientId = `${out.clientId}-copy${copy}`;
  if (isPlainObject(out.user)) out.user = renamed(out.user, copy, nextId);
  if (typeof out.username === 'string') out.username = `${out.username}.copy${copy}`;
  if (out.id === undefined && out.clientId === undefined && out.user === undefined && typeof out.name === 'string')
    out.name = `${out.name}-copy${copy}`;
  return out;
}

function grow(rows: readonly Json[], target: number): Json[] {
  if (rows.length === 0) return [];
  let id = COPY_ID_BASE;
  const out: Json[] = [...rows];
  for (let i = rows.length; i < target; i++)
    out.push(renamed(rows[i % rows.length], Math.floor(i / rows.length), () => id++));
  return out;
}

function asked(query: URLSearchParams, pageSize: unknown, rows: number): number {
  const size = Number(query.get('size'));
  if (Number.isInteger(size) && size > 0) return size;
  if (typeof pageSize === 'number' && pageSize > 0) return pageSize;
  return rows;
}

/** Plain arrays, the v3 envelope (`items`) and the v2 envelopes (`page`); anything else is left alone. */
export function oversize(reply: Reply, query: URLSearchParams, factor = DEFAULT_OVERSIZE_FACTOR): Reply {
  if (reply.kind !== 'json' || reply.status !== 200) return reply;
  const body = reply.body;
  if (Array.isArray(body)) return { ...reply, body: grow(body, factor * asked(query, undefined, body.length)) };
  if (!isPlainObject(body)) return reply;
  for (const key of ['items', 'page'] as const) {
    const rows = body[key];
    if (Array.isArray(rows))
      return { ...reply, body: { ...body, [key]: grow(rows, factor * asked(query, body.pageSize, rows.length)) } };
  }
  return reply;
}
