// Figures of the API client (src/api) against the emulator started in-process.
import { Pool } from 'undici';
import { PortalClient, pages, type PortalClientOptions } from '../src/api';
import { startEmulator, type Emulator, type EmulatorOptions } from '../test/emulator';
import type { Benchmark, Figure } from './types';

async function emulator(options: Partial<EmulatorOptions>): Promise<Emulator> {
  return startEmulator({ port: 0, seed: 'demo', quiet: true, ...options });
}

async function enrolled(
  emu: Emulator,
  options: Partial<PortalClientOptions> = {},
): Promise<{ client: PortalClient; clientId: string }> {
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal', ...options });
  await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
  const { clientId } = await client.enrollApplication({ name: 'bench', platform: 'OTHER', deviceType: 'Other' });
  return { client, clientId };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Typed client GET vs raw undici.request of the same URL on a pool with the same settings. */
async function overhead(): Promise<Figure[]> {
  const ROUNDS = 8000;
  const BLOCK = 50;
  const WARMUP = 300;
  const emu = await emulator({ rateLimit: { count: 0, windowSeconds: 1 } });
  const settings = { maxConcurrent: 8, connectTimeoutMs: 10_000, headersTimeoutMs: 30_000, bodyTimeoutMs: 30_000 };
  const { client } = await enrolled(emu, { ...settings, requestBudget: { count: 1_000_000, windowMs: 1000 } });
  try {
    const accounts = await client.v3.accounts.list();
    const id = accounts[0]?.id ?? 1;
    const path = `/v3/accounts/${id}`;
    const pool = new Pool(emu.url, {
      connections: settings.maxConcurrent,
      connectTimeout: settings.connectTimeoutMs,
      headersTimeout: settings.headersTimeoutMs,
      bodyTimeout: settings.bodyTimeoutMs,
      keepAliveTimeout: 10_000,
    });
    const headers = {
      authorization: `Bearer ${await client.accessToken()}`,
      accept: 'application/json',
      'user-agent': client.userAgent,
    };
    const raw = async () => {
      const res = await pool.request({ path, method: 'GET', headers });
      await res.body.json();
    };
    const typed = async () => {
      await client.v3.accounts.get(id);
    };
    for (let i = 0; i < WARMUP; i++) {
      await raw();
      await typed();
    }
    const rawTimes: number[] = [];
    const typedTimes: number[] = [];
    // Alternating blocks (raw, typed, typed, raw, ...) so drift and GC pauses fall on both alike, while each
    // block keeps its own connection warm the way a real sequence of calls does.
    for (let b = 0; b < ROUNDS / BLOCK; b++) {
      const order = b % 2 === 0 ? [raw, typed] : [typed, raw];
      for (const fn of order) {
        const times = fn === raw ? rawTimes : typedTimes;
        for (let i = 0; i < BLOCK; i++) {
          const t0 = performance.now();
          await fn();
          times.push(performance.now() - t0);
        }
      }
    }
    await pool.close();
    const r = median(rawTimes);
    const t = median(typedTimes);
    return [
      { name: 'overhead_ratio', value: t / r },
      { name: 'overhead_raw_median_ms', value: r },
      { name: 'overhead_typed_median_ms', value: t },
    ];
  } finally {
    client.close();
    await emu.stop();
  }
}

/** Every file record of the large seed's bulk group (50,000 at the root plus a folder tree), page size 100. */
async function walk(): Promise<Figure[]> {
  const emu = await emulator({ seed: 'large' });
  const { client } = await enrolled(emu);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const accountId = (await client.v3.accounts.list())[0]?.id ?? 1;
    const bulk = (await client.v2.groups.page(accountId, { page: 1, size: 100 })).items.find((g) => g.name === 'bulk');
    if (!bulk) throw new Error('the large seed has no bulk group');
    let records = 0;
    let requests = 0;
    const fetch = (page: number, size: number, signal?: AbortSignal) =>
      client.v2.files.page(accountId, bulk.id, { recursive: true, page, size }, signal ? { signal } : undefined);
    const t0 = performance.now();
    // One page per request, nothing kept: the walk holds one page at a time.
    for await (const p of pages(fetch, { size: 100 })) {
      requests++;
      records += p.items.length;
    }
    const seconds = (performance.now() - t0) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    return [
      { name: 'walk_50k_files_s', value: seconds },
      { name: 'walk_50k_requests', value: requests },
      { name: 'walk_50k_records', value: records },
      { name: 'peak_rss_mb', value: peak / (1024 * 1024) },
    ];
  } finally {
    clearInterval(sampler);
    client.close();
    await emu.stop();
  }
}

/** 5× the budget asked for at once, against a portal limit scaled down to 200 per 10 s. */
async function burst(): Promise<Figure[]> {
  const emu = await emulator({ rateLimit: { count: 200, windowSeconds: 10 } });
  const { client } = await enrolled(emu, { requestBudget: { count: 200, windowMs: 10_000 } });
  try {
    emu.resetStats();
    const t0 = performance.now();
    const results = await Promise.allSettled(Array.from({ length: 1000 }, () => client.v3.userinfo()));
    const seconds = (performance.now() - t0) / 1000;
    return [
      { name: 'burst_429s', value: emu.stats().rateLimited },
      { name: 'burst_failed', value: results.filter((r) => r.status === 'rejected').length },
      { name: 'burst_s', value: seconds },
    ];
  } finally {
    client.close();
    await emu.stop();
  }
}

/** Token requests caused by 50 concurrent calls after every token died on the server. */
async function expiredToken(): Promise<Figure[]> {
  const emu = await emulator({});
  const { client } = await enrolled(emu);
  try {
    await client.v3.userinfo();
    emu.expireAllTokens();
    emu.resetStats();
    await Promise.all(Array.from({ length: 50 }, () => client.v3.userinfo()));
    const afterKill = emu.stats().tokenRequests;
    return [{ name: 'expired_token_requests', value: afterKill }];
  } finally {
    client.close();
    await emu.stop();
  }
}

export const apiBenchmarks: Benchmark[] = [
  { name: 'overhead', figures: ['overhead_ratio'], run: overhead },
  { name: 'walk', figures: ['walk_50k_files_s', 'walk_50k_requests', 'peak_rss_mb'], run: walk },
  { name: 'burst', figures: ['burst_429s'], run: burst },
  { name: 'expired-token', figures: ['expired_token_requests'], run: expiredToken },
];
