// Uploads, against the emulator at 50 ms latency:
// - upload_1000_requests / upload_1000_429s / upload_1000_s / upload_1000_floor_s: 1,000 small files into one folder
//   through the engine; the floor is the least time those requests can take: the request budget's (a request past
//   the budget's count waits for the window) or the latency's (two requests per file in turn, eight files at once),
//   whichever is longer. The budget is the portal's 2,000 requests with its window scaled from 300 s to 20 s, on both
//   sides, so the figure takes seconds instead of minutes and still crosses the budget.
// - upload_1gb_rss_growth_mb / upload_1gb_throughput_ratio: one 1 GB file (written to a temp folder, deleted after)
//   through the API module in a child process, against one plain streamed POST of the same bytes (each way twice,
//   plain, chunked, chunked, plain: the faster of each).
// - upload_resume_done_twice / upload_resume_lost: 200 files, the client closed halfway (as by a reload), resumed.
// - upload_swapped_source_sent: see uploadSwap.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { collect, PortalClient } from '../src/api';
import { planUpload, type UploadTargetRef } from '../src/engine/uploads/plan';
import { resumeUploads, runUploads, unfinishedUploads } from '../src/engine/uploads/run';
import { unitsOf } from '../src/engine/uploads/units';
import { startEmulator, type Emulator } from '../test/emulator';
import { childFigures } from './child';
import { uploadSwapBenchmark } from './uploadSwap';
import type { Benchmark, Figure } from './types';

const LATENCY_MS = 50;
const BUDGET = { count: 2000, windowMs: 20_000 };
const CONCURRENCY = 8;
const ACME = 1;
const SOCIAL = 104;
const target: UploadTargetRef = { portalId: 'bench', accountId: ACME, groupId: SOCIAL, folderId: 0 };

async function signedIn(emu: Emulator): Promise<PortalClient> {
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal', requestBudget: BUDGET });
  await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
  return client;
}

function smallFiles(dir: string, n: number, prefix: string): string {
  const folder = join(dir, prefix);
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < n; i++)
    writeFileSync(join(folder, `${prefix}-${String(i).padStart(4, '0')}.txt`), `${prefix} ${i}\n`);
  return folder;
}

async function thousand(): Promise<Figure[]> {
  const emu = await startEmulator({
    port: 0,
    seed: 'demo',
    quiet: true,
    latencyMs: LATENCY_MS,
    rateLimit: { count: BUDGET.count, windowSeconds: BUDGET.windowMs / 1000 },
  });
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-uploads-'));
  try {
    const folder = smallFiles(dir, 1000, 'thousand');
    const client = await signedIn(emu);
    emu.resetStats();
    const started = performance.now();
    const plan = await planUpload(target, [folder], await client.uploads.index(target));
    await runUploads(client, plan, unitsOf(plan, new Map()), { storageFolder: dir, concurrency: CONCURRENCY });
    const seconds = (performance.now() - started) / 1000;
    const stats = emu.stats();
    client.close();
    const requests = stats.requests - stats.tokenRequests;
    const byLatency = (Math.ceil(1000 / CONCURRENCY) * 2 + 1) * LATENCY_MS;
    const byBudget = Math.floor((requests - 1) / BUDGET.count) * BUDGET.windowMs + LATENCY_MS;
    return [
      { name: 'upload_1000_requests', value: requests },
      { name: 'upload_1000_429s', value: stats.rateLimited },
      { name: 'upload_1000_s', value: seconds },
      { name: 'upload_1000_floor_s', value: Math.max(byLatency, byBudget) / 1000 },
    ];
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function writeLargeFile(file: string, size: number): Promise<void> {
  const handle = await open(file, 'w');
  const block = Buffer.alloc(16 * 1024 * 1024, 0x5a);
  try {
    for (let at = 0; at < size; at += block.length) await handle.write(block, 0, Math.min(block.length, size - at));
  } finally {
    await handle.close();
  }
}

function runChild(script: string, args: unknown): Promise<{ rssGrowthMb: number; chunkedS: number; plainS: number }> {
  return childFigures(['--expose-gc', script, JSON.stringify(args)], 'the upload client');
}

async function oneGigabyte(): Promise<Figure[]> {
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true, latencyMs: LATENCY_MS });
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-1gb-'));
  try {
    const script = join(dir, 'uploadClient.cjs');
    await build({
      entryPoints: [join(import.meta.dirname, 'uploadClient.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: script,
      logLevel: 'warning',
    });
    const size = 1024 * 1024 * 1024;
    const file = join(dir, 'large.bin');
    await writeLargeFile(file, size);
    const r = await runChild(script, { url: emu.url, file, size, accountId: ACME, groupId: SOCIAL });
    return [
      { name: 'upload_1gb_rss_growth_mb', value: r.rssGrowthMb },
      { name: 'upload_1gb_throughput_ratio', value: r.plainS / r.chunkedS },
      { name: 'upload_1gb_s', value: r.chunkedS },
      { name: 'upload_1gb_plain_s', value: r.plainS },
    ];
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function resume(): Promise<Figure[]> {
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true, latencyMs: LATENCY_MS });
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-resume-'));
  try {
    const folder = smallFiles(dir, 200, 'resume');
    const cut = await signedIn(emu);
    const plan = await planUpload(target, [folder], new Map());
    const units = unitsOf(plan, new Map());
    // Slow answers to the complete call: the close catches some files made on the portal but not yet journaled.
    emu.setFaults([
      { kind: 'slow-body', delayMs: 200, path: `/v2/accounts/${ACME}/groups/${SOCIAL}/files/upload/complete` },
    ]);
    let finished = 0;
    await runUploads(cut, plan, units, {
      storageFolder: dir,
      concurrency: CONCURRENCY,
      onProgress: () => {
        if (++finished === 100) cut.close();
      },
    });
    await new Promise((r) => setTimeout(r, 500));
    emu.clearFaults();
    const client = await signedIn(emu);
    for (const record of await unfinishedUploads(dir)) await resumeUploads(client, record, { storageFolder: dir });
    const names = (await collect(client.v2.files.iterate(ACME, SOCIAL, { recursive: true, size: 500 })))
      .map((f) => f.name)
      .filter((n) => n.startsWith('resume-'));
    client.close();
    const counts = new Map<string, number>();
    for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
    return [
      { name: 'upload_resume_done_twice', value: [...counts.values()].filter((c) => c > 1).length },
      { name: 'upload_resume_lost', value: 200 - counts.size },
    ];
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const uploadBenchmarks: Benchmark[] = [
  {
    name: 'upload-1000',
    figures: ['upload_1000_requests', 'upload_1000_429s', 'upload_1000_s', 'upload_1000_floor_s'],
    run: thousand,
  },
  {
    name: 'upload-1gb',
    figures: ['upload_1gb_rss_growth_mb', 'upload_1gb_throughput_ratio', 'upload_1gb_s', 'upload_1gb_plain_s'],
    run: oneGigabyte,
  },
  { name: 'upload-resume', figures: ['upload_resume_done_twice', 'upload_resume_lost'], run: resume },
  uploadSwapBenchmark,
];
