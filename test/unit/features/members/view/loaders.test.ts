// The Members view's activity filter against the emulator: it finds exactly the members the full list says meet it,
// whatever was loaded, and a last-activity filter stops walking at the first member active since the cutoff.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PortalClient } from '../../../../../src/api';
import { membersFetcher } from '../../../../../src/features/members/view/loaders';
import { meetsActivity, memberRow, type ActivityFilter, type MemberRow } from '../../../../../src/shared/members';
import { accountIdOf, apiRequests, demoClient, emulator, type Emulator } from '../../helpers';

const DAY = 86_400_000;

async function walk(client: PortalClient, account: number, activity: ActivityFilter, size: number): Promise<string[]> {
  const fetch = membersFetcher(client, account, { activity });
  const out: string[] = [];
  for (let page = 1; page < 1000; page++) {
    const p = await fetch({ page, size });
    out.push(...p.items.map((r) => r.username));
    if (!p.hasMore) break;
  }
  return out.sort();
}

async function everyone(client: PortalClient, account: number): Promise<MemberRow[]> {
  const rows: MemberRow[] = [];
  for await (const m of client.v3.members.iterate(account, { size: 100 })) rows.push(memberRow(m));
  return rows;
}

for (const seed of ['demo', 'large'] as const)
  void describe(`members activity filter (${seed} seed)`, () => {
    let emu: Emulator;
    let client: PortalClient;
    let account: number;
    let all: MemberRow[];

    before(async () => {
      emu = await emulator({ seed, large: { members: 700, files: 1, groups: 9, folderDepth: 1 } });
      client = await demoClient(emu);
      account = await accountIdOf(client, seed === 'demo' ? 'acme' : 'bigcorp');
      all = await everyone(client, account);
    });
    after(async () => {
      client.close();
      await emu.stop();
    });

    const truth = (f: ActivityFilter) =>
      all
        .filter((r) => meetsActivity(r, f, Date.now()))
        .map((r) => r.username)
        .sort();

    for (const f of [
      { inactiveDays: 90 },
      { never: true },
      { disabled: true },
      { locked: true },
      { twoFactorOff: true, inactiveDays: 30 },
      { pending: true },
    ] satisfies ActivityFilter[])
      void it(`finds exactly the members ${JSON.stringify(f)}`, async () => {
        const expected = truth(f);
        assert.deepEqual(await walk(client, account, f, 7), expected);
      });

    void it('the seed has members on both sides of 90 days, and some disabled or locked', () => {
      const inactive = truth({ inactiveDays: 90 }).length;
      assert.ok(inactive > 0 && inactive < all.length, `${inactive} of ${all.length} inactive for 90 days`);
      assert.ok(truth({ disabled: true }).length > 0);
      assert.ok(truth({ locked: true }).length > 0);
    });

    void it('a last-activity filter stops at the cutoff: fewer pages than the whole list', async () => {
      emu.resetStats();
      const found = await walk(client, account, { inactiveDays: 300 }, 100);
      const pages = apiRequests(emu);
      const whole = Math.ceil(all.length / 100);
      assert.ok(found.length < all.length);
      if (whole > 2) assert.ok(pages < whole, `${pages} pages of ${whole}`);
      // Never active sorts as oldest, so a never-active member is among the first found.
      const cutoff = Date.now() - 300 * DAY;
      assert.ok(found.every((u) => (all.find((r) => r.username === u)?.lastActive ?? 0) < cutoff));
    });
  });
