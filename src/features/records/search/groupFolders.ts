/**
 * The folders of a group, for saying where a search hit lies: the portal's file lists give each record its parent
 * folder's id, not its path. One listing of the group's folders (recursive, folders only; a few pages at most)
 * names every folder and its parent, kept a while as the group list is. A way to the root that cannot be completed
 * (a folder past the pages read, a portal that lists only the root, a failed listing) gives no path at all rather
 * than a wrong one.
 */
import type { V2Api } from '../../../api/index';
import { unlessAborted } from '../../../api/index';
import type { FolderStep } from '../../../shared/refs';

/** What the index needs of a PortalClient. */
export interface GroupFoldersClient {
  readonly v2: { readonly files: Pick<V2Api['files'], 'page'> };
}

/** Folder id → its name and its parent's id (null at the group's root). */
type Folders = ReadonlyMap<number, { readonly name: string; readonly parentId: number | null }>;

interface Entry {
  readonly at: number;
  readonly folders: Promise<Folders>;
}

/** Pages of 100 folders read per group: a group with more names no path for hits in the folders past them. */
const MAX_PAGES = 5;
/** Folder levels followed up to the root; deeper ways (or a cycle a portal might report) give no path. */
const MAX_DEPTH = 64;

export class GroupFolders {
  /** Per client, so two portals (or a client replaced after signing in again) never share a list. */
  private readonly byClient = new WeakMap<GroupFoldersClient, Map<string, Entry>>();

  /** `maxAgeMs`: how long a group's folders are reused; default five minutes. */
  constructor(
    private readonly maxAgeMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The folders from the group's root down to the folder `parentId`, or undefined when the portal's answers do not
   * name the whole way (or the signal aborted). Concurrent callers share one listing.
   */
  async stepsTo(
    client: GroupFoldersClient,
    where: { readonly accountId: number; readonly groupId: number },
    parentId: number,
    signal: AbortSignal,
  ): Promise<FolderStep[] | undefined> {
    const folders = await unlessAborted(
      this.folders(client, where).catch(() => undefined),
      signal,
    );
    if (!folders) return undefined;
    const steps: FolderStep[] = [];
    for (let id: number | null = parentId; id !== null;) {
      const folder = folders.get(id);
      if (!folder || steps.length >= MAX_DEPTH) return undefined;
      steps.unshift({ id, name: folder.name });
      id = folder.parentId;
    }
    return steps;
  }

  private folders(client: GroupFoldersClient, where: { accountId: number; groupId: number }): Promise<Folders> {
    let lists = this.byClient.get(client);
    if (!lists) this.byClient.set(client, (lists = new Map()));
    const key = `${where.accountId}/${where.groupId}`;
    const known = lists.get(key);
    if (known && this.now() - known.at <= this.maxAgeMs) return known.folders;
    // Not tied to one caller's signal: the next search of this group finds the listing ready.
    const folders = listFolders(client, where);
    const created: Entry = { at: this.now(), folders };
    folders.catch(() => {
      if (lists.get(key) === created) lists.delete(key);
    });
    lists.set(key, created);
    return folders;
  }
}

async function listFolders(
  client: GroupFoldersClient,
  where: { accountId: number; groupId: number },
): Promise<Folders> {
  const folders = new Map<number, { name: string; parentId: number | null }>();
  for (let page = 1; page <= MAX_PAGES; page++) {
    const p = await client.v2.files.page(where.accountId, where.groupId, {
      page,
      size: 100,
      recursive: true,
      foldersOnly: true,
      orderBy: 'name',
      ascending: true,
    });
    // A portal that ignores foldersOnly lists files too; they name no way to anything.
    for (const r of p.items)
      if (r.isFolder) folders.set(r.id, { name: r.friendlyName || r.name, parentId: r.parentId });
    if (!p.hasNext || p.items.length === 0) break;
  }
  return folders;
}
