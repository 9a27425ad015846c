// upload_swapped_source_sent: files swapped between the plan and the send (for a link to a private key, for another
// file of the same size renamed into place, or rewritten in place with a new mtime), uploaded through the engine
// against the emulator; the figure is how many of those files' wrong bytes the portal received, in any chunk, kept
// or not (read from the chunks the emulator keeps beside its data file). It should be 0.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortalClient } from '../src/api';
import { planUpload, type UploadTargetRef } from '../src/engine/uploads/plan';
import { runUploads } from '../src/engine/uploads/run';
import { unitsOf } from '../src/engine/uploads/units';
import { startEmulator } from '../test/emulator';
import type { Benchmark, Figure } from './types';

const FILES = 30;
const target: UploadTargetRef = { portalId: 'bench', accountId: 1, groupId: 104, folderId: 0 };

/** The same length as the planned text, so only the identity tells them apart. */
const planned = (i: number): string => `planned ${String(i).padStart(4, '0')}\n`;
const wrong = (i: number): string => `WRONG-B ${String(i).padStart(4, '0')}\n`;

/** Swaps file `i` one of three ways: for a link to the key, for another file renamed in, rewritten in place. */
function swap(folder: string, i: number, key: string): void {
  const file = join(folder, `swap-${i}.txt`);
  if (i % 3 === 0) {
    rmSync(file);
    symlinkSync(key, file);
  } else if (i % 3 === 1) {
    writeFileSync(`${file}.new`, wrong(i));
    renameSync(`${file}.new`, file);
  } else {
    writeFileSync(file, wrong(i));
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
  }
}

/** How many of the swapped files' wrong bytes are in any chunk the portal received. */
function wrongBytesReceived(blobs: string, key: string): number {
  // The emulator makes the folder with the first chunk it receives: none, none of the wrong bytes.
  if (!existsSync(blobs)) return 0;
  const chunks = readdirSync(blobs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'));
  let sent = 0;
  for (let i = 0; i < FILES; i++) {
    const bytes = i % 3 === 0 ? key : wrong(i);
    if (chunks.some((c) => c.includes(bytes))) sent++;
  }
  return sent;
}

async function swapped(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-swap-'));
  const dataFile = join(dir, 'portal.json');
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true, dataFile });
  try {
    const key = join(dir, 'id_rsa');
    writeFileSync(key, 'PRIVATE KEY 0000\n');
    const folder = join(dir, 'swap');
    mkdirSync(folder);
    for (let i = 0; i < FILES; i++) writeFileSync(join(folder, `swap-${i}.txt`), planned(i));
    const client = new PortalClient({ baseUrl: emu.url, service: 'portal' });
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const plan = await planUpload(target, [folder], new Map());
    for (let i = 0; i < FILES; i++) swap(folder, i, key);
    await runUploads(client, plan, unitsOf(plan, new Map()), { storageFolder: join(dir, 'storage') });
    client.close();
    return [{ name: 'upload_swapped_source_sent', value: wrongBytesReceived(`${dataFile}.blobs`, 'PRIVATE KEY 0000') }];
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const uploadSwapBenchmark: Benchmark = {
  name: 'upload-swapped',
  figures: ['upload_swapped_source_sent'],
  run: swapped,
};
