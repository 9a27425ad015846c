/**
 * Which machine, and which boot of it, this process runs in: what a process id means something within. Two machines
 * or containers can share a host name, and their process ids collide, so a lock's owner names its machine and boot
 * beside its host and pid (node/fileLock).
 *
 * The machine id is the system's (systemd's or D-Bus's, on Linux) when it has one; else a random id kept in the
 * folder the caller names, which for the journal's lock is the extension's own storage (no VS Code here to ask). The
 * boot id is the kernel's on Linux; elsewhere the boot time, from the clock and the uptime.
 *
 * A kept id is marked as such (`kept:`), as it cannot tell machines apart: it lives beside the locks, so every
 * machine that shares the locks' folder shares it too. Two owners with the same kept id may be two machines, so
 * their boots prove nothing (isSystemId).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { uptime } from 'node:os';
import * as path from 'node:path';
import { PRIVATE_FILE_MODE, privateFolder } from './privateFiles';

export interface MachinePlace {
  readonly machine: string;
  readonly boot: string;
}

/** Where the system keeps its ids; tests name their own files. */
export interface PlaceSources {
  readonly machineIdFiles?: readonly string[];
  readonly bootIdFile?: string;
}

const SYSTEM: Required<PlaceSources> = {
  machineIdFiles: ['/etc/machine-id', '/var/lib/dbus/machine-id'],
  bootIdFile: '/proc/sys/kernel/random/boot_id',
};
/** The file a machine without a system id keeps its own in. */
const KEPT_ID = 'machine-id';
const BOOT_TIME = 'boot-time:';
/**
 * Boot times computed apart by less than this are one boot: the clock and the uptime are read at two instants, and
 * the clock may be set meanwhile. A reboot inside this long goes unseen, and the process id decides, as it did
 * before machines were told apart.
 */
const BOOT_TIME_SLACK_S = 300;

/** The file's first line when it is an id (hex, dashes allowed): an empty file or systemd's "uninitialized" is none. */
async function idIn(file: string): Promise<string | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const id = text.trim().toLowerCase();
  return /^[0-9a-f-]{16,64}$/.test(id) ? id : undefined;
}

const KEPT = 'kept:';

/** Whether the machine id is the system's, so one id is one machine: not one kept in a folder machines may share. */
export const isSystemId = (machine: string): boolean => !machine.startsWith(KEPT);

/** The random id kept in `folder`, made the first time; two makers at once agree on the first one written. */
async function keptId(folder: string): Promise<string> {
  const file = path.join(folder, KEPT_ID);
  const known = await idIn(file);
  if (known) return `${KEPT}${known}`;
  await privateFolder(folder);
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await fs.writeFile(tmp, `${randomBytes(16).toString('hex')}\n`, { mode: PRIVATE_FILE_MODE });
  // A link never replaces a file: whoever links first wins, and everyone reads the winner's id.
  await fs.link(tmp, file).catch(() => undefined);
  await fs.rm(tmp, { force: true });
  const id = await idIn(file);
  if (!id) throw new Error(`No machine id could be kept in ${folder}`);
  return `${KEPT}${id}`;
}

async function machineId(folder: string, files: readonly string[]): Promise<string> {
  for (const file of files) {
    const id = await idIn(file);
    if (id) return id;
  }
  return keptId(folder);
}

async function bootId(file: string): Promise<string> {
  return (await idIn(file)) ?? `${BOOT_TIME}${Math.round(Date.now() / 1000 - uptime())}`;
}

/** This process's machine and boot; `folder` keeps a random machine id when the system has none. */
export async function placeOf(folder: string, sources: PlaceSources = {}): Promise<MachinePlace> {
  const { machineIdFiles, bootIdFile } = { ...SYSTEM, ...sources };
  const [machine, boot] = await Promise.all([machineId(folder, machineIdFiles), bootId(bootIdFile)]);
  return { machine, boot };
}

const known = new Map<string, Promise<MachinePlace>>();

/** placeOf with the system's sources, read once per folder for the life of the process (neither changes meanwhile). */
export function thisPlace(folder: string): Promise<MachinePlace> {
  let place = known.get(folder);
  if (!place) {
    place = placeOf(folder);
    place.catch(() => known.delete(folder));
    known.set(folder, place);
  }
  return place;
}

/** Whether two boot ids name one boot: the same id, or boot times within the slack of each other. */
export function sameBoot(a: string, b: string): boolean {
  if (a.startsWith(BOOT_TIME) && b.startsWith(BOOT_TIME)) {
    // A time that does not parse compares as NaN, so as the same boot: in doubt, the process id decides.
    return !(Math.abs(Number(a.slice(BOOT_TIME.length)) - Number(b.slice(BOOT_TIME.length))) > BOOT_TIME_SLACK_S);
  }
  return a === b;
}
