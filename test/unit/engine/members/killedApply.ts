// An apply run in a child process and killed (SIGKILL) partway, as a crash would: what the journal tests resume from.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { journalFolderOf } from '../../../../src/engine/members/index';
import type { Portal } from '../../features/members/plan/core/helpers';

/** How long a child process may take: far beyond need, for a machine busy with other work. */
export const CHILD_PATIENCE_MS = 5 * 60_000;

/** The intents written so far, over every journal in the storage folder. */
export async function intentLines(storage: string): Promise<number> {
  const folder = journalFolderOf(storage);
  let n = 0;
  for (const name of await readdir(folder).catch(() => [] as string[]))
    if (name.endsWith('.jsonl')) n += (await readFile(join(folder, name), 'utf8')).split('"type":"intent"').length - 1;
  return n;
}

/** Applies the members file `text` in a child process and kills it once `after` members have been started. */
export async function applyAndKill(p: Portal, text: string, storage: string, after: number): Promise<void> {
  const textFile = join(storage, 'members.csv');
  await writeFile(textFile, text);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'applyChild.ts'), p.emu.url, String(p.acme), textFile, storage, '3'],
    { stdio: 'ignore' },
  );
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      gone = true;
      resolve();
    }),
  );
  // The state is what is waited for; the bound only turns a broken child into a failure instead of a hang.
  const deadline = Date.now() + CHILD_PATIENCE_MS;
  let reached = false;
  while (!gone && !reached && Date.now() < deadline) {
    reached = (await intentLines(storage)) >= after;
    if (!reached) await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  await exited;
  assert.ok(
    reached,
    `the apply was to be killed after ${after} members, but it ${gone ? 'ended first' : 'never got there'}`,
  );
}
