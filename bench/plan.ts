// Figures of "membership as code" (plan and apply from a members file) against the emulator's `large` seed
// (20,003 members of `bigcorp`, 500 groups) with 50 ms latency, the portal's real rate limit (2000 requests per
// 5 minutes) and the client's default request budget and concurrency.
//
//   plan_20k_s                 seconds to read the file, read the portal and plan: 20,003 rows, 200 changed (tags),
//                              no group columns
//   plan_20k_requests          API requests of that plan (one walk of the member list)
//   plan_20k_heap_mb           heap growth (after GC) holding the parsed file, the portal state and the plan
//   plan_groups_200_requests   the same file with 20 group columns (and the group digest), 200 members' groups
//                              changed; the group list is the one the diagnostics read when the file opened
//   plan_groups_200_requests_with_group_list   the same, counting that group list read too
//   apply_200_requests / apply_200_429s / apply_200_s   applying the 200 tag changes
//   apply_resume_done_twice / apply_resume_lost  another 200 changes applied by a child process killed (SIGKILL)
//                              halfway, then resumed from its journal: members sent twice, members left unchanged
//   undo_200_requests          undoing the first apply through its undo plan
//
// The file is written from the seed the emulator starts from (the same deterministic `large` seed), as the export
// would write it, so the benchmark does not spend 20,003 member reads exporting it first.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PortalClient } from '../src/api';
import { csvLine, UTF8_BOM } from '../src/features/members/csv/csv';
import { applyPlan } from '../src/engine/members/apply';
import { groupDigest } from '../src/node/groupDigest';
import { readJournal, resumeApply, undoPlan, unfinishedJournals } from '../src/engine/members/index';
import { groupWord, parseMembersFile } from '../src/features/members/plan/core/file/membersFile';
import { accountPermissionWordOf } from '../src/shared/permissions';
import type { GroupLevel } from '../src/features/members/plan/core/model';
import { makePlan } from '../src/features/members/plan/core/planner';
import { readGroups, readPortalState } from '../src/features/members/plan/core/portalState';
import { startEmulator, type Emulator } from '../test/emulator';
import { largeSeed } from '../test/emulator/seeds/large';
import type { Benchmark, Figure } from './types';

const LATENCY_MS = 50;
const GROUP_COLUMNS = 20;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function apiRequests(emu: Emulator, route?: RegExp): number {
  let n = 0;
  for (const [key, count] of Object.entries(emu.stats().byRoute))
    if (!key.includes('/oauth/token') && (!route || route.test(key))) n += count;
  return n;
}

interface Rows {
  header: string[];
  rows: string[][];
}

/** The export of bigcorp as the extension writes it (plus `groups` group columns), from the seed itself. */
export function largeExport(groups: number): Rows {
  const store = largeSeed();
  const account = [...store.accounts.values()][0];
  if (!account) throw new Error('no account in the large seed');
  const columns = store.groupsOf(account.id).slice(0, groups);
  const header = [
    'username',
    'name',
    'email',
    'enabled',
    'locked',
    'accountPermission',
    'tags',
    'jobTitle',
    'lastModified',
  ];
  if (groups > 0) header.push(...columns.map((g) => `group:${g.name}`), 'groupDigest');
  const rows: string[][] = [];
  for (const m of store.membersOf(account.id)) {
    const u = store.users.get(m.userId);
    if (!u) continue;
    const row = [
      u.username,
      u.name,
      u.email,
      String(u.enabled),
      String(u.locked),
      accountPermissionWordOf(m.permission) ?? '',
      m.tags.join(', '),
      u.jobTitle ?? '',
      new Date(u.lastModified).toISOString(),
    ];
    if (groups > 0) {
      const levels = new Map(columns.map((g) => [g.name, (g.members.get(u.id) ?? 0) as GroupLevel]));
      row.push(...columns.map((g) => groupWord(levels.get(g.name) ?? 0)), groupDigest(levels));
    }
    rows.push(row);
  }
  return { header, rows };
}

export const text = (t: Rows) => UTF8_BOM + csvLine(t.header) + t.rows.map((r) => csvLine(r)).join('');
const seconds = (since: number) => (performance.now() - since) / 1000;

/** Appends `tag` to the tags of rows [from, from + count). */
function tagRows(t: Rows, from: number, count: number, tag: string): Rows {
  const i = t.header.indexOf('tags');
  return {
    header: t.header,
    rows: t.rows.map((r, n) =>
      n >= from && n < from + count ? r.map((c, j) => (j === i ? (c ? `${c}, ${tag}` : tag) : c)) : r,
    ),
  };
}

