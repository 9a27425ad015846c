// Save-back against the emulator at 50 ms latency:
// - save_conflict_missed: of 50 saves over a copy another administrator changed on the portal since it was opened
//   (half of the changes the same size as before, half leaving `lastModified` where it was; a quarter both), the ones
//   that went through. Each goes through the file system's save check as VS Code drives it: stat, VS Code's own
//   conflict check, then write (test/unit/features/records/documents/editorDriver.ts). All 50 documents stay open.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect, PortalClient } from '../src/api';
import { SaveBaselines } from '../src/features/records/documents/baselines';
import { startEmulator } from '../test/emulator';
import { EditorDriver, portalText } from '../test/unit/features/records/documents/editorDriver';
import type { Benchmark, Figure } from './types';

const LATENCY_MS = 50;
const ACME = 1;
const MARKETING = 102;
const SAVES = 50;

async function conflicts(): Promise<Figure[]> {
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true, latencyMs: LATENCY_MS });
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal' });
  // Saves go through the write engine, which stages and journals them here.
  const storage = mkdtempSync(join(tmpdir(), 'bench-save-'));
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const notes = (await collect(client.v2.files.iterate(ACME, MARKETING))).find((f) => f.name === 'notes.txt');
    if (!notes) throw new Error('notes.txt is not in the demo seed');
    const target = {
      kind: 'content',
      portalId: 'bench',
      accountId: ACME,
      groupId: MARKETING,
      fileId: notes.id,
      name: notes.name,
    } as const;
    const baselines = new SaveBaselines(() => true, storage);
    let missed = 0;
    for (let i = 0; i < SAVES; i++) {
      const editor = new EditorDriver(baselines, client, target, `notes-${i}`);
      await editor.open();
      const opened = editor.text;
      // Same size: the opened text with its first character changed; otherwise one line longer.
      const theirs = i % 2 === 0 ? `${opened.startsWith('#') ? '$' : '#'}${opened.slice(1)}` : `${opened}theirs ${i}\n`;
      emu.editFile({ id: notes.id, text: theirs, keepLastModified: i < SAVES / 2 });
      editor.edit(`${opened}mine ${i}\n`);
      const outcome = await editor.save();
      if (outcome === 'saved' || (await portalText(client, target)) !== theirs) missed++;
    }
    return [{ name: 'save_conflict_missed', value: missed }];
  } finally {
    client.close();
    await emu.stop();
    rmSync(storage, { recursive: true, force: true });
  }
}

export const saveBackBenchmarks: Benchmark[] = [
  { name: 'save-conflict', figures: ['save_conflict_missed'], run: conflicts },
];
