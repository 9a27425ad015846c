/**
 * Go to File Record's search for other features (contracts.ts): the same search over every group of an account,
 * with the same group list and folder caches, gathered into one answer with each hit's folders. At most
 * `MAX_HITS` hits are kept; the count of groups whose answer was cut short says whether there may be more.
 */
import type { AccountRef, GroupRef } from '../../../shared/refs';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { FileFinder, FoundFileRecord } from '../../contracts';
import { FileSearch } from './fileSearch';
import { foldersOf, type GoToCaches } from './goToFile';

const MAX_HITS = 500;

export function fileFinder(registry: PortalRegistry, caches: GoToCaches): FileFinder {
  return {
    groupCount: async (account: AccountRef, signal: AbortSignal) => {
      const groups = await caches.groups.get(registry.client(account.portalId), account.accountId, signal);
      return groups?.length ?? 0;
    },
    find: async (account: AccountRef, text: string, signal: AbortSignal) => {
      const client = registry.client(account.portalId);
      const search = new FileSearch(client, account.accountId, { groups: caches.groups });
      const hits: FoundFileRecord[] = [];
      let groups = 0;
      let incomplete = 0;
      for await (const batch of search.search(text, signal)) {
        groups = batch.groupsTotal;
        if (!batch.complete) incomplete++;
        const group: GroupRef = { kind: 'group', account, groupId: batch.group.id, label: batch.group.label };
        for (const r of batch.hits) {
          if (hits.length >= MAX_HITS) break;
          const steps = await foldersOf(r, group, { client, folders: caches.folders }, signal);
          hits.push({
            groupId: batch.group.id,
            groupName: batch.group.name,
            groupLabel: batch.group.label,
            id: r.id,
            name: r.name,
            isFolder: r.isFolder,
            size: r.size,
            folders: steps?.map((s) => s.name),
          });
        }
      }
      return { hits, groups, incomplete };
    },
  };
}
