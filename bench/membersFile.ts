// A 45 MB members file against the emulator's `large` seed (20,003 members of `bigcorp`, 50 ms latency): the
// export's rows (tags of 200 changed) followed by new-member rows up to 45 MB, as a file mailed in by someone else.
// What the extension does with it, without VS Code: opened and edited once (the live checks see its size and stop
// with one message, reading only its first line), then planned as Plan Changes… does (read, hashed and planned in
// slices, the portal read in between).
//
//   members_file_45mb_max_block_ms    the longest the event loop was held (a 1 ms timer's longest gap, less 1 ms)
//   members_file_45mb_rss_growth_mb   RSS growth from the file's text in memory to the plan made
//   members_file_45mb_plan_s          seconds to plan it
import { PortalClient } from '../src/api';
import { csvLine } from '../src/features/members/csv/csv';
import { desiredRowsInSlices } from '../src/features/members/plan/core/file/desiredRows';
import { looksLikeMembersFile, parseMembersFileInSlices } from '../src/features/members/plan/core/file/membersFile';
import { fileDigestInSlices, makePlanInSlices } from '../src/features/members/plan/core/planner';
import { readPortalState } from '../src/features/members/plan/core/portalState';
import { startEmulator } from '../test/emulator';
import { largeExport, text } from './plan';
import type { Benchmark, Figure } from './types';

const TARGET_CHARS = 45_000_000;
const LIVE_CHECK_LIMIT = 5_000_000;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The export of bigcorp, 200 rows' tags changed, then new members until the text is 45 MB. */
function file45mb(): string {
  const base = largeExport(0);
  const tags = base.header.indexOf('tags');
  base.rows.slice(3, 203).forEach((r) => (r[tags] = r[tags] ? `${r[tags]}, bench` : 'bench'));
  const parts = [text(base)];
  let size = parts[0]?.length ?? 0;
  for (let i = 0; size < TARGET_CHARS; i++) {
    const cells = base.header.map(
      (h) => ({ username: `mailed.${i}`, name: `Mailed ${i}`, email: `mailed.${i}@example.com` })[h] ?? '',
    );
    const line = csvLine(cells);
    parts.push(line);
    size += line.length;
  }
  return parts.join('');
}

/** The longest gap of a 1 ms timer while `work` runs: how long the event loop was held at most. */
async function longestBlock<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
  }, 1);
  try {
    const result = await work();
    return { result, ms: Math.round(Math.max(longest, 0)) };
  } finally {
    clearInterval(timer);
  }
}

async function membersFile(): Promise<Figure[]> {
  const emu = await startEmulator({ port: 0, seed: 'large', latencyMs: 50, quiet: true, tokenLifetimeSeconds: 86_400 });
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal' });
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const accountId = (await client.v3.accounts.list())[0]?.id ?? 1;
    let content = file45mb();
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const { result: plan, ms } = await longestBlock(async () => {
      // Opened, then edited once: the live checks read the first line and the size, and stop there.
      for (let edit = 0; edit < 2; edit++) {
        if (edit === 1) content = content.replace('mailed.0,', 'mailed.zero,');
        const firstLine = content.slice(0, content.indexOf('\n'));
        if (!looksLikeMembersFile(firstLine) || content.length <= LIVE_CHECK_LIMIT) throw new Error('not a large file');
        await nextTurn();
      }
      // Planned, as Plan Changes… does it.
      const file = await parseMembersFileInSlices(content, {}, nextTurn);
      const digest = await fileDigestInSlices(content, nextTurn);
      await desiredRowsInSlices(file, nextTurn);
      const state = await readPortalState(client, accountId, file);
      return makePlanInSlices(file, state, { fileDigest: digest }, nextTurn);
    });
    const seconds = (performance.now() - started) / 1000;
    const rss = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    if (plan.fieldChanges.length !== 200) throw new Error(`${plan.fieldChanges.length} field changes, not 200`);
    return [
      { name: 'members_file_45mb_max_block_ms', value: ms },
      { name: 'members_file_45mb_rss_growth_mb', value: Math.round(rss) },
      { name: 'members_file_45mb_plan_s', value: Math.round(seconds * 10) / 10 },
    ];
  } finally {
    client.close();
    await emu.stop();
  }
}

export const membersFileBenchmarks: Benchmark[] = [
  {
    name: 'members-file',
    figures: ['members_file_45mb_max_block_ms', 'members_file_45mb_rss_growth_mb', 'members_file_45mb_plan_s'],
    run: membersFile,
  },
];
