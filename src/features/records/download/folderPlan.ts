/**
 * "Download a folder": walk a folder and its subfolders on the portal (bounded in depth and count), plan a safe
 * local path for every file, list what is already there, then download (see folderWriter.ts).
 */
import { DEFAULT_MAX_CONCURRENT, PortalError, type FileRecord, type V2Api } from '../../../api/index';
import type { FileRef, GroupRef } from '../../../shared/refs';
import { isToolFolderName, localFileName, outOfRepositoryLayout, readsAsRepository } from './fileNames';
import { runPool, withLinkedSignal } from '../../../node/pool';

/** What a walk needs of a PortalClient. */
interface FolderWalkClient {
  readonly v2: { readonly files: Pick<V2Api['files'], 'page' | 'children'> };
}

/** A folder to download with its subfolders; folderId 0 is the group's whole root. */
export interface FolderTarget {
  readonly group: GroupRef;
  readonly folderId: number;
  readonly name: string;
}

export interface FolderPlan {
  /** Local folders to create below the target folder, parents first; the first is the downloaded folder itself. */
  readonly folders: readonly string[];
  /**
   * Each file record to download (`name` as on the portal) with its local path below the target folder: segments
   * joined with "/", each made safe, starting with the folder's own name.
   */
  readonly files: ReadonlyArray<
    Pick<FileRef, 'fileId' | 'name'> & { readonly groupId: number; readonly path: string; readonly size: number }
  >;
  /** Sum of the files' sizes. */
  readonly bytes: number;
  /** Subfolders deeper than `maxDepth` were left out. */
  readonly depthLimited: boolean;
  /** The walk stopped at `maxFiles` files or `maxFolders` folders. */
  readonly countLimited: boolean;
  /**
   * Local paths renamed because their portal name was a folder tools run commands from (.git, .vscode, …), or a
   * part of a repository's layout (HEAD, config beside objects/ or refs/) that Git would read.
   */
  readonly renamed: readonly string[];
}

interface WalkOptions {
  /** Levels of subfolders below the folder; default 32. */
  readonly maxDepth?: number;
  /** Default 10,000. */
  readonly maxFiles?: number;
  /** Subfolders; default 2,000. */
  readonly maxFolders?: number;
  /** Folders listed at once; default the client's default concurrency. */
  readonly concurrency?: number;
  /** Aborting rejects the walk with a 'cancelled' PortalError. */
  readonly signal?: AbortSignal;
}

interface Pending {
  readonly folderId: number;
  readonly path: string;
  readonly depth: number;
}

const PAGE_SIZE = 100;

/** "name", then "name (1)", "name (2)"…: a name not yet taken in one local folder, compared without case. */
function uniqueName(taken: Set<string>, name: string): string {
  const ext = name.lastIndexOf('.') > 0 ? name.slice(name.lastIndexOf('.')) : '';
  const stem = name.slice(0, name.length - ext.length);
  let candidate = name;
  for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

async function children(
  client: FolderWalkClient,
  accountId: number,
  groupId: number,
  folderId: number,
  maxPages: number,
  signal: AbortSignal,
): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const query = { page, size: PAGE_SIZE, orderBy: 'name', ascending: true } as const;
    // The group's root has its own listing; the emulator also takes folder 0, which the spec does not promise.
    const p =
      folderId === 0
        ? await client.v2.files.page(accountId, groupId, query, { signal })
        : await client.v2.files.children(accountId, groupId, folderId, query, { signal });
    out.push(...p.items);
    if (!p.hasNext || p.items.length === 0) break;
  }
  return out;
}

/** Lists the folder's tree level by level and plans the local paths. Rejects with the first PortalError. */
export function walkFolder(
  client: FolderWalkClient,
  folder: FolderTarget,
  options: WalkOptions = {},
): Promise<FolderPlan> {
  const concurrency = options.concurrency ?? DEFAULT_MAX_CONCURRENT;
  return withLinkedSignal(options.signal, concurrency, (signal) =>
    walk(client, folder.group.account.accountId, folder, options, concurrency, signal),
  );
}

async function walk(
  client: FolderWalkClient,
  accountId: number,
  folder: FolderTarget,
  options: WalkOptions,
  concurrency: number,
  signal: AbortSignal,
): Promise<FolderPlan> {
  const maxDepth = options.maxDepth ?? 32;
  const maxFiles = options.maxFiles ?? 10_000;
  const maxFolders = options.maxFolders ?? 2_000;
  const root = uniqueName(new Set(), localFileName(folder.name));
  const renamed: string[] = isToolFolderName(folder.name) ? [root] : [];
  const folders: string[] = [root];
  const files: Array<FolderPlan['files'][number]> = [];
  let depthLimited = false;
  let countLimited = false;
  let level: Pending[] = [{ folderId: folder.folderId, path: root, depth: 0 }];
  while (level.length > 0 && !countLimited) {
    const listed: FileRecord[][] = [];
    const maxPages = Math.ceil((maxFiles + maxFolders) / PAGE_SIZE) + 1;
    await runPool(
      level,
      concurrency,
      async (f, i) => {
        listed[i] = await children(client, accountId, folder.group.groupId, f.folderId, maxPages, signal);
      },
      signal,
    );
    if (signal.aborted)
      throw new PortalError({ kind: 'cancelled', endpoint: '', message: 'The folder download was cancelled.' });
    const next: Pending[] = [];
    level.forEach((parent, i) => {
      const taken = new Set<string>();
      const rows = listed[i] ?? [];
      const repository = readsAsRepository(rows.map((r) => localFileName(r.name)));
      for (const r of rows) {
        const name = localFileName(r.name);
        const safe = outOfRepositoryLayout(name, repository);
        const local = `${parent.path}/${uniqueName(taken, safe)}`;
        // An unreported size adds nothing to the estimate below; the download counts the bytes that arrive.
        if (r.isFolder && parent.depth + 1 > maxDepth) depthLimited = true;
        else if (r.isFolder && folders.length - 1 >= maxFolders) countLimited = true;
        else if (!r.isFolder && files.length >= maxFiles) countLimited = true;
        else {
          if (r.isFolder) {
            folders.push(local);
            next.push({ folderId: r.id, path: local, depth: parent.depth + 1 });
          } else
            files.push({ groupId: folder.group.groupId, fileId: r.id, name: r.name, path: local, size: r.size ?? 0 });
          if (isToolFolderName(r.name) || safe !== name) renamed.push(local);
        }
      }
    });
    level = next;
  }
  return { folders, files, bytes: files.reduce((n, f) => n + f.size, 0), depthLimited, countLimited, renamed };
}
