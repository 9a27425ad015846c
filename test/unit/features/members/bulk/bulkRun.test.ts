// Bulk member edits against the real emulator (demo seed, organisation acme): one request per member, skips
// without a request, failures with the portal's message, retry of just the failures, cancel, and the budget.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collect, ownValue, type Member, type PortalClient } from '../../../../../src/api';
import {
  failedMembers,
  runBulk,
  unfinishedMembers,
  type BulkProgress,
} from '../../../../../src/features/members/bulk/bulkRun';
import { bulkMemberOf, type BulkChange, type BulkMember } from '../../../../../src/features/members/bulk/bulkChange';
import { apiRequests, demoClient, groupIdOf, withAcme, type AcmePortal as Portal } from '../../helpers';

const MEMBER_ROUTE = /^(PATCH|DELETE) \/v3\/accounts\/:account\/members\/:/;

const withPortal = withAcme;

async function membersOf(p: Portal, usernames: readonly string[]): Promise<BulkMember[]> {
  const all = await collect(p.client.v3.members.iterate(p.acme));
  return usernames.map((u) => {
    const m = all.find((x) => x.user.username === u);
    if (!m) throw new Error(`no member ${u}`);
    return bulkMemberOf(m);
  });
}

const get = (p: Portal, username: string): Promise<Member> => p.client.v3.members.get(p.acme, username);

