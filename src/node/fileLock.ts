/**
 * An exclusive lock on a file, across windows and processes of this machine: `<file>.lock`, made with O_EXCL and
 * holding the owner's host name, machine id, boot id and process id.
 *
 * Why not a time-based lock (proper-lockfile and the like, whose lock goes stale when its owner stops refreshing it)?
 * An apply must be resumable at once after a crash or a window reload, and must never be taken over while it runs.
 * A time-based lock gets both wrong: after a reload the new window would find the dead window's lock still fresh
 * and not offer the resume, and an extension host whose event loop is blocked for longer than the stale time (a big
 * file being parsed) would lose the lock to a second window in the middle of its apply. Here a lock is free exactly
 * when its owner process is gone, which the operating system answers (`kill(pid, 0)`); no clock is involved.
 *
 * Taking over a dead owner's lock moves it aside first and checks it moved the lock it judged dead, so two takers
 * racing for the same dead lock cannot both win. A process id means something only on its machine and in its boot:
 * two machines or containers of one host name sharing a home folder have colliding ids, and after a restart another
 * process may have the dead owner's id. So a lock from another host or another machine (machinePlace.ts) is never
 * taken over, as its owner cannot be asked (Remove Local Data clears it); a lock from an earlier boot of this machine
 * is stale, whatever runs under its id now; only a lock of this machine and boot is judged by its process. Where the
 * system gives no machine id, the id kept instead is shared by every machine sharing the folder, so there the process
 * decides, as before.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { isSystemId, sameBoot, thisPlace, type MachinePlace } from './machinePlace';
import { PRIVATE_FILE_MODE } from './privateFiles';

interface Owner {
  readonly host: string;
  readonly pid: number;
  readonly token: string;
  /** Absent in a lock an older version wrote: its process alone decides. */
  readonly machine?: string;
  readonly boot?: string;
}

export interface LockOptions {
  /** This process's machine and boot (tests simulate other machines); by default the system's, read once. */
  readonly place?: MachinePlace;
}

export interface FileLock {
  readonly file: string;
  release(): Promise<void>;
}

export const lockFileOf = (file: string): string => `${file}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ownerOf(lock: string): Promise<Owner | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await fs.readFile(lock, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
  try {
    const o = JSON.parse(text) as Partial<Record<keyof Owner, unknown>>;
    if (typeof o.host === 'string' && typeof o.pid === 'number' && typeof o.token === 'string')
      return {
        host: o.host,
        pid: o.pid,
        token: o.token,
        ...(typeof o.machine === 'string' && typeof o.boot === 'string' ? { machine: o.machine, boot: o.boot } : {}),
      };
  } catch {
    // Being written this instant, or torn by a crash: judged below.
  }
  return 'unreadable';
}

/**
 * An owner that still holds its lock: on another host or machine (which cannot be asked), or alive in this boot of
 * this machine. The host is compared too, as containers of one image can share a machine id.
 */
function holds(owner: Owner, here: MachinePlace): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.machine !== undefined && owner.boot !== undefined) {
    if (owner.machine !== here.machine) return true;
    // One system id is one machine, so another boot of it means the owner is gone; a kept id may be two machines.
    if (isSystemId(owner.machine) && !sameBoot(owner.boot, here.boot)) return false;
  }
  return alive(owner.pid);
}

/** The place given, else this process's, its fallback machine id kept beside the lock (the extension's storage). */
const placeFor = (lock: string, o: LockOptions): Promise<MachinePlace> =>
  o.place ? Promise.resolve(o.place) : thisPlace(path.dirname(lock));

/**
 * A lock file whose content never became readable: its maker crashed between making it and writing it (a few
 * microseconds), or is writing it now. Judged dead once it is a minute old; the only clock in this module, and only
 * for this case, which no running owner is ever in for longer than a write.
 */
async function unreadableIsDead(lock: string): Promise<boolean> {
  const stat = await fs.stat(lock).catch(() => undefined);
  return stat !== undefined && Date.now() - stat.mtimeMs > 60_000;
}

async function tryCreate(lock: string, owner: Owner): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(lock, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify(owner), 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** Moves a dead owner's lock aside; puts back a live lock moved by mistake (another taker won meanwhile). */
async function takeOver(lock: string, dead: Owner | undefined): Promise<void> {
  const aside = `${lock}.${randomBytes(6).toString('hex')}.stale`;
  try {
    await fs.rename(lock, aside);
  } catch {
    return; // Gone already: someone else took it over.
  }
  const moved = await ownerOf(aside);
  const same = dead === undefined ? moved === 'unreadable' : typeof moved === 'object' && moved.token === dead.token;
  if (!same) await fs.link(aside, lock).catch(() => undefined);
  await fs.rm(aside, { force: true });
}

/** Takes the lock on `file`, or answers undefined when a live owner holds it. Never waits. */
export async function tryLock(file: string, o: LockOptions = {}): Promise<FileLock | undefined> {
  const lock = lockFileOf(file);
  const here = await placeFor(lock, o);
  const me: Owner = { host: hostname(), pid: process.pid, token: randomBytes(8).toString('hex'), ...here };
  for (let attempt = 0; attempt < 4; attempt++) {
    if (await tryCreate(lock, me)) return { file, release: () => release(lock, me) };
    const owner = await ownerOf(lock);
    if (owner === 'gone') continue;
    if (owner === 'unreadable' ? !(await unreadableIsDead(lock)) : holds(owner, here)) return undefined;
    await takeOver(lock, owner === 'unreadable' ? undefined : owner);
  }
  return undefined;
}

/** Whether a live owner holds the lock on `file` now (a running apply). */
export async function isLocked(file: string, o: LockOptions = {}): Promise<boolean> {
  const lock = lockFileOf(file);
  const owner = await ownerOf(lock);
  if (owner === 'gone') return false;
  if (owner === 'unreadable') return !(await unreadableIsDead(lock));
  return holds(owner, await placeFor(lock, o));
}

async function release(lock: string, me: Owner): Promise<void> {
  const owner = await ownerOf(lock);
  // Only our own lock: never one a taker made after judging ours dead.
  if (typeof owner === 'object' && owner.token === me.token) await fs.rm(lock, { force: true });
}
