/**
 * A file pinned for sending: opened once without following a link, known by its device, inode, size and mtime, and
 * read only through that handle. The plan records what it showed; the send opens the file again and holds it to that
 * identity, and before every chunk (and before a chunk's last bytes leave) checks both the handle and the path: a file
 * replaced, relinked, grown, shrunk or rewritten since the plan throws FileChangedError, so what is sent is what the
 * plan showed, or nothing.
 */
import { constants, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { entryOf, insideRoot, NO_FOLLOW, isNotFound } from './disk';
import { isLinkRefusal, UnsafePathError } from './unsafePath';

/** What a file was when it was pinned. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/** What differs from the pinned identity: the path now a link, gone, another file (inode), or other bytes. */
export type FileChange = 'link' | 'gone' | 'not-a-file' | 'replaced' | 'size' | 'mtime';

export class FileChangedError extends Error {
  override readonly name = 'FileChangedError';
  constructor(
    readonly file: string,
    readonly changes: readonly FileChange[],
  ) {
    super(`${file} changed since it was planned (${changes.join(', ')}); none of its new bytes were read`);
  }
}

// O_NONBLOCK: a FIFO swapped in where a file was must not hang the open (on a regular file it changes nothing).
const PIN_FLAGS = constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);
/** Bytes read at once into a stream's piece: what fs.createReadStream reads, so a chunk in flight holds little. */
const PIECE_BYTES = 64 * 1024;

function identityOf(s: Stats): FileIdentity {
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
}

function changesBetween(pinned: FileIdentity, now: Stats | undefined): FileChange[] {
  if (!now) return ['gone'];
  if (now.isSymbolicLink()) return ['link'];
  if (!now.isFile()) return ['not-a-file'];
  const changes: FileChange[] = [];
  if (now.dev !== pinned.dev || now.ino !== pinned.ino) changes.push('replaced');
  if (now.size !== pinned.size) changes.push('size');
  if (now.mtimeMs !== pinned.mtimeMs) changes.push('mtime');
  return changes;
}

export class PinnedFile {
  /** The first change seen: every later read refuses too, whatever the path says by then. */
  private changed: FileChangedError | undefined;

  constructor(
    readonly file: string,
    private readonly handle: fs.FileHandle,
    readonly identity: FileIdentity,
  ) {}

  /** The change that stopped a read, if one did (a stream's error reaches its reader wrapped by the transport). */
  get change(): FileChangedError | undefined {
    return this.changed;
  }

  /** Throws FileChangedError unless both the open handle and the path still are the pinned file, unchanged. */
  async check(): Promise<void> {
    if (this.changed) throw this.changed;
    const [held, atPath] = await Promise.all([this.handle.stat(), entryOf(this.file)]);
    const changes = [...new Set([...changesBetween(this.identity, held), ...changesBetween(this.identity, atPath)])];
    if (changes.length === 0) return;
    this.changed = new FileChangedError(this.file, changes);
    throw this.changed;
  }

  /** Bytes `start` to `end` into `into`, after the identity check. */
  async read(start: number, end: number, into: Buffer): Promise<Buffer> {
    await this.check();
    let filled = 0;
    while (filled < end - start) {
      const { bytesRead } = await this.handle.read(into, filled, end - start - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    await this.check();
    return into.subarray(0, filled);
  }

  /** Bytes `start` to `end` as a stream from the handle, checked before the first piece and before the last. */
  stream(start: number, end: number): Readable {
    return Readable.from(this.pieces(start, end), { objectMode: false });
  }

  private async *pieces(start: number, end: number): AsyncGenerator<Buffer> {
    await this.check();
    for (let at = start; at < end;) {
      const piece = Buffer.allocUnsafe(Math.min(PIECE_BYTES, end - at));
      const { bytesRead } = await this.handle.read(piece, 0, piece.length, at);
      at += bytesRead;
      // A short file fails the check (its size); one that passes it yet reads short is refused all the same.
      if (bytesRead === 0 || at >= end) await this.check();
      if (bytesRead === 0) throw new FileChangedError(this.file, ['size']);
      yield piece.subarray(0, bytesRead);
    }
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/**
 * Opens `file` for reading without following a link (UnsafePathError('link') for one, 'not-a-file' for a folder, a
 * FIFO, a device). With `expected`, the file must be that one, unchanged: otherwise FileChangedError, and a link or
 * nothing at the path counts as such a change.
 */
export async function pin(file: string, expected?: FileIdentity): Promise<PinnedFile> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, PIN_FLAGS);
  } catch (error) {
    if (expected && isLinkRefusal(error)) throw new FileChangedError(file, ['link']);
    if (expected && isNotFound(error)) throw new FileChangedError(file, ['gone']);
    throw isLinkRefusal(error) ? new UnsafePathError('link', file) : error;
  }
  try {
    const held = await handle.stat();
    if (!held.isFile())
      throw expected ? new FileChangedError(file, ['not-a-file']) : new UnsafePathError('not-a-file', file);
    const changes = expected ? changesBetween(expected, held) : [];
    if (changes.length > 0) throw new FileChangedError(file, changes);
    return new PinnedFile(file, handle, identityOf(held));
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * `file` held to `root` without following a link at its end: its folder through realpath must be inside the root, and
 * its name a name (not "." or ".."). Answers the path with that real folder, for `pin`; throws UnsafePathError
 * ('outside') otherwise. A file that became a link stays inside by this test, and `pin` then says it is a link.
 */
export async function fileInsideRoot(root: string, file: string): Promise<string> {
  const name = basename(file);
  if (name === '' || name === '.' || name === '..') throw new UnsafePathError('outside', file);
  return join(await insideRoot(root, dirname(file)), name);
}

/** What a plan records of a file: pinned and let go at once (a plan of thousands of files holds no handles). */
export async function identify(file: string): Promise<FileIdentity> {
  const pinned = await pin(file);
  await pinned.close();
  return pinned.identity;
}
