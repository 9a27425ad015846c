/**
 * Writes a file so that it is either complete or absent: the bytes go to a temporary file in the same folder,
 * which is flushed to disk and then renamed to the target. Whatever happens before the rename (abort, a failed
 * download, a full disk), the temporary file is removed and the target is untouched.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { constants } from 'node:fs';
import * as path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UnsafePathError } from './unsafePath';

interface AtomicWriteOptions {
  /** Replace a file already at the target; otherwise the target is left as it is and the answer is 'exists'. */
  readonly replace: boolean;
  readonly signal?: AbortSignal;
  /** When known (Content-Length): fewer or more bytes fail the write. */
  readonly expectedBytes?: number | undefined;
  /** Called as bytes arrive. */
  readonly onBytes?: (count: number) => void;
  /** The file's mode (before the umask); files holding people's data pass PRIVATE_FILE_MODE. */
  readonly mode?: number;
}

/** The source ended with another length than announced. */
export class LengthMismatchError extends Error {
  override readonly name = 'LengthMismatchError';
  constructor(
    readonly received: number,
    readonly expected: number,
  ) {
    super(`received ${received} of ${expected} bytes`);
  }
}

/** Temporary names start with a dot and say where they come from, so a crash leftover is recognisable. */
export const TEMP_PREFIX = '.portal-';
const TEMP_SUFFIX = '.part';

function tempPath(target: string): string {
  return path.join(path.dirname(target), `${TEMP_PREFIX}${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
}

function meter(options: AtomicWriteOptions): Transform {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      options.onBytes?.(chunk.length);
      done(null, chunk);
    },
    flush(done) {
      const expected = options.expectedBytes;
      done(expected !== undefined && received !== expected ? new LengthMismatchError(received, expected) : null);
    },
  });
}

/**
 * Moves the finished temporary file to the target. Without `replace`, a hard link claims the name only if it is
 * still free (a file that appeared meanwhile is kept); where hard links are not supported, the name is checked
 * just before the rename.
 */
async function commit(temp: string, target: string, replace: boolean): Promise<'written' | 'exists'> {
  if (replace) {
    // A rename replaces a link rather than writing through it; a link at the target is still refused, so a planted
    // link is reported instead of silently replaced.
    const entry = await fs.promises.lstat(target).catch(() => undefined);
    if (entry?.isSymbolicLink()) throw new UnsafePathError('link', target);
    await fs.promises.rename(temp, target);
    return 'written';
  }
  try {
    await fs.promises.link(temp, target);
    return 'written';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
  }
  if (await exists(target)) return 'exists';
  await fs.promises.rename(temp, target);
  return 'written';
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.lstat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Writes `source` to `target` atomically. Rejects with the source's, the file system's or the abort's error. */
export async function writeAtomically(
  target: string,
  source: Readable | AsyncIterable<string | Uint8Array>,
  options: AtomicWriteOptions,
): Promise<'written' | 'exists'> {
  const temp = tempPath(target);
  // The mode is set when the temporary file is made, so the data is never readable by others, not even briefly.
  // O_EXCL never opens an existing name and O_NOFOLLOW never a link: the temporary file is new, and ours.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  const handle = await fs.promises.open(temp, flags, options.mode ?? 0o666);
  let closed = false;
  try {
    // The umask may have taken bits away from a private mode's creation; fchmod on the handle makes it exact.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    const sink = async (chunks: AsyncIterable<Buffer>): Promise<void> => {
      for await (const chunk of chunks) await handle.write(chunk);
    };
    await pipeline(source, meter(options), sink, options.signal ? { signal: options.signal } : {});
    await handle.sync();
    closed = true;
    await handle.close();
    return await commit(temp, target, options.replace);
  } finally {
    if (!closed) await handle.close().catch(() => undefined);
    await fs.promises.rm(temp, { force: true }).catch(() => undefined);
  }
}
