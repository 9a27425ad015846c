// A 45 MB members file against the emulator's `large` seed (20,003 members of `bigcorp`, 50 ms latency): the
// export's rows (tags of 200 changed) followed by new-member rows up to 45 MB, as a file mailed in by someone else.
// What the extension does with it, without VS Code, runs in a child process (bench/membersFileClient.ts), so the
// emulator's own work is not counted as the extension's.
//
//   members_file_45mb_max_block_ms        the longest the event loop was held (a 1 ms timer's longest gap, less 1 ms)
//   members_file_45mb_rss_growth_mb       RSS growth from the file's text in memory to the plan made
//   members_file_45mb_peak_rss_growth_mb  the highest RSS on the way, less the same start
//   members_file_45mb_plan_s              seconds to plan it
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvLine } from '../src/features/members/csv/csv';
import { startEmulator } from '../test/emulator';
import { childFigures } from './child';
import { largeExport, text } from './plan';
import type { Benchmark, Figure } from './types';

const TARGET_CHARS = 45_000_000;

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

interface ClientFigures {
  readonly blockMs: number;
  readonly rssGrowthMb: number;
  readonly peakRssGrowthMb: number;
  readonly planS: number;
  readonly fieldChanges: number;
}

/** Runs bench/membersFileClient.ts against the emulator and reads its one line of figures. */
function runClient(url: string, fileName: string): Promise<ClientFigures> {
  const script = join(import.meta.dirname, 'membersFileClient.ts');
  return childFigures<ClientFigures>(['--import', 'tsx', script, url, fileName], 'the members file client');
}

async function membersFile(): Promise<Figure[]> {
  const emu = await startEmulator({ port: 0, seed: 'large', latencyMs: 50, quiet: true, tokenLifetimeSeconds: 86_400 });
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-members-file-'));
  try {
    const fileName = join(dir, 'members.csv');
    writeFileSync(fileName, file45mb());
    const r = await runClient(emu.url, fileName);
    if (r.fieldChanges !== 200) throw new Error(`${r.fieldChanges} field changes, not 200`);
    return [
      { name: 'members_file_45mb_max_block_ms', value: r.blockMs },
      { name: 'members_file_45mb_rss_growth_mb', value: r.rssGrowthMb },
      { name: 'members_file_45mb_peak_rss_growth_mb', value: r.peakRssGrowthMb },
      { name: 'members_file_45mb_plan_s', value: r.planS },
    ];
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const membersFileBenchmarks: Benchmark[] = [
  {
    name: 'members-file',
    figures: [
      'members_file_45mb_max_block_ms',
      'members_file_45mb_rss_growth_mb',
      'members_file_45mb_peak_rss_growth_mb',
      'members_file_45mb_plan_s',
    ],
    run: membersFile,
  },
];
