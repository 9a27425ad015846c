// Figures of the access matrix read (src/features/members/access) against the emulator's `large` seed (20,003
// members, 500 groups) with 50 ms latency.
//
//   matrix_500_requests      API requests (token left out) of the matrix for the first 500 members: reads + pages
//   matrix_first_rows_ms     time from the start to the first rows the page can show (listed: names, groups to come)
//   matrix_first_read_row_ms the same to the first row with its groups read
//   matrix_reopen_requests   requests of a second open within the maximum age, from the journal on disk
//   matrix_20k_eta_ratio     the estimate told before reading all 20,003 members ÷ 20,003 reads at the budget's rate
//                            (2,000 per 5 minutes): 1.0 means the estimate is the budget's own minimum
//   matrix_2000_reads_429s   429 answers while 2,000 members are read against a portal whose limit equals the
//                            client's budget (scaled to 1,000 per 10 s so the sample takes seconds, not 5 minutes)
//   matrix_2000_reads_s      seconds that sample took
//   matrix_20k_heap_mb       heap growth (after GC) holding all 20,003 rows read (rate limit off for this one)
//   matrix_filter_20k_ms     the median of 9 filters of a 20,003 × 500 matrix by one group + inactive 90+ days (the
//                            auditor's question), sorted as the page shows it: the work the page and the CSV export
//                            do on each change of a filter. The matrix is built in memory (a seeded pseudo-random
//                            spread of groups and last-active dates), as the read would leave it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { PortalClient } from '../src/api';
import { AccessMatrix } from '../src/features/members/access/store/accessMatrix';
import { AccessStoreFile } from '../src/features/members/access/store/accessStoreFile';
import { readMatrix, type ReadEstimate } from '../src/features/members/access/store/matrixRead';
import { visibleRows } from '../src/features/members/access/matrix.protocol';
import { ROW } from '../src/shared/accessRow';
import { startEmulator, type Emulator, type EmulatorOptions } from '../test/emulator';
import type { Benchmark, Figure } from './types';

const LATENCY_MS = 50;
const HOUR = 3_600_000;

