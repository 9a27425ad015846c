/**
 * The plan of an upload: every local file with the path it takes below the target folder, what is already there by
 * that path (a clash, with a choice: a new version, keep both under a free name, or skip, the default), the names
 * refused and why, and what the run cannot do (create an empty folder, or take an upload back: the API offers
 * neither). Read from the local disk (never contents) and the target folder's index. Each file is pinned as it is
 * planned (its device, inode, size and mtime), and the plan holds a root that every file is below: the send and a
 * resume hold each file to both, so what is sent is what this plan showed.
 */
import { basename, dirname, join, resolve, sep } from 'node:path';
import { uploadNameProblem } from '../../api/index';
import { entryOf, insideRoot, listFolder, UnsafePathError } from '../../node/disk';
import { identify, type FileIdentity } from '../../node/pinnedFile';
import { isPlain } from '../../shared/plainText';

export type ClashChoice = 'version' | 'keep-both' | 'skip';

/** Where an upload goes. `folderId` 0 is the group's root. */
export interface UploadTargetRef {
  readonly portalId: string;
  readonly accountId: number;
  readonly groupId: number;
  readonly folderId: number;
}

export interface PlannedFile {
  /** Below the target folder, names joined with "/". */
  readonly path: string;
  readonly localPath: string;
  readonly size: number;
  /** The file as planned: what is sent must still be this file. */
  readonly identity: FileIdentity;
  /** The record already at this path (a clash). */
  readonly existingId?: number;
}

export type RefusalReason =
  'empty' | 'too-long' | 'separator' | 'dots' | 'spaces' | 'markup' | 'not-a-file' | 'empty-folder';

export interface UploadPlan {
  readonly target: UploadTargetRef;
  /** The folder (through realpath) every file is below: the one chosen, the chosen files' own, or the staged drop's. */
  readonly root: string;
  readonly files: readonly PlannedFile[];
  /** Folders the run makes (along the files' paths), "/"-joined below the target. */
  readonly folders: readonly string[];
  readonly bytes: number;
  /** Never uploaded, with the reason. */
  readonly refused: ReadonlyArray<{ readonly path: string; readonly reason: RefusalReason }>;
}

/** Files and folders walked at most: a plan of more is refused before anything is read further. */
const MAX_ENTRIES = 20_000;

/** Why a name cannot be uploaded: one the portal cannot hold, or one that reads as a command link or an icon. */
export function nameRefusal(name: string): RefusalReason | undefined {
  return uploadNameProblem(name) ?? (isPlain(name) ? undefined : 'markup');
}

interface Walk {
  files: PlannedFile[];
  folders: string[];
  refused: Array<{ path: string; reason: RefusalReason }>;
}

async function walkEntry(localPath: string, path: string, index: ReadonlyMap<string, number>, w: Walk): Promise<void> {
  if (w.files.length + w.folders.length > MAX_ENTRIES) throw new Error(`More than ${MAX_ENTRIES} files and folders.`);
  const refusal = nameRefusal(basename(path));
  if (refusal) {
    w.refused.push({ path, reason: refusal });
    return;
  }
  const s = await entryOf(localPath);
  if (!s) throw new Error(`${localPath} is not there.`);
  if (s.isFile()) {
    // Undefined when it turned into a link or something else between the lstat and the open.
    const identity = await identify(localPath).catch((error: unknown) => {
      if (error instanceof UnsafePathError) return undefined;
      throw error;
    });
    if (!identity) {
      w.refused.push({ path, reason: 'not-a-file' });
      return;
    }
    const existingId = index.get(`/${path}`);
    w.files.push({
      path,
      localPath,
      size: identity.size,
      identity,
      ...(existingId !== undefined ? { existingId } : {}),
    });
  } else if (s.isDirectory()) {
    const names = (await listFolder(localPath)).map((e) => e.name).sort();
    // The API has no way to make an empty folder: one only appears along a file's path.
    if (names.length === 0) w.refused.push({ path, reason: 'empty-folder' });
    else w.folders.push(path);
    for (const n of names) await walkEntry(join(localPath, n), `${path}/${n}`, index, w);
  } else w.refused.push({ path, reason: 'not-a-file' });
}

/** The deepest folder holding every chosen path: a chosen folder itself, a chosen file's own folder. */
async function rootOf(localPaths: readonly string[]): Promise<string> {
  const folders = await Promise.all(
    localPaths.map(async (p) => ((await entryOf(p))?.isDirectory() ? resolve(p) : dirname(resolve(p)))),
  );
  const [first = resolve('.'), ...rest] = folders;
  let common = first.split(sep);
  for (const f of rest) {
    const parts = f.split(sep);
    let n = 0;
    while (n < common.length && n < parts.length && common[n] === parts[n]) n++;
    common = common.slice(0, n);
  }
  const root = common.length <= 1 ? `${common[0] ?? ''}${sep}` : common.join(sep);
  // Through realpath: a folder along it later swapped for a link leads its files out of it, and is refused.
  return insideRoot(root, root);
}

/** Plans the upload of local files and folders into the target, against its index ("/path" → record id). */
export async function planUpload(
  target: UploadTargetRef,
  localPaths: readonly string[],
  index: ReadonlyMap<string, number>,
): Promise<UploadPlan> {
  const w: Walk = { files: [], folders: [], refused: [] };
  for (const p of localPaths) await walkEntry(p, basename(p), index, w);
  return { target, root: await rootOf(localPaths), ...w, bytes: w.files.reduce((n, f) => n + f.size, 0) };
}
