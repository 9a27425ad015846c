// Two windows answering the start-up offer together: an apply of a tag change to every member of the demo
// organisation is killed (SIGKILL) halfway, and two processes resume its journal at the same moment.
//
//   resume_two_windows_extra_requests   PATCHes beyond one per member over the killed run and both resumes (goal 0)
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { PortalClient } from '../src/api';
import { parse } from 'csv-parse/sync';
import { csvLine, UTF8_BOM } from '../src/features/members/csv/csv';
import { membersCsvLines } from '../src/features/members/csv/membersCsv';
import { unfinishedJournals } from '../src/engine/members/index';
import { readGroups } from '../src/features/members/plan/core/portalState';
import { startEmulator, type Emulator } from '../test/emulator';
import type { Benchmark, Figure } from './types';

const CHILDREN = path.join(import.meta.dirname, '..', 'test', 'unit', 'engine', 'members');
const run = promisify(execFile);

function patches(emu: Emulator): number {
  let n = 0;
  for (const [key, count] of Object.entries(emu.stats().byRoute)) if (/^PATCH \/v3\/accounts\//.test(key)) n += count;
  return n;
}

/** acme's export with a tag changed on every row; answers the text and the number of members. */
async function editedExport(client: PortalClient, accountId: number): Promise<{ text: string; members: number }> {
  const groups = await readGroups(client, accountId);
  let exported = '';
  for await (const line of membersCsvLines(client, accountId, {}, { groups })) exported += line;
  const [header = [], ...rows] = parse(exported, { relax_column_count: true }) as string[][];
  const tagsAt = header.indexOf('Tags');
  for (const [i, row] of rows.entries()) row[tagsAt] = `two-windows-${i}`;
  return { text: UTF8_BOM + [header, ...rows].map((r) => csvLine(r)).join(''), members: rows.length };
}

async function killHalfway(emu: Emulator, accountId: number, file: string, folder: string, half: number) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(CHILDREN, 'applyChild.ts'), emu.url, String(accountId), file, folder, '3'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const journal = path.join(folder, 'journal');
  const intents = () =>
    (fs.existsSync(journal) ? fs.readdirSync(journal) : [])
      .filter((n) => n.endsWith('.jsonl'))
      .reduce((n, f) => n + fs.readFileSync(path.join(journal, f), 'utf8').split('"type":"intent"').length - 1, 0);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && intents() < half) await new Promise((r) => setTimeout(r, 5));
  child.kill('SIGKILL');
  await exited;
}

async function twoWindows(): Promise<Figure[]> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-resume-'));
  const emu = await startEmulator({ port: 0, quiet: true, latencyMs: 20 });
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal' });
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const accountId = (await client.v3.accounts.list()).find((a) => a.name === 'acme')?.id ?? 0;
    const { text, members } = await editedExport(client, accountId);
    const file = path.join(folder, 'members.csv');
    fs.writeFileSync(file, text);
    emu.resetStats();
    await killHalfway(emu, accountId, file, folder, Math.floor(members / 2));
    const [record] = await unfinishedJournals(folder);
    if (!record) throw new Error('resume: the killed apply left no unfinished journal');
    const resume = () =>
      run(process.execPath, ['--import', 'tsx', path.join(CHILDREN, 'resumeChild.ts'), emu.url, record.file, folder]);
    await Promise.all([resume(), resume()]);
    if (patches(emu) < members) throw new Error(`resume: ${patches(emu)} PATCHes for ${members} members`);
    return [{ name: 'resume_two_windows_extra_requests', value: Math.max(0, patches(emu) - members) }];
  } finally {
    client.close();
    await emu.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

export const resumeBenchmarks: Benchmark[] = [
  { name: 'resume', figures: ['resume_two_windows_extra_requests'], run: twoWindows },
];
