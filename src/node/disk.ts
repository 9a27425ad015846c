/**
 * The door to the disk. Every read of a path a user or a file chose, and every write of the extension's own files,
 * goes through src/node/ (this module, atomicFile.ts, privateFiles.ts, pinnedFile.ts, fileLock.ts and
 * markOfTheWeb.ts); lint refuses `node:fs` anywhere else. What the door guarantees:
 * - **No link is followed where it writes.** New files are made with O_CREAT | O_EXCL | O_NOFOLLOW in the target's
 *   own folder and renamed into place (a rename replaces a link, never what it points to); a target that is a link is
 *   refused before that. Appends open with O_NOFOLLOW. Modes are set on the open handle (fchmod), never by path.
 * - **Paths stay inside their root.** `insideRoot` resolves both through realpath, so neither `..` nor a link inside
 *   the root leads out of it.
 * - **Spooled files are private and temporary.** `privateTempFolder` makes a 0700 folder that its user removes in a
 *   `finally`, and `sweepTempFolders` removes what a crash left at the next start.
 */
import { constants, type Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as fsSync from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { writeAtomically } from './atomicFile';
import { PRIVATE_FILE_MODE, privateFolder } from './privateFiles';
import { asUnsafeLink, UnsafePathError } from './unsafePath';

export { UnsafePathError } from './unsafePath';

/** O_NOFOLLOW where the platform has it (Windows has no such flag: there a link is refused by lstat first). */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

export type { FileHandle } from 'node:fs/promises';

export function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * What lstat says of a path, without following a link at its end; undefined when nothing is there (ENOTDIR too: a
 * file stands where a folder of the path would be, so nothing can be below it).
 */
export async function entryOf(file: string): Promise<fsSync.Stats | undefined> {
  try {
    return await fs.lstat(file);
  } catch (error) {
    if (isNotFound(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Whether anything is at the path: a file, a folder, or a link (a dangling one too, as a new file cannot go there). */
export function isTakenSync(file: string): boolean {
  return fsSync.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}

/** Whether the path is a folder now; a link to one counts, as a folder the user chose may be reached through one. */
export async function isFolder(folder: string): Promise<boolean> {
  return fs.stat(folder).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Refuses a write target that is a link (or a folder, a device…); nothing there is fine. */
export async function refuseLinkAt(target: string): Promise<void> {
  const entry = await entryOf(target);
  if (!entry) return;
  if (entry.isSymbolicLink()) throw new UnsafePathError('link', target);
  if (!entry.isFile()) throw new UnsafePathError('not-a-file', target);
}

/** The path through realpath, or, when it does not exist yet, its nearest existing parent's realpath and the rest. */
async function realOrPlanned(file: string): Promise<string> {
  const absolute = path.resolve(file);
  try {
    return await fs.realpath(absolute);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const parent = path.dirname(absolute);
    if (parent === absolute) return absolute;
    return path.join(await realOrPlanned(parent), path.basename(absolute));
  }
}

/** True when `inner` is `outer` or below it, both already resolved. */
export function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

/**
 * `file`, checked to be inside `root` once links and `..` are resolved; throws UnsafePathError('outside') otherwise.
 * Journals, reports, snapshots, staged drops and upload sources name paths that may have been edited: each is held
 * to the root recorded for it before it is read, written or removed.
 */
export async function insideRoot(root: string, file: string): Promise<string> {
  const [realRoot, real] = await Promise.all([realOrPlanned(root), realOrPlanned(file)]);
  if (!isWithin(realRoot, real)) throw new UnsafePathError('outside', file);
  return real;
}

/** Opens a file a user or a file chose for reading; refuses what is not a regular file or is larger than `maxBytes`. */
async function openChecked(file: string, maxBytes: number | undefined): Promise<fs.FileHandle> {
  const handle = await fs.open(file, constants.O_RDONLY);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new UnsafePathError('not-a-file', file);
    if (maxBytes !== undefined && stat.size > maxBytes)
      throw new RangeError(`${file} is larger than ${maxBytes} bytes`);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads a text file a user or a file chose; refuses what is not a regular file or is larger than `maxBytes`. */
export async function readText(file: string, options: { maxBytes?: number } = {}): Promise<string> {
  const handle = await openChecked(file, options.maxBytes);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A stream of a file a user chose (a spreadsheet), from `start`; refuses what is not a regular file or is larger
 * than `maxBytes` before a byte is read.
 */
export async function readStreamOf(
  file: string,
  options: { maxBytes?: number; start?: number } = {},
): Promise<Readable> {
  const handle = await openChecked(file, options.maxBytes);
  return handle.createReadStream({ start: options.start ?? 0 });
}

/** The first `bytes` bytes of a file (fewer when it is shorter). */
export async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await fs.open(file, constants.O_RDONLY);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Synchronous readText for the writers that keep a line on disk before the next read starts; undefined if absent. */
export function readTextSync(file: string): string | undefined {
  try {
    return fsSync.readFileSync(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * Writes an extension file whole (a mapping, a members file, a report), 0600 unless told otherwise: made in a new
 * temporary file beside the target and renamed into place, refusing a target that is a link. Without `replace`, an
 * existing target is kept and the answer is 'exists'.
 */
export async function writeFileSafely(
  target: string,
  content: string | Uint8Array,
  options: { replace: boolean; mode?: number },
): Promise<'written' | 'exists'> {
  return writeAtomically(
    target,
    Readable.from([typeof content === 'string' ? Buffer.from(content, 'utf8') : content]),
    {
      replace: options.replace,
      mode: options.mode ?? PRIVATE_FILE_MODE,
    },
  );
}

const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW;

/** Appends to a private file (a journal, a log), never through a link; the mode is set on the handle. */
export async function appendPrivate(file: string, text: string): Promise<void> {
  const handle = await openAppend(file);
  try {
    await handle.appendFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Opens a private file for appending, never through a link (for writers that keep it open across lines); `exclusive`
 * makes it a new file or fails with EEXIST. Its mode is set on the handle, so a file an older version made is
 * tightened too.
 */
export async function openAppend(file: string, options: { exclusive?: boolean } = {}): Promise<fs.FileHandle> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, APPEND_FLAGS | (options.exclusive ? constants.O_EXCL : 0), PRIVATE_FILE_MODE);
  } catch (error) {
    throw asUnsafeLink(file, error);
  }
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * Makes a new file for writing under a name nobody has (a download's claimed name): O_EXCL never opens an existing
 * name, a link included, so nothing is written through one. Fails with EEXIST when the name is taken.
 */
export async function createNewFile(file: string): Promise<fs.FileHandle> {
  return fs.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o666);
}

/** appendPrivate, for writers that must have the line on disk before the next statement; the file's size after. */
export function appendPrivateSync(file: string, text: string): number {
  let fd: number;
  try {
    fd = fsSync.openSync(file, APPEND_FLAGS, PRIVATE_FILE_MODE);
  } catch (error) {
    throw asUnsafeLink(file, error);
  }
  try {
    fsSync.fchmodSync(fd, PRIVATE_FILE_MODE);
    fsSync.writeSync(fd, text);
    return fsSync.fstatSync(fd).size;
  } finally {
    fsSync.closeSync(fd);
  }
}

/** `length` bytes of a file from `start`, read by position (never the whole file); fewer at its end. */
export function readBytesSync(file: string, start: number, length: number): Buffer {
  const fd = fsSync.openSync(file, constants.O_RDONLY | NO_FOLLOW);
  try {
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = fsSync.readSync(fd, buffer, read, length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    fsSync.closeSync(fd);
  }
}

/**
 * writeFileSafely for synchronous writers: a new 0600 temporary file beside the target (O_EXCL | O_NOFOLLOW, the
 * mode set on its handle), renamed over the target; a target that is a link is refused.
 */
export function replacePrivateSync(target: string, content: Uint8Array): void {
  const entry = fsSync.lstatSync(target, { throwIfNoEntry: false });
  if (entry?.isSymbolicLink()) throw new UnsafePathError('link', target);
  const temp = path.join(path.dirname(target), `.portal-${randomBytes(6).toString('hex')}.part`);
  const fd = fsSync.openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW,
    PRIVATE_FILE_MODE,
  );
  try {
    fsSync.fchmodSync(fd, PRIVATE_FILE_MODE);
    fsSync.writeSync(fd, content);
    fsSync.fsyncSync(fd);
  } catch (error) {
    fsSync.closeSync(fd);
    fsSync.rmSync(temp, { force: true });
    throw error;
  }
  fsSync.closeSync(fd);
  fsSync.renameSync(temp, target);
}

/** The size and modification time of a file, or undefined when it is not there (a link is reported, not followed). */
export async function fileFacts(
  file: string,
): Promise<{ size: number; mtimeMs: number; isFile: boolean; isLink: boolean } | undefined> {
  const entry = await entryOf(file);
  return entry
    ? { size: entry.size, mtimeMs: entry.mtimeMs, isFile: entry.isFile(), isLink: entry.isSymbolicLink() }
    : undefined;
}

/** A folder's entries; an absent folder has none. */
export async function listFolder(folder: string, options: { recursive?: boolean } = {}): Promise<Dirent[]> {
  try {
    return await fs.readdir(folder, { withFileTypes: true, recursive: options.recursive ?? false });
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** Removes a file (a link itself, never what it points to); absent is fine. */
export async function removeFile(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

/** removeFile, for the synchronous writers. */
export function removeFileSync(file: string): void {
  fsSync.rmSync(file, { force: true });
}

/** Removes a folder and what is in it (links inside are removed, not followed); absent is fine. */
export async function removeFolder(folder: string): Promise<void> {
  await fs.rm(folder, { recursive: true, force: true });
}

/** Removes a folder only when it is empty. */
export async function removeEmptyFolder(folder: string): Promise<void> {
  await fs.rmdir(folder).catch(() => undefined);
}

/** Makes a folder (and its parents) as the OS makes it; for download targets the user chose. */
export async function makeFolder(folder: string): Promise<void> {
  await fs.mkdir(folder, { recursive: true });
}

/**
 * Makes one folder in an existing parent, as the OS makes it, or accepts the folder already there; a link or a file
 * in its place is refused (UnsafePathError), since writing below a link to a folder elsewhere writes elsewhere.
 */
export async function makeFolderHere(folder: string): Promise<void> {
  try {
    await fs.mkdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const entry = await fs.lstat(folder);
    if (entry.isSymbolicLink()) throw new UnsafePathError('link', folder);
    if (!entry.isDirectory()) throw new Error(`${folder} is in the way: it is not a folder.`);
  }
}

/**
 * A private temporary folder (0700) under `parent` for what a library spools: the caller removes it in a `finally`
 * (`dispose`), and `sweepTempFolders` removes what a crash left behind at the next start.
 */
export async function privateTempFolder(
  parent: string,
  prefix: string,
): Promise<{ readonly folder: string; dispose(): Promise<void> }> {
  await privateFolder(parent);
  const folder = path.join(parent, `${prefix}${randomBytes(6).toString('hex')}`);
  await fs.mkdir(folder, { mode: 0o700 });
  await privateFolder(folder);
  return { folder, dispose: () => removeFolder(folder) };
}

/**
 * A new folder of the OS's temporary folder (mkdtemp: 0700, under a name nobody had), for runs that keep nothing (the
 * unit tier, benchmarks); the caller removes it in a `finally` (`dispose`). Not privateTempFolder: the OS's temporary
 * folder is everyone's, and its mode is not ours to tighten.
 */
export async function osTempFolder(prefix: string): Promise<{ readonly folder: string; dispose(): Promise<void> }> {
  const folder = await fs.mkdtemp(path.join(tmpdir(), prefix));
  return { folder, dispose: () => removeFolder(folder) };
}

/** Removes every folder under `parent` whose name starts with `prefix` (left by a crash); returns how many. */
export async function sweepTempFolders(parent: string, prefix: string): Promise<number> {
  let removed = 0;
  for (const entry of await listFolder(parent)) {
    if (!entry.isDirectory() || !entry.name.startsWith(prefix)) continue;
    await removeFolder(path.join(parent, entry.name));
    removed++;
  }
  return removed;
}
