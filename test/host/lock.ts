// A lock directory (mkdir is atomic) that holds its owner's pid, so runs in one checkout take
// turns: the code-server install, and whole test runs (they share out/, dist/*.vsix and test-results/).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CACHE_DIR } from './paths';
import { sleep } from './proc';

/** Held by a whole test run that builds dist/, bundles out/ and writes test-results/ (test:vscode; e2e may join). */
export const TEST_RUN_LOCK_DIR = path.join(CACHE_DIR, 'test-run.lock');
const TEST_RUN_LOCK_WAIT_MS = 30 * 60_000;

/** Runs body while no other test run in this checkout does (waits, bounded, for one that does). */
export function withTestRunLock<T>(what: string, body: () => Promise<T>): Promise<T> {
  return withLock(TEST_RUN_LOCK_DIR, { waitMs: TEST_RUN_LOCK_WAIT_MS, what }, body);
}

const POLL_MS = 1_000;
/** A lock without a pid file yet may be a moment old; only older ones are called stale. */
const FRESH_LOCK_MS = 5_000;

export async function withLock<T>(
  lockDir: string,
  opts: { waitMs: number; what: string },
  body: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + opts.waitMs;
  let announced = false;
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  for (let polls = 0; ; polls++) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = Number(readOr(path.join(lockDir, 'pid')));
    const ownerAlive = Number.isInteger(owner) && owner > 0 && pidAlive(owner);
    if (!ownerAlive && Date.now() - mtime(lockDir) > FRESH_LOCK_MS) {
      console.log(`[test-host] removing a stale lock for ${opts.what} (pid ${owner || 'unknown'} is gone)`);
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline || polls > opts.waitMs / POLL_MS + 10) {
      throw new Error(
        `timed out after ${Math.round(opts.waitMs / 1000)} s waiting for ${opts.what} (lock ${lockDir}, pid ${owner})`,
      );
    }
    if (!announced) {
      console.log(`[test-host] waiting for ${opts.what} in another process (pid ${owner}) to finish`);
      announced = true;
    }
    await sleep(POLL_MS);
  }
  fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
  // Also released when a signal ends us through process.exit().
  const release = (): void => fs.rmSync(lockDir, { recursive: true, force: true });
  process.on('exit', release);
  try {
    return await body();
  } finally {
    process.off('exit', release);
    release();
  }
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function mtime(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