async function withPortal(
  options: Partial<EmulatorOptions>,
  clientBudget: { count: number; windowMs: number } | undefined,
  run: (emu: Emulator, client: PortalClient, journal: () => AccessStoreFile) => Promise<Figure[]>,
): Promise<Figure[]> {
  const emu = await startEmulator({ port: 0, seed: 'large', quiet: true, tokenLifetimeSeconds: 24 * 3600, ...options });
  const client = new PortalClient({
    baseUrl: emu.url,
    service: 'portal',
    ...(clientBudget ? { requestBudget: clientBudget } : {}),
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'access-bench-'));
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    emu.resetStats();
    return await run(emu, client, () => new AccessStoreFile(path.join(dir, 'bigcorp.jsonl')));
  } finally {
    client.close();
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function apiRequests(emu: Emulator): number {
  let n = 0;
  for (const [route, count] of Object.entries(emu.stats().byRoute)) if (!route.includes('/oauth/token')) n += count;
  return n;
}

const options = (extra: Partial<Parameters<typeof readMatrix>[4]> = {}): Parameters<typeof readMatrix>[4] => ({
  signal: new AbortController().signal,
  maxAgeMs: HOUR,
  concurrency: 8,
  ...extra,
});

function first500(): Promise<Figure[]> {
  return withPortal({ latencyMs: LATENCY_MS }, undefined, async (emu, client, journal) => {
    // The emulator sorts its 20,003 members on the first list request (seconds on a busy machine); a portal in
    // service has long done so. One page first, not counted.
    await client.v3.members.page(1, { page: 1, size: 1 });
    emu.resetStats();
    const j = journal();
    const started = performance.now();
    let firstRowMs = Number.NaN;
    let firstReadMs = Number.NaN;
    const result = await readMatrix(
      client,
      1,
      j.load(),
      j,
      options({
        limit: 500,
        onRow: (r) => {
          const at = performance.now() - started;
          if (Number.isNaN(firstRowMs)) firstRowMs = at;
          if (r[ROW.readAt] > 0 && Number.isNaN(firstReadMs)) firstReadMs = at;
        },
      }),
    );
    if (result.reads !== 500) throw new Error(`matrix: ${result.reads} of 500 read`);
    const requests = apiRequests(emu);
    emu.resetStats();
    const again = journal();
    await readMatrix(client, 1, again.load(), again, options({ limit: 500 }));
    return [
      { name: 'matrix_500_requests', value: requests },
      { name: 'matrix_first_rows_ms', value: Math.round(firstRowMs) },
      { name: 'matrix_first_read_row_ms', value: Math.round(firstReadMs) },
      { name: 'matrix_reopen_requests', value: emu.stats().requests },
    ];
  });
}

function eta(): Promise<Figure[]> {
  return withPortal({ latencyMs: LATENCY_MS }, undefined, async (_emu, client, journal) => {
    const j = journal();
    let estimate: ReadEstimate | undefined;
    await readMatrix(
      client,
      1,
      j.load(),
      j,
      options({
        confirmAboveMs: 0,
        confirm: async (e) => {
          estimate = e;
          return false;
        },
      }),
    );
    if (!estimate) throw new Error('no estimate');
    const minimumMs = (estimate.reads / client.budget.limit) * client.budget.windowMs;
    return [{ name: 'matrix_20k_eta_ratio', value: estimate.etaMs / minimumMs }];
  });
}

function sample(): Promise<Figure[]> {
  const limit = { count: 1000, windowSeconds: 10 };
  return withPortal(
    { latencyMs: LATENCY_MS, rateLimit: limit },
    { count: limit.count, windowMs: limit.windowSeconds * 1000 },
    async (emu, client, journal) => {
      const j = journal();
      const started = performance.now();
      const result = await readMatrix(client, 1, j.load(), j, options({ limit: 2000 }));
      if (result.reads !== 2000) throw new Error(`sample: ${result.reads} of 2,000 read`);
      return [
        { name: 'matrix_2000_reads_429s', value: emu.stats().rateLimited },
        { name: 'matrix_2000_reads_s', value: (performance.now() - started) / 1000 },
      ];
    },
  );
}

function heap(): Promise<Figure[]> {
  v8.setFlagsFromString('--expose_gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return withPortal(
    { latencyMs: 0, rateLimit: { count: 0, windowSeconds: 300 } },
    { count: 100_000, windowMs: 1000 },
    async (_emu, client, journal) => {
      gc();
      const before = process.memoryUsage().heapUsed;
      const j = journal();
      const matrix: AccessMatrix = j.load();
      const result = await readMatrix(client, 1, matrix, j, options({ concurrency: 16 }));
      if (matrix.readCount() < 20_003)
        throw new Error(`heap: ${matrix.readCount()} rows read (${result.failed} failed)`);
      gc();
      const after = process.memoryUsage().heapUsed;
      // Held until here, so the GC above could not take it.
      const rows = matrix.size;
      return [
        { name: 'matrix_20k_heap_mb', value: (after - before) / 1024 / 1024 },
        { name: 'matrix_20k_rows', value: rows },
      ];
    },
  );
}

/** 20,003 members in 500 groups, each in 1–12 groups, active within the last two years or never. */
function syntheticMatrix(now: number): AccessMatrix {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const matrix = new AccessMatrix();
  for (let i = 0; i < 20_003; i++) {
    const username = `user${i}`;
    const never = random() < 0.05;
    matrix.upsert({
      username,
      name: `Member ${i}`,
      email: `${username}@example.com`,
      tags: [],
      permission: 1,
      lastActive: never ? null : now - Math.floor(random() * 730 * 86_400_000),
      flags: 0,
    });
    const groups: Record<string, number> = {};
    const n = 1 + Math.floor(random() * 12);
    for (let g = 0; g < n; g++) groups[`group-${Math.floor(random() * 500)}`] = [1, 4, 16][g % 3] ?? 1;
    matrix.setGroups(username, groups, now);
  }
  return matrix;
}

function filter(): Promise<Figure[]> {
  const now = Date.UTC(2026, 10, 27);
  const matrix = syntheticMatrix(now);
  const view = { group: matrix.ensureColumn('group-7'), inactiveDays: 90, sort: 'name' as const };
  const times: number[] = [];
  let shown = 0;
  for (let i = 0; i < 9; i++) {
    const start = performance.now();
    shown = visibleRows(matrix.all(), view, now).length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Promise.resolve([
    { name: 'matrix_filter_20k_ms', value: Math.round((times[4] ?? 0) * 10) / 10 },
    { name: 'matrix_filter_20k_rows', value: shown },
  ]);
}

export const accessBenchmarks: Benchmark[] = [
  {
    name: 'access-matrix',
    figures: ['matrix_500_requests', 'matrix_first_rows_ms', 'matrix_first_read_row_ms', 'matrix_reopen_requests'],
    run: first500,
  },
  { name: 'access-eta', figures: ['matrix_20k_eta_ratio'], run: eta },
  { name: 'access-sample', figures: ['matrix_2000_reads_429s', 'matrix_2000_reads_s'], run: sample },
  { name: 'access-heap', figures: ['matrix_20k_heap_mb', 'matrix_20k_rows'], run: heap },
  { name: 'access-filter', figures: ['matrix_filter_20k_ms', 'matrix_filter_20k_rows'], run: filter },
];
