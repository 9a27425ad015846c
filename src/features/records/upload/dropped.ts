/**
 * Files dropped without a path (an OS drop into VS Code in a browser) are written to a folder of their own under the
 * extension's storage, 0600 in 0700, so the upload reads them as it reads any local file: planned the same way, sent
 * in chunks from disk, and resumable after a reload (the journal names these paths). The folder goes once its upload
 * settles, unless the upload stopped short of its end: then it stays until that upload is resumed or left.
 *
 * The staging folder (`<storage>/dropped-files/`) is the root of every staged drop. A folder is only ever removed when
 * it is one drop's own folder directly in that root, through realpath: a journal's path with `..` or a link in it
 * names no staged folder, and nothing outside the root is removed for it.
 */
import { randomUUID } from 'node:crypto';
import { basename, join, relative, sep } from 'node:path';
import type { UploadRecord } from '../../../engine/uploads/kind';
import { unfinishedUploads } from '../../../engine/uploads/run';
import { insideRoot, removeFolder, UnsafePathError, writeFileSafely } from '../../../node/disk';
import { privateFolder } from '../../../node/privateFiles';
import type { DroppedFile } from './dropController';

const stagingRootOf = (storage: string): string => join(storage, 'dropped-files');

/** A name that is one plain file name here (the browser's file names are untrusted, like any user input). */
function safeName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && basename(name) === name && !/[/\\\0]/.test(name);
}

export interface Staged {
  /** The folder holding these files (removed with unstage). */
  readonly folder: string;
  readonly paths: string[];
  /** Names not written: not a plain file name, or a second file of the same name. */
  readonly refused: string[];
}

export async function stageDropped(storage: string, files: readonly DroppedFile[]): Promise<Staged> {
  const folder = await privateFolder(join(stagingRootOf(storage), randomUUID()));
  const paths: string[] = [];
  const refused: string[] = [];
  const taken = new Set<string>();
  for (const f of files) {
    if (!safeName(f.name) || taken.has(f.name.toLowerCase())) {
      refused.push(f.name);
      continue;
    }
    taken.add(f.name.toLowerCase());
    const file = join(folder, f.name);
    await writeFileSafely(file, f.bytes, { replace: false });
    paths.push(file);
  }
  return { folder, paths, refused };
}

/**
 * The staged drop's own folder that `file` is in (`<root>/<one name>`, through realpath), or undefined when `file` is
 * not in one: outside the staging root, or the root itself.
 */
async function stagedFolderOf(root: string, file: string): Promise<string | undefined> {
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([insideRoot(root, file), insideRoot(root, root)]);
  } catch (error) {
    if (error instanceof UnsafePathError) return undefined;
    throw error;
  }
  const [first] = relative(realRoot, real).split(sep);
  return first ? join(realRoot, first) : undefined;
}

/**
 * Removes the staged folders among `folders` that no unfinished upload reads from: one an upload cut off before its
 * end still needs, for its resume. Only folders this window staged or resumed are candidates, so an upload another
 * window is staging at the same moment keeps its files; and only a drop's own folder in the staging root is removed.
 */
export async function releaseStaged(storage: string, folders: readonly string[]): Promise<void> {
  if (folders.length === 0) return;
  const root = stagingRootOf(storage);
  const needed = new Set<string>();
  for (const r of await unfinishedUploads(storage)) for (const f of await stagedFoldersOf(storage, r)) needed.add(f);
  for (const folder of folders) {
    const own = await stagedFolderOf(root, folder);
    if (own !== undefined && !needed.has(own)) await removeFolder(own);
  }
}

/** The staged folders an upload read from (none for an upload of files chosen where they are). */
export async function stagedFoldersOf(storage: string, record: UploadRecord): Promise<string[]> {
  const root = stagingRootOf(storage);
  const folders = new Set<string>();
  for (const u of record.begin.work) {
    const own = await stagedFolderOf(root, u.localPath);
    if (own !== undefined) folders.add(own);
  }
  return [...folders];
}