void describe('bulk member edits', () => {
  void test('disable, lock, unlock and enable: one request per member, each member changed on the portal', async () => {
    await withPortal(async (p) => {
      const names = ['alice.muller', 'bruno.dubois', 'chloe.kowalski', 'dmitri.brown'];
      const steps: Array<[BulkChange, (m: Member) => boolean]> = [
        [{ kind: 'disable' }, (m) => !m.user.enabled],
        [{ kind: 'lock' }, (m) => m.user.locked],
        [{ kind: 'unlock' }, (m) => !m.user.locked],
        [{ kind: 'enable' }, (m) => m.user.enabled],
      ];
      for (const [change, holds] of steps) {
        const members = await membersOf(p, names);
        p.emu.resetStats();
        const summary = await runBulk(p.client, p.acme, change, members);
        assert.equal(apiRequests(p.emu, MEMBER_ROUTE), names.length, `${change.kind}: one request per member`);
        assert.deepEqual(
          summary.done.map((d) => d.member.username),
          names,
        );
        assert.deepEqual([summary.skipped.length, summary.failed.length, summary.notStarted.length], [0, 0, 0]);
        assert.equal(summary.cancelled, false);
        for (const d of summary.done) assert.ok(d.answer && holds(d.answer), `${change.kind}: the answer shows it`);
        for (const u of names) assert.ok(holds(await get(p, u)), `${change.kind} ${u} on the portal`);
      }
    });
  });

  void test('a member already in the target state is skipped without a request, with the reason', async () => {
    await withPortal(async (p) => {
      const members = await membersOf(p, ['victor.hale', 'lena.locked', 'alice.muller']);
      p.emu.resetStats();
      const disable = await runBulk(p.client, p.acme, { kind: 'disable' }, members);
      assert.deepEqual(
        disable.skipped.map((s) => [s.member.username, s.reason]),
        [['victor.hale', 'already-disabled']],
      );
      assert.deepEqual(
        disable.done.map((d) => d.member.username),
        ['lena.locked', 'alice.muller'],
      );
      assert.equal(apiRequests(p.emu, MEMBER_ROUTE), 2);

      p.emu.resetStats();
      const lock = await runBulk(p.client, p.acme, { kind: 'lock' }, members);
      assert.deepEqual(
        lock.skipped.map((s) => [s.member.username, s.reason]),
        [['lena.locked', 'already-locked']],
      );
      const unlock = await runBulk(p.client, p.acme, { kind: 'unlock' }, [members[2] as BulkMember]);
      assert.deepEqual(
        unlock.skipped.map((s) => s.reason),
        ['not-locked'],
      );
      const tags = await runBulk(p.client, p.acme, { kind: 'addTag', tag: ' ops ' }, [members[2] as BulkMember]);
      assert.deepEqual(
        tags.skipped.map((s) => s.reason),
        ['has-tag'],
        'the tag is trimmed before comparing',
      );
      const untag = await runBulk(p.client, p.acme, { kind: 'removeTag', tag: 'lead' }, [members[2] as BulkMember]);
      assert.deepEqual(
        untag.skipped.map((s) => s.reason),
        ['lacks-tag'],
      );
      assert.equal(apiRequests(p.emu, MEMBER_ROUTE), 2, 'only the two lock requests were sent');
    });
  });

  void test('add and remove a tag: computed from the known tags, other tags kept, one request each', async () => {
    await withPortal(async (p) => {
      const names = ['chloe.okafor', 'goran.kowalski', 'priya.jensen'];
      const before = await membersOf(p, names);
      p.emu.resetStats();
      const added = await runBulk(p.client, p.acme, { kind: 'addTag', tag: 'audit-2025' }, before);
      assert.equal(added.done.length, 3);
      assert.equal(apiRequests(p.emu, MEMBER_ROUTE), 3);
      for (const m of before) assert.deepEqual((await get(p, m.username)).tags, [...m.tags, 'audit-2025']);

      const removed = await runBulk(p.client, p.acme, { kind: 'removeTag', tag: 'lead' }, await membersOf(p, names));
      assert.deepEqual(
        removed.done.map((d) => d.member.username),
        ['chloe.okafor', 'priya.jensen'],
      );
      assert.deepEqual(
        removed.skipped.map((s) => s.member.username),
        ['goran.kowalski'],
      );
      assert.deepEqual((await get(p, 'chloe.okafor')).tags, ['backend', 'contractor', 'new-hire', 'audit-2025']);
    });
  });

  void test("set a group's permission (administrator, basic, none), skipping members known to be there already", async () => {
    await withPortal(async (p) => {
      const handbook = await groupIdOf(p.client, p.acme, 'handbook');
      const names = ['hana.brown', 'ivan.evans'];
      const levelIn = async (u: string) => ownValue((await p.client.v2.members.get(p.acme, u)).groups, 'handbook') ?? 0;
      for (const level of [16, 1, 0] as const) {
        const s = await runBulk(
          p.client,
          p.acme,
          { kind: 'setGroupPermission', groupId: handbook, permission: level },
          await membersOf(p, names),
        );
        assert.equal(s.done.length, 2);
        for (const u of names) assert.equal(await levelIn(u), level, `${u} at ${level}`);
      }
      const known: BulkMember[] = (await membersOf(p, names)).map((m) => ({
        ...m,
        groupPermissions: new Map([[handbook, m.username === 'hana.brown' ? 4 : 0]]),
      }));
      p.emu.resetStats();
      const s = await runBulk(
        p.client,
        p.acme,
        { kind: 'setGroupPermission', groupId: handbook, permission: 4 },
        known,
      );
      assert.deepEqual(
        s.skipped.map((x) => [x.member.username, x.reason]),
        [['hana.brown', 'same-permission']],
      );
      assert.equal(apiRequests(p.emu, MEMBER_ROUTE), 1);
    });
  });

  void test('delete removes each member; one already gone is skipped as already removed', async () => {
    await withPortal(async (p) => {
      const members = await membersOf(p, ['sven.okafor', 'rosa.hughes']);
      const first = await runBulk(p.client, p.acme, { kind: 'delete' }, members);
      assert.deepEqual(
        first.done.map((d) => [d.member.username, d.answer]),
        [
          ['sven.okafor', undefined],
          ['rosa.hughes', undefined],
        ],
      );
      const left = await collect(p.client.v3.members.iterate(p.acme));
      assert.ok(!left.some((m) => ['sven.okafor', 'rosa.hughes'].includes(m.user.username)));
      const again = await runBulk(p.client, p.acme, { kind: 'delete' }, members);
      assert.deepEqual(
        again.skipped.map((s) => s.reason),
        ['already-removed', 'already-removed'],
      );
      assert.equal(again.failed.length, 0);
    });
  });

  void test("failures carry the portal's message; retrying runs just the failures", async () => {
    await withPortal(async (p) => {
      const members = await membersOf(p, ['alice.muller', 'bruno.dubois', 'chloe.kowalski']);
      p.emu.setFaults([
        { kind: 'status', status: 500, method: 'PATCH', path: '/v3/accounts/1/members/bruno.dubois', count: 1 },
        { kind: 'ignore-writes', method: 'PATCH', path: '/v3/accounts/1/members/chloe.kowalski', count: 1 },
      ]);
      const first = await runBulk(p.client, p.acme, { kind: 'disable' }, members);
      assert.deepEqual(
        first.done.map((d) => d.member.username),
        ['alice.muller'],
      );
      assert.deepEqual(
        first.failed.map((f) => [f.member.username, f.kind]),
        [
          ['bruno.dubois', 'server'],
          ['chloe.kowalski', 'invalid-response'],
        ],
      );
      for (const f of first.failed) assert.ok(f.message.length > 10, f.message);
      assert.match(first.failed[1]?.message ?? '', /did not apply/);
      assert.equal((await get(p, 'bruno.dubois')).user.enabled, true, 'a failed member is untouched');

      p.emu.resetStats();
      const retry = await runBulk(p.client, p.acme, first.change, failedMembers(first));
      assert.deepEqual(
        retry.done.map((d) => d.member.username),
        ['bruno.dubois', 'chloe.kowalski'],
      );
      assert.equal(apiRequests(p.emu, MEMBER_ROUTE), 2, 'the member already done is not sent again');
      for (const m of members) assert.equal((await get(p, m.username)).user.enabled, false);
    });
  });

  void test('signed out half-way: the run stops starting members, and the rest can be run again later', async () => {
    await withPortal(async (p) => {
      const members = (await collect(p.client.v3.members.iterate(p.acme)))
        .filter((m) => m.user.username !== 'demo')
        .slice(0, 10)
        .map(bulkMemberOf);
      // Signed in through an application, which is deleted on the portal after the third member.
      const { clientId } = await p.client.enrollApplication({
        name: 'bulk test',
        platform: 'OTHER',
        deviceType: 'Other',
      });
      const summary = await runBulk(p.client, p.acme, { kind: 'addTag', tag: 'late' }, members, {
        concurrency: 1,
        onProgress: (e) => {
          if (e.done === 3) p.emu.revokeApplication(clientId);
        },
      });
      assert.equal(summary.done.length, 3);
      assert.deepEqual(
        summary.failed.map((f) => f.kind),
        ['signed-out'],
      );
      assert.equal(summary.stoppedBy, 'signed-out');
      assert.equal(summary.cancelled, false);
      assert.equal(summary.notStarted.length, 6);
      assert.deepEqual(
        unfinishedMembers(summary).map((m) => m.username),
        members.slice(3).map((m) => m.username),
      );

      const again = await demoClient(p.emu);
      try {
        const rest = await runBulk(again, p.acme, summary.change, unfinishedMembers(summary));
        assert.equal(rest.done.length, 7);
      } finally {
        again.close();
      }
    });
  });

  void test('a progress listener that throws loses nothing', async () => {
    await withPortal(async (p) => {
      const members = await membersOf(p, ['alice.muller', 'bruno.dubois', 'chloe.kowalski']);
      const summary = await runBulk(p.client, p.acme, { kind: 'lock' }, members, {
        onProgress: () => {
          throw new Error('listener defect');
        },
      });
      assert.equal(summary.done.length, 3);
    });
  });

  void test('an invalid change is refused before any request', async () => {
    await withPortal(async (p) => {
      const members = await membersOf(p, ['alice.muller']);
      p.emu.resetStats();
      await assert.rejects(runBulk(p.client, p.acme, { kind: 'addTag', tag: '   ' }, members), {
        kind: 'invalid-input',
      });
      await assert.rejects(runBulk(p.client, p.acme, { kind: 'addTag', tag: 'x'.repeat(51) }, members), {
        kind: 'invalid-input',
      });
      await assert.rejects(
        runBulk(p.client, p.acme, { kind: 'setGroupPermission', groupId: 101, permission: 2 as 1 }, members),
        { kind: 'invalid-input' },
      );
      assert.equal(apiRequests(p.emu), 0);
    });
  });

  void test('cancel: members in flight finish, no new member starts, every member is changed or untouched', async () => {
    await withPortal(async (p) => {
      const all = (await collect(p.client.v3.members.iterate(p.acme))).filter(
        (m) => m.user.enabled && m.user.username !== 'demo',
      );
      const members = all.slice(0, 12).map(bulkMemberOf);
      p.emu.setFaults([{ kind: 'latency', delayMs: 150, method: 'PATCH' }]);
      const controller = new AbortController();
      const progress: BulkProgress[] = [];
      const summary = await runBulk(p.client, p.acme, { kind: 'disable' }, members, {
        concurrency: 3,
        signal: controller.signal,
        onProgress: (e) => {
          progress.push(e);
          controller.abort();
        },
      });
      assert.equal(summary.cancelled, true);
      assert.equal(summary.done.length, 3, 'the three in flight when cancelled finished');
      assert.equal(summary.notStarted.length, members.length - 3);
      assert.deepEqual(
        progress.map((e) => e.done),
        [1, 2, 3],
      );
      assert.ok(progress.every((e) => e.total === members.length));
      const done = new Set(summary.done.map((d) => d.member.username));
      for (const m of members) assert.equal((await get(p, m.username)).user.enabled, !done.has(m.username), m.username);
    });
  });

  void test('concurrency is bounded', async () => {
    await withPortal(async (p) => {
      const members = (await collect(p.client.v3.members.iterate(p.acme))).slice(0, 10).map(bulkMemberOf);
      p.emu.setFaults([{ kind: 'latency', delayMs: 40, method: 'PATCH' }]);
      let inFlight = 0;
      let most = 0;
      const counting = {
        budget: p.client.budget,
        baseUrl: p.client.baseUrl,
        v2: p.client.v2,
        v3: {
          members: {
            ...p.client.v3.members,
            update: async (...args: Parameters<PortalClient['v3']['members']['update']>) => {
              most = Math.max(most, ++inFlight);
              try {
                return await p.client.v3.members.update(...args);
              } finally {
                inFlight--;
              }
            },
            delete: p.client.v3.members.delete,
          },
        },
      };
      const summary = await runBulk(counting, p.acme, { kind: 'addTag', tag: 'bounded' }, members, { concurrency: 2 });
      assert.equal(summary.done.length, 10);
      assert.equal(most, 2);
    });
  });

  void test(
    'a run larger than the request budget waits for it and the portal never answers 429',
    { timeout: 30_000 },
    async () => {
      // The portal and the client both allow 15 requests per second; 30 members need two windows.
      await withPortal(
        async (p) => {
          const members = (await collect(p.client.v3.members.iterate(p.acme)))
            .filter((m) => m.user.username !== 'demo')
            .slice(0, 30)
            .map(bulkMemberOf);
          p.emu.resetStats();
          const summary = await runBulk(p.client, p.acme, { kind: 'addTag', tag: 'budget' }, members, {
            budgetPollMs: 50,
          });
          assert.equal(summary.done.length, 30);
          assert.equal(p.emu.stats().rateLimited, 0);
          assert.equal(apiRequests(p.emu, MEMBER_ROUTE), 30);
        },
        { rateLimit: { count: 15, windowSeconds: 1 } },
        { requestBudget: { count: 15, windowMs: 1000 } },
      );
    },
  );

  void test(
    'cancel while waiting for the budget ends the run without waiting for the window',
    { timeout: 120_000 },
    async () => {
      // The client may send 10 requests in ten minutes: if the run waited for the window, the test would time out.
      await withPortal(
        async (p) => {
          const members = (await collect(p.client.v3.members.iterate(p.acme)))
            .filter((m) => m.user.username !== 'demo')
            .slice(0, 20)
            .map(bulkMemberOf);
          const room = p.client.budget.limit - p.client.budget.used();
          const controller = new AbortController();
          const summary = await runBulk(p.client, p.acme, { kind: 'addTag', tag: 'window' }, members, {
            signal: controller.signal,
            budgetPollMs: 20,
            // Cancelled once the budget's room is used up, so the rest are waiting for the window: a time after the
            // fourth would race the requests still finishing.
            onProgress: (e) => {
              if (e.done === room) controller.abort();
            },
          });
          assert.equal(summary.cancelled, true);
          assert.equal(summary.done.length, room, 'as many members as the budget had room for');
          assert.equal(summary.notStarted.length, 20 - room);
          // Checked through a second client: the first one's budget is spent for ten minutes.
          const checker = await demoClient(p.emu);
          try {
            const changed = new Set(summary.done.map((d) => d.member.username));
            for (const m of members)
              assert.equal(
                (await checker.v3.members.get(p.acme, m.username)).tags.includes('window'),
                changed.has(m.username),
                m.username,
              );
          } finally {
            checker.close();
          }
        },
        {},
        { requestBudget: { count: 10, windowMs: 600_000 } },
      );
    },
  );
});
