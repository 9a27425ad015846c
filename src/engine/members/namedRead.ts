/**
 * Members read by name in the fewest requests (Finish Review's removals). Apart from portal.ts, which the plan worker
 * bundles: the list walk brings the API client's paging, and the worker must not carry the HTTP client.
 */
import { isPortalError, type Member, type V3Api } from '../../api/index';
import { orderedPages } from '../../node/orderedPages';
import { runPool } from '../../node/pool';
import type { PortalMember } from './model';
import { portalMemberOf } from './portal';

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
