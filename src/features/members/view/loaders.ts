/**
 * The Members view's pages. Search, tag filter and order run on the portal, so the view sees rows it has not loaded
 * yet: one request per page. The activity filter (inactive, never active, disabled, locked, pending activation,
 * two-factor off) has no query parameter in the portal's member list, so it is checked here on the rows as the list
 * is walked, a bounded number of portal pages per "Load more…":
 * - inactive / never active: the portal is asked for the least recently active first (never-active members sort as
 *   the oldest), so the walk ends at the first member active since the cutoff: every match, and no more pages;
 * - the states: the list is walked in the view's order, and a load stops at a page of matches or after
 *   MAX_SCAN_PAGES pages (a load that has found nothing walks on, up to MAX_EMPTY_SCAN_PAGES); "Load more…" goes
 *   on from there.
 * A filter scoped to a group checks the rest first, from the list, then learns the groups of only the rows that met it
 * (from the access store when fresh, else a v2 member read each) and keeps those in the group.
 * No VS Code here (the benchmark runs it).
 */
import type { PortalClient } from '../../../api/index';
import { activityScan, keepScoped, type ScopeReaders } from '../../../shared/activityScan';
import { hasActivityFilter, memberRow, type MemberQuery, type MemberRow } from '../../../shared/members';
import { requestOptions as opts, type PageFetcher, type PageResult } from '../../../views/paging';

/** Portal pages one "Load more…" of an activity filter may walk (100 members each). */
export const MAX_SCAN_PAGES = 20;
/** ...and while it has found nothing yet: 25,000 members. */
export const MAX_EMPTY_SCAN_PAGES = 250;
const SCAN_PAGE_SIZE = 100;

function portalFetcher(client: PortalClient, accountId: number, q: MemberQuery): PageFetcher<MemberRow> {
  return async ({ page, size, signal }) => {
    const order = {
      ...(q.orderBy ? { orderBy: q.orderBy } : {}),
      ...(q.ascending !== undefined ? { ascending: q.ascending } : {}),
    };
    const p =
      q.tags && q.tags.length > 0
        ? // The tag endpoint takes no name filter, so a search and a tag filter are never combined.
          await client.v3.memberTags.members(accountId, q.tags, { page, size, ...order }, opts(signal))
        : await client.v3.members.page(
            accountId,
            {
              page,
              size,
              ...order,
              ...(q.search ? (q.startsWith ? { startsWith: q.search } : { name: q.search }) : {}),
            },
            opts(signal),
          );
    return { items: p.items.map(memberRow), hasMore: p.hasNext, total: p.totalResults };
  };
}

/** Walks the portal's pages and keeps the rows that meet the activity filter; see the top of this file. */
function activityFetcher(
  client: PortalClient,
  accountId: number,
  q: MemberQuery,
  now: () => number,
  o: WalkOptions,
): PageFetcher<MemberRow> {
  const portal = portalFetcher(client, accountId, activityScan(q, now()).portalQuery);
  let cursor = 1;
  let done = false;
  return async ({ page, size, signal }): Promise<PageResult<MemberRow>> => {
    if (page === 1) {
      cursor = 1;
      done = false;
    }
    const scan = activityScan(q, now());
    const out: MemberRow[] = [];
    // A load that found nothing walks on (the view ends a list at a load that adds no row), up to MAX_EMPTY_SCAN_PAGES.
    for (
      let walked = 0;
      !done && out.length < size && (walked < MAX_SCAN_PAGES || (out.length === 0 && walked < MAX_EMPTY_SCAN_PAGES));
      walked++
    ) {
      const p = await portal({ page: cursor++, size: SCAN_PAGE_SIZE, signal });
      if (p.total !== undefined) o.onScanned?.(p.total);
      const met: MemberRow[] = [];
      for (const row of p.items) {
        if (scan.endsAt(row)) {
          done = true;
          break;
        }
        if (scan.keeps(row)) met.push(row);
      }
      out.push(...(await keepScoped(met, q, o, signal)));
      if (!p.hasMore || p.items.length === 0) done = true;
    }
    // No total: what matches further on is not known until it is walked.
    return { items: out, hasMore: !done };
  };
}

export interface WalkOptions extends ScopeReaders {
  /**
   * With an activity filter, the number of members the filter is checked among (the organisation's, or the
   * search's), as the portal reports it: the "36" of "29 of 36 match".
   */
  readonly onScanned?: ((total: number) => void) | undefined;
}

export function membersFetcher(
  client: PortalClient,
  accountId: number,
  q: MemberQuery,
  now: () => number = Date.now,
  o: WalkOptions = {},
): PageFetcher<MemberRow> {
  // The pending invitations alone: the view shows them from the access store, and no member.
  if (q.activity?.invited) return () => Promise.resolve({ items: [], hasMore: false, total: 0 });
  return hasActivityFilter(q.activity)
    ? activityFetcher(client, accountId, q, now, o)
    : portalFetcher(client, accountId, q);
}
