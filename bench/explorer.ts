// Figures of the Explorer's loading logic (the features' loaders.ts + src/views/paging.ts: exactly what the tree
// providers run on each expand, without VS Code) against the emulator's `large` seed with 50 ms latency.
//
//   expand_overhead_ms   median over expands of every node kind of (time to children − the emulator's latency)
//   requests_per_expand  API requests (token requests excluded) per expand, from the emulator's stats
import { PortalClient } from '../src/api';
import { ListCache } from '../src/views/listCache';
import type { MemberQuery } from '../src/shared/members';
import { accountsFetcher, filesFetcher, groupsFetcher } from '../src/features/explorer/tree/loaders';
import { membersFetcher } from '../src/features/members/view/loaders';
import { PagedList, type PageFetcher } from '../src/views/paging';
import { startEmulator } from '../test/emulator';
import type { Benchmark, Figure } from './types';

const LATENCY_MS = 50;
const PAGE_SIZE = 50;
/** Expands per node kind; the first round of each kind warms the connection and is not counted. */
const ROUNDS = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

async function explorer(): Promise<Figure[]> {
  const emu = await startEmulator({
    port: 0,
    seed: 'large',
    latencyMs: LATENCY_MS,
    quiet: true,
    rateLimit: { count: 0, windowSeconds: 300 },
    tokenLifetimeSeconds: 24 * 3600,
  });
  const client = new PortalClient({
    baseUrl: emu.url,
    service: 'portal',
    requestBudget: { count: 100_000, windowMs: 300_000 },
  });
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const info = await client.v3.userinfo();
    const accountId = info.accounts[0]?.account.id ?? 1;
    const groups = await client.v2.groups.page(accountId, { page: 1, size: 1 });
    const bulk = groups.items[0]?.id ?? 101;
    const root = await client.v2.files.page(accountId, bulk, { page: 1, size: 100, foldersOnly: true });
    const folder = root.items.find((f) => f.isFolder)?.id ?? 0;

    // Every node kind the views expand, each as the providers build it.
    const kinds: Array<[string, () => PageFetcher<unknown>]> = [
      ['portal', () => accountsFetcher(client) as PageFetcher<unknown>],
      ['account', () => groupsFetcher(client, accountId) as PageFetcher<unknown>],
      ['group (50,000 file records)', () => filesFetcher(client, accountId, bulk, undefined) as PageFetcher<unknown>],
      ['folder', () => filesFetcher(client, accountId, bulk, folder) as PageFetcher<unknown>],
      ['members (20,000)', () => membersFetcher(client, accountId, {}) as PageFetcher<unknown>],
      [
        'members search',
        () => membersFetcher(client, accountId, { search: 'ada' } satisfies MemberQuery) as PageFetcher<unknown>,
      ],
      ['members tag filter', () => membersFetcher(client, accountId, { tags: ['lead'] }) as PageFetcher<unknown>],
    ];

    const overheads: number[] = [];
    let expands = 0;
    let requests = 0;
    const perKind: Figure[] = [];
    for (const [name, make] of kinds) {
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // A fresh cache each round, as after the cache time: the expand goes to the portal.
        const cache = new ListCache(() => 30_000);
        const before = apiRequests(emu.stats().byRoute);
        const started = performance.now();
        const list = cache.get(`bench/${name}`, () => new PagedList(make(), (r) => JSON.stringify(r), PAGE_SIZE));
        await list.ensureFirstPage();
        const elapsed = performance.now() - started;
        const used = apiRequests(emu.stats().byRoute) - before;
        if (list.count === 0) throw new Error(`${name}: the first page came back empty`);
        if (round === 0) continue;
        times.push(elapsed - LATENCY_MS);
        expands++;
        requests += used;
      }
      overheads.push(...times);
      perKind.push({ name: `expand_overhead_ms[${name}]`, value: median(times) });
    }

    // Collapse and expand again within the cache time: no request at all.
    const cache = new ListCache(() => 30_000);
    const make = () => new PagedList(groupsFetcher(client, accountId), (r) => r.groupId, PAGE_SIZE);
    await cache.get('bench/account', make).ensureFirstPage();
    const before = apiRequests(emu.stats().byRoute);
    await cache.get('bench/account', make).ensureFirstPage();
    const reExpand = apiRequests(emu.stats().byRoute) - before;

    return [
      { name: 'expand_overhead_ms', value: median(overheads) },
      { name: 'requests_per_expand', value: requests / expands },
      ...perKind,
      { name: 'requests_per_cached_reexpand', value: reExpand },
    ];
  } finally {
    client.close();
    await emu.stop();
  }
}

/** Requests other than the token endpoint: what an expand costs the portal's budget. */
function apiRequests(byRoute: Record<string, number>): number {
  let n = 0;
  for (const [route, count] of Object.entries(byRoute)) if (!route.includes('/oauth/token')) n += count;
  return n;
}

export const explorerBenchmarks: Benchmark[] = [
  {
    name: 'explorer',
    figures: ['expand_overhead_ms', 'requests_per_expand'],
    run: explorer,
  },
];
