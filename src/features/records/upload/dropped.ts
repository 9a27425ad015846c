/**
 * Files dropped without a path (an OS drop into VS Code in a browser) are written to a folder of their own under the
 * extension's storage, 0600 in 0700, so the upload reads them as it reads any local file: planned the same way, sent
 * in chunks from disk, and resumable after a reload (the journal names these paths). The folder goes once its upload
 * settles, unless the upload stopped short of its end: then it stays until that upload is resumed or left.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import type { UploadRecord } from '../../../engine/uploads/kind';
import { unfinishedUploads } from '../../../engine/uploads/run';
import type { DroppedFile } from './dropController';

const folderOf = (storage: string): string => join(storage, 'dropped-files');

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
  const folder = join(folderOf(storage), randomUUID());
  await mkdir(folder, { recursive: true, mode: 0o700 });
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
    await writeFile(file, f.bytes, { mode: 0o600, flag: 'wx' });
    paths.push(file);
  }
  return { folder, paths, refused };
}

/**
 * Removes the staged folders among `folders` that no unfinished upload reads from: one an upload cut off before its
 * end still needs, for its resume. Only folders this window staged or resumed are candidates, so an upload another
 * window is staging at the same moment keeps its files.
 */
export async function releaseStaged(storage: string, folders: readonly string[]): Promise<void> {
  if (folders.length === 0) return;
  const unfinished = await unfinishedUploads(storage);
  for (const folder of folders) {
    const needed = unfinished.some((r) => r.begin.work.some((u) => u.localPath.startsWith(folder + sep)));
    if (!needed) await rm(folder, { recursive: true, force: true });
  }
}

/** The staged folders an upload read from (none for an upload of files chosen where they are). */
export function stagedFoldersOf(storage: string, record: UploadRecord): string[] {
  const root = folderOf(storage) + sep;
  const folders = record.begin.work.flatMap((u) => (u.localPath.startsWith(root) ? [dirname(u.localPath)] : []));
  return [...new Set(folders)];
}
