// Member search and ordering (v3 list, member-tags/{tags}, v2 list). Sorted orders are cached per
// account and field until the next data change, so paging 20,000 members does not re-sort per page.
import type { Membership, User } from './model';
import { bool, oneOf, text } from './query';
import type { Store } from './store';

export const MEMBER_ORDER = ['name', 'username', 'email', 'dateCreated', 'lastActive'] as const;
type MemberOrder = (typeof MEMBER_ORDER)[number];

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

interface Row {
  m: Membership;
  u: User;
}

function compare(order: MemberOrder): (a: Row, b: Row) => number {
  switch (order) {
    case 'name':
      return (a, b) => collator.compare(a.u.name, b.u.name) || a.u.id - b.u.id;
    case 'username':
      return (a, b) => collator.compare(a.u.username, b.u.username) || a.u.id - b.u.id;
    case 'email':
      return (a, b) => collator.compare(a.u.email, b.u.email) || a.u.id - b.u.id;
    case 'dateCreated':
      return (a, b) => a.m.dateCreated - b.m.dateCreated || a.u.id - b.u.id;
    // Never-active members sort as the oldest.
    case 'lastActive':
      return (a, b) => (a.u.lastActive ?? -Infinity) - (b.u.lastActive ?? -Infinity) || a.u.id - b.u.id;
  }
}

function sortedRows(store: Store, accountId: number, order: MemberOrder): Row[] {
  return store.cached(`members:${accountId}:${order}`, () =>
    store
      .membersOf(accountId)
      .flatMap((m) => {
        const u = store.users.get(m.userId);
        return u ? [{ m, u }] : [];
      })
      .sort(compare(order)),
  );
}

/** Applies name, startsWith, orderBy and ascending from the query; `only` narrows further. */
export function queryMembers(
  store: Store,
  accountId: number,
  query: URLSearchParams,
  only?: { key: string; test: (m: Membership) => boolean },
): Membership[] {
  const order = oneOf(query, 'orderBy', MEMBER_ORDER, 'name');
  const ascending = bool(query, 'ascending', true);
  const name = text(query, 'name')?.toLowerCase();
  const prefix = text(query, 'startsWith')?.toLowerCase();
  // Each page of a walk asks the same question, so the answer is cached until the next change.
  const key = `member-query:${accountId}:${order}:${ascending}:${name ?? ''}:${prefix ?? ''}:${only?.key ?? ''}`;
  return store.cached(key, () =>
    filterMembers(sortedRows(store, accountId, order), ascending, name, prefix, only?.test),
  );
}

function filterMembers(
  sorted: Row[],
  ascending: boolean,
  name: string | undefined,
  prefix: string | undefined,
  only: ((m: Membership) => boolean) | undefined,
): Membership[] {
  const rows = sorted.filter(
    ({ m, u }) =>
      (!only || only(m)) &&
      (name === undefined ||
        u.name.toLowerCase().includes(name) ||
        u.email.toLowerCase().includes(name) ||
        u.username.toLowerCase().includes(name)) &&
      (prefix === undefined || u.name.toLowerCase().startsWith(prefix) || u.email.toLowerCase().startsWith(prefix)),
  );
  if (!ascending) rows.reverse();
  return rows.map((r) => r.m);
}

export function memberByUsername(
  store: Store,
  accountId: number,
  username: string,
): { m: Membership; u: User } | undefined {
  const u = store.userByUsername(username);
  const m = u ? store.membership(accountId, u.id) : undefined;
  return u && m ? { m, u } : undefined;
}
