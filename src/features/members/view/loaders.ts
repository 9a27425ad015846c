/**
 * The Members view's one request per page: every search, tag filter and order runs on the portal, so the view sees
 * rows it has not loaded yet. No VS Code here (the benchmark runs it).
 */
import type { PortalClient } from '../../../api/index';
import { memberRow, type MemberQuery, type MemberRow } from '../../../shared/members';
import { requestOptions as opts, type PageFetcher } from '../../../views/paging';

export function membersFetcher(client: PortalClient, accountId: number, q: MemberQuery): PageFetcher<MemberRow> {
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
