/**
 * Files that hold people's data (journals, snapshots, the access store, reports) are the user's alone: 0600 files in
 * 0700 folders. A folder or file made by an earlier version with the process's umask (0644 in 0755) is tightened
 * when it is next used, not only when it is made. On Windows the modes are ignored by the file system: there the
 * profile folder's own ACL is what keeps other users out.
 */
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { asUnsafeLink, UnsafePathError } from './unsafePath';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

const NO_FOLLOW = fsSync.constants.O_NOFOLLOW ?? 0;
const FOLDER_FLAGS = fsSync.constants.O_RDONLY | (fsSync.constants.O_DIRECTORY ?? 0) | NO_FOLLOW;

function refusedLink(file: string, error: unknown): unknown {
  // ENOTDIR: a link to a file where the folder belongs.
  return (error as NodeJS.ErrnoException).code === 'ENOTDIR'
    ? new UnsafePathError('link', file)
    : asUnsafeLink(file, error);
}

/**
 * Makes the folder (and its missing parents) 0700, and tightens the folder itself if it was there already. The mode is
 * set on a handle opened without following a link, so a link planted where the folder belongs is refused.
 */
export async function privateFolder(folder: string): Promise<string> {
  await fs.mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const handle = await fs.open(folder, FOLDER_FLAGS).catch((error: unknown) => {
    throw refusedLink(folder, error);
  });
  try {
    await handle.chmod(PRIVATE_FOLDER_MODE);
  } finally {
    await handle.close();
  }
  return folder;
}

/** Sets a private mode on a file or folder through a handle opened without following a link; a link is left alone. */
async function tighten(file: string, mode: number): Promise<void> {
  const handle = await fs.open(file, fsSync.constants.O_RDONLY | NO_FOLLOW).catch(() => undefined);
  if (!handle) return;
  try {
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

/**
 * Tightens a whole tree: every folder 0700, every file 0600. Symbolic links are left alone (chmod would follow them
 * out of the tree). Bounded by `limit` entries, so a huge folder cannot hold up activation.
 */
export async function tightenTree(root: string, limit = 10_000): Promise<number> {
  let seen = 0;
  const walk = async (folder: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
      await tighten(folder, PRIVATE_FOLDER_MODE);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > limit) return;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) await tighten(full, PRIVATE_FILE_MODE);
    }
  };
  await walk(root);
  return seen;
}

/**
 * `folder/name`, refusing a name that would leave the folder: a name is one path segment, never `..` or absolute.
 * Names built from a journal's or a snapshot's content pass through here, since those files may have been edited.
 */
export function inFolder(folder: string, name: string): string {
  const file = path.resolve(folder, name);
  const relative = path.relative(path.resolve(folder), file);
  if (!name || relative !== name || relative.startsWith('..') || path.isAbsolute(relative) || /[\\/]/.test(name))
    throw new Error(`Not a file name inside its folder: ${JSON.stringify(name)}`);
  return file;
}

/** privateFolder, for the synchronous writers (a line on disk before the next read starts). */
export function privateFolderSync(folder: string): string {
  fsSync.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  let fd: number;
  try {
    fd = fsSync.openSync(folder, FOLDER_FLAGS);
  } catch (error) {
    throw refusedLink(folder, error);
  }
  try {
    fsSync.fchmodSync(fd, PRIVATE_FOLDER_MODE);
  } finally {
    fsSync.closeSync(fd);
  }
  return folder;
}
