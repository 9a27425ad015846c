// The journal's lock across machines that share a home folder: the owner's process id means something only on its own
// machine and boot, so the lock records both, and two simulated owners (their machine and boot ids injected, never
// this machine's real ones) show which locks are taken and which are not.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { isLocked, lockFileOf, tryLock } from '../../../src/node/fileLock';
import { placeOf } from '../../../src/node/machinePlace';
import { tempDir } from '../../support/tempDir';

/** A process id that is not running here: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  assert.ok(child.pid);
  return child.pid;
}

const A = { machine: 'machine-a', boot: 'boot-a1' };
const B = { machine: 'machine-b', boot: 'boot-b1' };

async function withFolder(run: (file: string) => Promise<void>): Promise<void> {
  const folder = tempDir('lock-');
  try {
    await run(path.join(folder, 'run.jsonl'));
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** A lock as an owner on `place` wrote it, with this machine's host name (the host names collide). */
function ownedBy(file: string, pid: number, place: { machine: string; boot: string }): void {
  fs.writeFileSync(lockFileOf(file), JSON.stringify({ host: hostname(), pid, token: 'theirs', ...place }));
}

void describe('file lock: the owner is a process of one machine and one boot', () => {
  void it('records the machine and the boot beside the host and the process id', async () => {
    await withFolder(async (file) => {
      const lock = await tryLock(file, { place: A });
      assert.ok(lock);
      const owner = JSON.parse(fs.readFileSync(lockFileOf(file), 'utf8')) as Record<string, unknown>;
      assert.equal(owner.host, hostname());
      assert.equal(owner.pid, process.pid);
      assert.equal(owner.machine, A.machine);
      assert.equal(owner.boot, A.boot);
      await lock.release();
    });
  });

  void it('a lock owned on another machine of the same host name is never taken, though its pid is not running here', async () => {
    await withFolder(async (file) => {
      ownedBy(file, deadPid(), B);
      assert.equal(await tryLock(file, { place: A }), undefined, 'machine A takes machine B’s lock');
      assert.equal(await isLocked(file, { place: A }), true);
      assert.equal(JSON.parse(fs.readFileSync(lockFileOf(file), 'utf8')).token, 'theirs', 'the lock is untouched');
    });
  });

  void it('a lock from an earlier boot of this machine is stale, though its pid is running again', async () => {
    await withFolder(async (file) => {
      // process.pid is alive: after a reboot another process may well have the dead owner's id.
      ownedBy(file, process.pid, { machine: A.machine, boot: 'boot-a0' });
      assert.equal(await isLocked(file, { place: A }), false);
      const lock = await tryLock(file, { place: A });
      assert.ok(lock, 'the lock of a boot that is over is taken');
      await lock.release();
    });
  });

  void it('same machine and boot: the process decides, as before', async () => {
    await withFolder(async (file) => {
      ownedBy(file, process.pid, A);
      assert.equal(await tryLock(file, { place: A }), undefined, 'a live owner keeps its lock');
      ownedBy(file, deadPid(), A);
      const lock = await tryLock(file, { place: A });
      assert.ok(lock, 'a dead owner’s lock is taken');
      await lock.release();
    });
  });

  void it('two owners on two machines: each keeps its lock from the other, and takes its own back after a reboot', async () => {
    await withFolder(async (file) => {
      const a = await tryLock(file, { place: A });
      assert.ok(a, 'A takes the free lock');
      assert.equal(await tryLock(file, { place: B }), undefined, 'B does not take A’s');
      assert.equal(await isLocked(file, { place: B }), true);
      // A's machine restarts: its new boot finds its old lock stale.
      const again = await tryLock(file, { place: { machine: A.machine, boot: 'boot-a2' } });
      assert.ok(again, 'A, rebooted, takes the lock of its earlier boot');
      await a.release();
      assert.equal(await isLocked(file, { place: B }), true, 'the old owner’s release leaves the new lock alone');
      await again.release();
      assert.equal(await isLocked(file, { place: B }), false);
    });
  });

  void it('a machine id kept in the folder (the system has none) proves nothing about boots: the process decides', async () => {
    await withFolder(async (file) => {
      // Two machines without a system id that share the folder share the id kept in it.
      const kept = { machine: 'kept:0123456789abcdef0123456789abcdef', boot: 'boot-1' };
      ownedBy(file, process.pid, { ...kept, boot: 'boot-2' });
      assert.equal(await tryLock(file, { place: kept }), undefined, 'a live process keeps its lock');
      ownedBy(file, deadPid(), { ...kept, boot: 'boot-2' });
      const lock = await tryLock(file, { place: kept });
      assert.ok(lock, 'a dead owner’s lock is taken');
      await lock.release();
    });
  });

  void it('a lock an older version wrote (no machine, no boot) is judged by its process, as before', async () => {
    await withFolder(async (file) => {
      fs.writeFileSync(lockFileOf(file), JSON.stringify({ host: hostname(), pid: process.pid, token: 'old' }));
      assert.equal(await tryLock(file, { place: A }), undefined);
      fs.writeFileSync(lockFileOf(file), JSON.stringify({ host: hostname(), pid: deadPid(), token: 'old' }));
      const lock = await tryLock(file, { place: A });
      assert.ok(lock);
      await lock.release();
    });
  });
});

void describe('machine place: which machine and boot this process runs in', () => {
  void it('the machine id is the system’s when it has one, else a random id kept in the folder given', async () => {
    const folder = tempDir('place-');
    try {
      const idFile = path.join(folder, 'etc-machine-id');
      fs.writeFileSync(idFile, '0123456789abcdef0123456789abcdef\n');
      const system = await placeOf(folder, { machineIdFiles: [path.join(folder, 'none'), idFile] });
      assert.equal(system.machine, '0123456789abcdef0123456789abcdef');
      const kept = path.join(folder, 'kept');
      const first = await placeOf(kept, { machineIdFiles: [path.join(folder, 'none')] });
      const second = await placeOf(kept, { machineIdFiles: [path.join(folder, 'none')] });
      assert.match(first.machine, /^kept:[0-9a-f]{32}$/, 'marked as kept, not the system’s');
      assert.equal(second.machine, first.machine, 'the same id on the next call');
      assert.notEqual(first.machine, system.machine);
      if (process.platform !== 'win32') assert.equal(fs.statSync(path.join(kept, 'machine-id')).mode & 0o777, 0o600);
      // systemd's placeholder before the first boot completes is no id.
      fs.writeFileSync(idFile, 'uninitialized\n');
      assert.equal((await placeOf(kept, { machineIdFiles: [idFile] })).machine, first.machine);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  void it('the boot id is the kernel’s when it has one, else the boot time', async () => {
    const folder = tempDir('place-');
    try {
      const bootFile = path.join(folder, 'boot_id');
      fs.writeFileSync(bootFile, '51d378b9-8033-48fa-9ea7-a007ea9b4a51\n');
      assert.equal((await placeOf(folder, { bootIdFile: bootFile })).boot, '51d378b9-8033-48fa-9ea7-a007ea9b4a51');
      const timed = await placeOf(folder, { bootIdFile: path.join(folder, 'none') });
      assert.match(timed.boot, /^boot-time:\d+$/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
