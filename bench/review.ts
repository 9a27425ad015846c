// Figures of the access review (src/features/review).
//
//   review_open_20k_s            seconds to open a review from a filled access store of 20,000 members in 500 groups:
//                                its rows made (access in words, the facts filters look at) and the review written
//                                to disk; the members need no request (review_open_requests: requests sent)
//   review_bulk_decide_5k_ms     one bulk decision over the 5,000 rows a filter shows, kept on disk (one line)
//   review_finish_plan_1k_s      Finish Review's plan of 1,000 removals against the `large` seed at 50 ms latency:
//                                the group list and one v3 read per member, within the client's budget
//                                (review_finish_plan_1k_requests); those 1,000 are the list's pages 2 to 11, so the
//                                read stops early; review_finish_plan_1k_spread_s takes them from 10 pages spread
//                                over the whole list (pages 2, 22, … 182), which a read has to walk almost to its end
//   review_evidence_tamper_missed  of 300 one-byte edits of the evidence (CSV, summary, manifest), those the digest
//                                check did not report
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PortalClient } from '../src/api';
import { AccessMatrix } from '../src/features/members/access/store/accessMatrix';
import type { AccessView } from '../src/features/contracts';
import { Review, REVIEW_VERSION, type ReviewHead } from '../src/features/review/core/model';
import { evidenceNames, ReviewFiles } from '../src/features/review/core/reviewFiles';
import { planReview } from '../src/features/review/core/reviewPlan';
import { memberRows } from '../src/features/review/core/rows';
import { startEmulator } from '../test/emulator';
import type { Benchmark, Figure } from './types';

const MEMBERS = 20_000;
const GROUPS = 500;
const DAY = 86_400_000;

function filledStore(now: number): AccessMatrix {
  const m = new AccessMatrix();
  for (let i = 0; i < MEMBERS; i++) {
    const username = `member.${String(i).padStart(5, '0')}`;
    m.upsert({
      username,
      name: `Firstname${i % 97} Lastname-${i}`,
      email: `${username}@example.com`,
      tags: [],
      permission: 1,
      // A quarter inactive for more than a year: what the bulk decision's filter shows.
      lastActive: i % 4 === 0 ? now - 400 * DAY : now - (i % 300) * DAY,
      flags: 0,
    });
    const groups: Record<string, number> = {};
    for (let g = 1; g <= 10; g++) groups[`group-${(i * 7 + g * 13) % GROUPS}`] = [1, 4, 16][g % 3] ?? 1;
    m.setGroups(username, groups, now);
  }
  m.listedAt = now;
  return m;
}

function head(accountId: number, now: number): ReviewHead {
  return {
    version: REVIEW_VERSION,
    id: `${accountId}-${now}-bench`,
    portalId: 'https://portal.example.com|portal',
    portalLabel: 'portal.example.com',
    accountId,
    accountLabel: 'Bigcorp',
    reviewer: 'demo',
    startedAt: now,
    refused: {},
    groups: [],
  };
}

async function onStore(storage: string): Promise<Figure[]> {
  const now = Date.now();
  const store = filledStore(now);
  const files = new ReviewFiles(storage);
  let t0 = performance.now();
  const rows = memberRows(store as unknown as AccessView, undefined, (n) => n);
  const review = new Review(head(1, now), rows);
  await files.save(review);
  const openS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const batch = review.decideShown({ inactiveDays: 365 }, { kind: 'remove', reason: 'inactive' }, 'demo', now);
  await files.append(review, batch);
  const bulkMs = performance.now() - t0;
  if (batch.keys.length !== MEMBERS / 4) throw new Error(`the filter showed ${batch.keys.length} rows`);
  return [
    { name: 'review_open_20k_s', value: openS },
    { name: 'review_open_requests', value: 0 },
    { name: 'review_bulk_decide_5k_ms', value: bulkMs },
  ];
}

