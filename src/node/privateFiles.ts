/**
 * Files that hold people's data (journals, snapshots, the access store, reports) are the user's alone: 0600 files in
 * 0700 folders. A folder or file made by an earlier version with the process's umask (0644 in 0755) is tightened
 * when it is next used, not only when it is made. On Windows the modes are ignored by the file system: there the
 * profile folder's own ACL is what keeps other users out.
 */
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/** Makes the folder (and its missing parents) 0700, and tightens the folder itself if it was there already. */
export async function privateFolder(folder: string): Promise<string> {
  await fs.mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  await fs.chmod(folder, PRIVATE_FOLDER_MODE);
  return folder;
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
      await fs.chmod(folder, PRIVATE_FOLDER_MODE);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > limit) return;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) await fs.chmod(full, PRIVATE_FILE_MODE).catch(() => undefined);
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
  fsSync.chmodSync(folder, PRIVATE_FOLDER_MODE);
  return folder;
}
