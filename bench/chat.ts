// Figures of chat's read tools (src/features/chat) on the access store.
//
//   tool_who_can_access_ms   median time of "who can reach a group" (its answer made and serialised as the tool
//                            returns it) over a warm store of 20,000 members in 500 groups
//   tool_result_tokens_p95   95th percentile, in approximate tokens (characters ÷ 4), of the answers for a group of
//                            2,000 members: every page of who-can-reach and of find-members in that group, and the
//                            largest member's access
//   tool_requests_warm       requests sent answering from a store read within the maximum age: the store's own
//                            refresh (which a tool runs only when something is stale) and the answers, against the
//                            emulator's demo seed
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PortalClient } from '../src/api';
import { envelope, findMembers, memberAccess, whoCanAccess, type Paged } from '../src/features/chat/answers';
import { AccessMatrix } from '../src/features/members/access/store/accessMatrix';
import { AccessStoreFile } from '../src/features/members/access/store/accessStoreFile';
import { readMatrix } from '../src/features/members/access/store/matrixRead';
import { startEmulator } from '../test/emulator';
import type { Benchmark, Figure } from './types';

const MEMBERS = 20_000;
const GROUPS = 500;
const BIG_GROUP = 'group-0';
const BIG_GROUP_SIZE = 2_000;
const DAY = 86_400_000;

/** 20,000 members: each in 10 groups, the first 2,000 also in the big group; names as long as real ones. */
function warmStore(): AccessMatrix {
  const m = new AccessMatrix();
  const now = Date.now();
  for (let i = 0; i < MEMBERS; i++) {
    const username = `member.${String(i).padStart(5, '0')}`;
    m.upsert({
      username,
      name: `Firstname${i % 97} Lastname-${i}`,
      email: `${username}@example.com`,
      tags: i % 3 === 0 ? ['contractor', 'emea'] : ['staff'],
      permission: i % 50 === 0 ? 4 : 1,
      lastActive: i % 7 === 0 ? null : now - (i % 400) * DAY,
      flags: i % 11 === 0 ? 1 : 0,
    });
    const groups: Record<string, number> = {};
    for (let g = 1; g <= 10; g++) groups[`group-${1 + ((i * 7 + g * 13) % (GROUPS - 1))}`] = [1, 4, 16][g % 3] ?? 1;
    if (i < BIG_GROUP_SIZE) groups[BIG_GROUP] = [1, 4, 16][i % 3] ?? 1;
    m.setGroups(username, groups, now);
  }
  m.listedAt = now;
  return m;
}

/** The answer as the tool returns it: the envelope with the portal, organisation and note. */
function asReturned(answer: object | undefined): string {
  return envelope(
    { label: 'portal.example.com', url: 'https://portal.example.com' },
    { id: 1, name: 'Bigcorp' },
    answer ?? {},
  );
}

function allPages(first: (offset: number) => Paged<object> | undefined): string[] {
  const out: string[] = [];
  for (let offset: number | undefined = 0; offset !== undefined;) {
    const page = first(offset);
    if (!page) break;
    out.push(asReturned(page));
    offset = page.nextOffset;
  }
  return out;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function onStore(): Promise<Figure[]> {
  const store = warmStore();
  const times: number[] = [];
  for (let run = 0; run < 21; run++) {
    const started = performance.now();
    asReturned(whoCanAccess(store, `group-${1 + run}`));
    times.push(performance.now() - started);
  }
  const answers = [
    ...allPages((offset) => whoCanAccess(store, BIG_GROUP, { offset })?.members),
    ...allPages((offset) => findMembers(store, { group: BIG_GROUP }, { offset, now: Date.now() })),
    ...allPages((offset) => findMembers(store, { group: BIG_GROUP, tag: 'contractor' }, { offset, now: Date.now() })),
    asReturned(memberAccess(store, 'member.00000')),
  ];
  const tokens = answers.map((a) => a.length / 4);
  return Promise.resolve([
    { name: 'tool_who_can_access_ms', value: percentile(times, 50) },
    { name: 'tool_result_tokens_p95', value: Math.round(percentile(tokens, 95)) },
    { name: 'tool_result_tokens_max', value: Math.round(Math.max(...tokens)) },
  ]);
}

async function warmRequests(): Promise<Figure[]> {
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true });
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-bench-'));
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const journal = new AccessStoreFile(path.join(dir, 'acme.jsonl'));
    const matrix = journal.load();
    const o = { signal: new AbortController().signal, maxAgeMs: DAY, concurrency: 8 };
    await readMatrix(client, 1, matrix, journal, o);
    emu.resetStats();
    await readMatrix(client, 1, matrix, journal, o);
    asReturned(whoCanAccess(matrix, 'engineering'));
    asReturned(findMembers(matrix, { state: 'disabled' }, { now: Date.now() }));
    asReturned(memberAccess(matrix, 'member'));
    return [{ name: 'tool_requests_warm', value: emu.stats().requests }];
  } finally {
    client.close();
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const chatBenchmarks: Benchmark[] = [
  {
    name: 'chat',
    figures: ['tool_who_can_access_ms', 'tool_result_tokens_p95', 'tool_result_tokens_max'],
    run: onStore,
  },
  { name: 'chat-warm', figures: ['tool_requests_warm'], run: warmRequests },
];
