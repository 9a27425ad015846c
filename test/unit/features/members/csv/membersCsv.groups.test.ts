// The members export with group permissions: one `group:<name>` column per group holding a permission word, the
// lastModified baseline and the group digest, at one v2 member read per member, and what that costs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateExportCost } from '../../../../../src/features/members/csv/membersCsv';
import { apiRequests, exportText, Table, withPortal } from '../plan/core/helpers';

void describe('members export with group permissions', () => {
  for (const profile of ['default', 'literal'] as const) {
    void test(`group words, baseline and digest; one v2 read per member (${profile} profile)`, async () => {
      await withPortal(
        async (p) => {
          p.emu.resetStats();
          const table = new Table(await exportText(p));
          const members = table.rows.length - 1;
          assert.equal(apiRequests(p.emu, /^GET \/v2\/accounts\/:account\/members\/:/), members);
          assert.deepEqual(table.header.slice(-6), [
            'lastModified',
            'group:engineering',
            'group:handbook',
            'group:marketing',
            'group:social',
            'groupDigest',
          ]);
          // `member` is Standard in engineering, Basic in marketing, group administrator in social (the demo seed).
          assert.deepEqual(
            ['engineering', 'marketing', 'social'].map((g) => table.get('member', `group:${g}`)),
            ['Standard', 'Basic', 'Administrator'],
          );
          const modified = Date.parse(table.get('member', 'lastModified'));
          assert.equal(modified, (await p.client.v3.members.get(p.acme, 'member')).user.lastModified);
        },
        { profile },
      );
    });
  }

  void test('the plain export is as it was: no baseline, no group columns', async () => {
    await withPortal(async (p) => {
      const { membersCsvLines } = await import('../../../../../src/features/members/csv/membersCsv');
      const lines = membersCsvLines(p.client, p.acme, {});
      const header = (await lines.next()).value as string;
      assert.equal(
        header,
        'Username,Name,E-mail,Enabled,Locked,Account permission,Tags,Two-factor,Member since,Last active,Job title\r\n',
      );
    });
  });

  void test('cost estimate: pages plus one read per member, bound by the request budget', () => {
    const budget = { limit: 2000, windowMs: 300_000 };
    assert.deepEqual(estimateExportCost(36, { groups: false, budget }), {
      requests: 1,
      seconds: 0,
      budgetBound: false,
    });
    const big = estimateExportCost(20_003, { groups: true, budget, latencyMs: 50, concurrency: 8 });
    assert.equal(big.requests, 201 + 20_003);
    assert.equal(big.budgetBound, true);
    assert.equal(big.seconds, 10 * 300, 'ten further budget windows of five minutes');
  });
});