async function tamperMissed(storage: string): Promise<Figure[]> {
  const now = Date.now();
  const files = new ReviewFiles(storage);
  const review = new Review(
    { ...head(2, now), finishedAt: now },
    memberRows(filledStore(now) as unknown as AccessView, 'group-7', (n) => n),
  );
  review.decideShown({ inactiveDays: 365 }, { kind: 'remove', reason: 'inactive' }, 'demo', now);
  const { digest, files: written } = await files.writeEvidence(review);
  const h = { ...review.head, evidenceDigest: digest };
  const names = Object.values(evidenceNames(h.id));
  let missed = 0;
  for (let i = 0; i < 300; i++) {
    const file = path.join(written.folder, names[i % names.length] ?? '');
    const original = fs.readFileSync(file);
    const edited = Buffer.from(original);
    const at = (i * 7919) % edited.length;
    edited[at] = (edited[at] ?? 0) ^ 0x01;
    fs.writeFileSync(file, edited);
    if ((await files.verify(h)).length === 0) missed++;
    fs.writeFileSync(file, original);
  }
  return [{ name: 'review_evidence_tamper_missed', value: missed }];
}

async function finishPlan(): Promise<Figure[]> {
  const emu = await startEmulator({ port: 0, seed: 'large', latencyMs: 50, quiet: true, tokenLifetimeSeconds: 86_400 });
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal' });
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const accountId = (await client.v3.accounts.list())[0]?.id ?? 1;
    const near = await timedPlan(emu, client, accountId, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const spread = await timedPlan(emu, client, accountId, [2, 22, 42, 62, 82, 102, 122, 142, 162, 182]);
    return [
      { name: 'review_finish_plan_1k_s', value: near.s },
      { name: 'review_finish_plan_1k_requests', value: near.requests },
      { name: 'review_finish_plan_1k_spread_s', value: spread.s },
      { name: 'review_finish_plan_1k_spread_requests', value: spread.requests },
    ];
  } finally {
    client.close();
    await emu.stop();
  }
}

/** Finish Review's plan of removing the members on these pages of the list (100 each). */
async function timedPlan(
  emu: { resetStats(): void },
  client: PortalClient,
  accountId: number,
  pages: readonly number[],
): Promise<{ s: number; requests: number }> {
  const read = await Promise.all(pages.map((page) => client.v3.members.page(accountId, { page, size: 100 })));
  const usernames = read.flatMap((p) => p.items.map((m) => m.user.username)).slice(0, 1000);
  const now = Date.now();
  const rows = usernames.map((u) => ({
    key: `m:${u}`,
    kind: 'member' as const,
    identity: u,
    name: u,
    access: '',
    detail: '',
    readAt: now,
  }));
  const review = new Review(head(accountId, now), rows);
  review.decide(
    rows.map((r) => r.key),
    { kind: 'remove', reason: 'bench' },
    'demo',
    now,
  );
  emu.resetStats();
  const t0 = performance.now();
  const result = await planReview(client, accountId, review.memberChanges(), undefined, {
    title: 'bench',
    concurrency: 8,
  });
  const s = (performance.now() - t0) / 1000;
  if (result.plan.absent.length !== 1000) throw new Error(`planned ${result.plan.absent.length} removals`);
  return { s, requests: result.requests };
}

export const reviewBenchmarks: Benchmark[] = [
  {
    name: 'review',
    figures: [
      'review_open_20k_s',
      'review_open_requests',
      'review_bulk_decide_5k_ms',
      'review_finish_plan_1k_s',
      'review_finish_plan_1k_requests',
      'review_finish_plan_1k_spread_s',
      'review_finish_plan_1k_spread_requests',
      'review_evidence_tamper_missed',
    ],
    run: async () => {
      const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-review-'));
      try {
        return [...(await onStore(storage)), ...(await finishPlan()), ...(await tamperMissed(storage))];
      } finally {
        fs.rmSync(storage, { recursive: true, force: true });
      }
    },
  },
];