async function plan(): Promise<Figure[]> {
  const emu = await startEmulator({
    port: 0,
    seed: 'large',
    latencyMs: LATENCY_MS,
    quiet: true,
    tokenLifetimeSeconds: 24 * 3600,
  });
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal' });
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-plan-'));
  const figures: Figure[] = [];
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const accountId = (await client.v3.accounts.list())[0]?.id ?? 1;
    const base = largeExport(0);
    // The first data rows are the seed's three logins; the generated members follow.
    const first = tagRows(base, 3, 200, 'plan-bench');
    const firstText = text(first);

    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    emu.resetStats();
    let started = performance.now();
    const file = parseMembersFile(firstText);
    const parsed = performance.now();
    const state = await readPortalState(client, accountId, file);
    const read = performance.now();
    const planned = makePlan(file, state);
    figures.push({ name: 'plan_20k_s', value: seconds(started) });
    figures.push({ name: 'plan_20k_parse_s', value: (parsed - started) / 1000 });
    figures.push({ name: 'plan_20k_read_s', value: (read - parsed) / 1000 });
    figures.push({ name: 'plan_20k_diff_s', value: seconds(read) });
    figures.push({ name: 'plan_20k_requests', value: apiRequests(emu) });
    gc();
    figures.push({ name: 'plan_20k_heap_mb', value: (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024 });
    if (planned.fieldChanges.length !== 200) throw new Error(`plan: ${planned.fieldChanges.length} changes, not 200`);

    // Group columns: 200 members' level in the first group column changed.
    const withGroups = largeExport(GROUP_COLUMNS);
    const column = withGroups.header.indexOf(withGroups.header.find((h) => h.startsWith('group:')) ?? '');
    let changed = 0;
    for (const r of withGroups.rows.slice(3)) {
      if (changed === 200) break;
      r[column] = r[column] === 'Administrator' ? 'Basic' : 'Administrator';
      changed++;
    }
    const groups = await readGroups(client, accountId);
    emu.resetStats();
    const groupFile = parseMembersFile(text(withGroups));
    const groupPlan = makePlan(groupFile, await readPortalState(client, accountId, groupFile, { groups }));
    figures.push({ name: 'plan_groups_200_requests', value: apiRequests(emu) });
    figures.push({ name: 'plan_groups_200_requests_with_group_list', value: apiRequests(emu) + 1 });
    if (groupPlan.groupChanges.length !== 200) throw new Error(`group plan: ${groupPlan.groupChanges.length} changes`);

    emu.resetStats();
    started = performance.now();
    const applied = await applyPlan(client, planned, { journalFolder: storage, portalId: 'bench' });
    figures.push({ name: 'apply_200_requests', value: apiRequests(emu) });
    figures.push({ name: 'apply_200_429s', value: emu.stats().rateLimited });
    figures.push({ name: 'apply_200_s', value: seconds(started) });
    if (applied.rows.some((r) => r.result !== 'done')) throw new Error('apply: not every member done');

    figures.push(...(await killAndResume(emu, client, accountId, base, storage)));

    emu.resetStats();
    const undo = undoPlan(await readJournal(applied.journalFile));
    const undone = await applyPlan(client, undo, {
      journalFolder: storage,
      portalId: 'bench',
      undoOf: applied.applyId,
    });
    figures.push({ name: 'undo_200_requests', value: apiRequests(emu) });
    if (undone.rows.some((r) => r.result !== 'done')) throw new Error('undo: not every member done');
    return figures;
  } finally {
    client.close();
    await emu.stop();
    fs.rmSync(storage, { recursive: true, force: true });
  }
}

async function killAndResume(
  emu: Emulator,
  client: PortalClient,
  accountId: number,
  base: Rows,
  storage: string,
): Promise<Figure[]> {
  const folder = path.join(storage, 'resume');
  fs.mkdirSync(folder, { recursive: true });
  const fileName = path.join(folder, 'members.csv');
  const edited = tagRows(base, 203, 200, 'resume-bench');
  fs.writeFileSync(fileName, text(edited));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, '..', 'test', 'unit', 'engine', 'members', 'applyChild.ts'),
      emu.url,
      String(accountId),
      fileName,
      folder,
      '8',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const intents = () => {
    let n = 0;
    const dir = path.join(folder, 'journal');
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      n += fs.readFileSync(path.join(dir, name), 'utf8').split('"type":"intent"').length - 1;
    return n;
  };
  emu.resetStats();
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && intents() < 100) await new Promise((r) => setTimeout(r, 5));
  child.kill('SIGKILL');
  await exited;
  const [record] = await unfinishedJournals(folder);
  if (!record) throw new Error('resume: the killed apply left no unfinished journal');
  const result = await resumeApply(client, record, { journalFolder: folder, confirm: async () => true });
  const patches = apiRequests(emu, /^PATCH /);
  const targets = edited.rows.slice(203, 403);
  let lost = 0;
  for (const r of targets) {
    const m = await client.v3.members.get(accountId, r[0] ?? '');
    if (!m.tags.includes('resume-bench')) lost++;
  }
  return [
    { name: 'apply_resume_killed_after', value: record.intents.size },
    { name: 'apply_resume_done_twice', value: Math.max(0, patches - targets.length) },
    { name: 'apply_resume_lost', value: lost + result.rows.filter((r) => r.result !== 'done').length },
  ];
}

export const planBenchmarks: Benchmark[] = [
  {
    name: 'plan',
    figures: [
      'plan_20k_s',
      'plan_20k_requests',
      'plan_20k_heap_mb',
      'plan_groups_200_requests',
      'apply_200_requests',
      'apply_200_429s',
      'apply_resume_done_twice',
      'apply_resume_lost',
      'undo_200_requests',
    ],
    run: plan,
  },
];
