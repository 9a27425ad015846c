// Bulk edits on a selection write the plan's journal, so they gain undo: a tag added and members disabled in bulk
// are turned back by the undo plan of the bulk run; a bulk edit cut off by a reload is resumed like an apply.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { collect } from '../../../../../src/api';
import { bulkMemberOf, type BulkMember } from '../../../../../src/features/members/bulk/bulkChange';
import { runBulk } from '../../../../../src/features/members/bulk/bulkRun';
import { applyPlan } from '../../../../../src/engine/members/apply';
import { lastUndoable, resumeApply, undoPlan, unfinishedJournals } from '../../../../../src/engine/members/index';
import { demoClient } from '../../helpers';
import { apiRequests, withPortal, withStorage, type Portal } from '../plan/core/helpers';
import { tempDir } from '../../../../support/tempDir';

const PATCH = /^PATCH \/v3\/accounts\/:account\/members\/:/;

async function membersOf(p: Portal, usernames: readonly string[]): Promise<BulkMember[]> {
  const all = await collect(p.client.v3.members.iterate(p.acme));
  return usernames.map((u) => bulkMemberOf(all.find((m) => m.user.username === u) ?? assert.fail(u)));
}

/** What Undo must bring back of a member: profile, flags, tags and every group's level, as the portal holds them. */
async function whole(p: Portal, username: string): Promise<unknown> {
  const m = await p.client.v3.members.get(p.acme, username);
  const v2 = await p.client.v2.members.get(p.acme, username);
  const groups = Object.entries(v2.groups ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return [m.user.name, m.user.email, m.user.enabled, m.permission, [...m.tags].sort(), groups];
}

void describe('bulk edits journaled', () => {
  void test('a bulk delete that deletes two users for good is undone: both re-created from their snapshots, with their groups and tags', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const all = await collect(p.client.v3.members.iterate(p.acme));
        const alone = all.filter((m) => !m.memberOfMultipleAccounts && m.tags.length > 0 && m.user.username !== 'demo');
        const names = alone.slice(0, 2).map((m) => m.user.username);
        assert.equal(names.length, 2);
        const before = await Promise.all(names.map((n) => whole(p, n)));
        const journal = { storageFolder: storage, portalId: 'test' };
        const removed = await runBulk(p.client, p.acme, { kind: 'delete' }, await membersOf(p, names), { journal });
        assert.equal(removed.done.length, 2);
        const record = await lastUndoable(storage);
        assert.equal(record?.applyId, removed.applyId);
        if (!record) return;
        assert.equal(
          [...record.intents.values()].filter((i) => i.snapshot).length,
          2,
          'a snapshot of each deleted for good',
        );
        const plan = undoPlan(record);
        assert.equal(plan.undoOf, record.applyId, 'the undo names the change it reverses');
        const undone = await applyPlan(p.client, plan, {
          journalFolder: storage,
          portalId: 'test',
          undoOf: record.applyId,
        });
        assert.deepEqual(
          undone.rows.map((r) => [r.username, r.result, r.message]),
          names.map((n) => [n, 'done', '']),
        );
        assert.deepEqual(await Promise.all(names.map((n) => whole(p, n))), before);
        assert.equal(await lastUndoable(storage), undefined, 'a change undone is not offered again');
      }),
    );
  });

  void test('a removal that would now delete the user for good, and was not confirmed so, is left alone and reported', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const all = await collect(p.client.v3.members.iterate(p.acme));
        const target =
          all.find((m) => !m.memberOfMultipleAccounts && m.user.username !== 'demo') ?? assert.fail('alone');
        // As the view's cache had it: in another organisation too.
        const stale: BulkMember = { ...bulkMemberOf(target), deletesUser: false };
        const journal = { storageFolder: storage, portalId: 'test' };
        const summary = await runBulk(p.client, p.acme, { kind: 'delete' }, [stale], { journal });
        assert.deepEqual(
          summary.skipped.map((s) => [s.member.username, s.reason]),
          [[target.user.username, 'now-deleted-for-good']],
        );
        assert.ok(await p.client.v3.members.get(p.acme, target.user.username), 'still on the portal');
      }),
    );
  });

  void test('a bulk tag and a bulk disable are undone by the undo plan of their journal', async () => {
    await withPortal(async (p) => {
      const storage = tempDir('portal-bulk-');
      try {
        const names = ['alice.muller', 'bruno.dubois', 'chloe.kowalski'];
        const before = await Promise.all(names.map((n) => p.client.v3.members.get(p.acme, n)));
        const journal = { storageFolder: storage, portalId: 'test' };
        const tagged = await runBulk(p.client, p.acme, { kind: 'addTag', tag: 'bulk' }, await membersOf(p, names), {
          journal,
        });
        assert.ok(tagged.applyId);
        const disabled = await runBulk(p.client, p.acme, { kind: 'disable' }, await membersOf(p, names), { journal });
        for (const expected of [disabled.applyId, tagged.applyId]) {
          const record = await lastUndoable(storage);
          assert.equal(record?.applyId, expected, 'the newest run first, like an undo stack');
          if (!record) return;
          const undone = await applyPlan(p.client, undoPlan(record), {
            journalFolder: storage,
            portalId: 'test',
            undoOf: record.applyId,
          });
          assert.ok(undone.rows.every((r) => r.result === 'done'));
        }
        const after = await Promise.all(names.map((n) => p.client.v3.members.get(p.acme, n)));
        assert.deepEqual(
          after.map((m) => [m.user.enabled, m.tags]),
          before.map((m) => [m.user.enabled, m.tags]),
        );
      } finally {
        await rm(storage, { recursive: true, force: true });
      }
    });
  });

  void test('a client closed under a bulk edit (a reload) leaves it resumable: resumed, every member is changed once', async () => {
    await withPortal(
      async (p) =>
        withStorage(async (storage) => {
          const all = await collect(p.client.v3.members.iterate(p.acme));
          const names = all.map((m) => m.user.username);
          const closing = await demoClient(p.emu);
          p.emu.resetStats();
          let finished = 0;
          const cut = await runBulk(closing, p.acme, { kind: 'addTag', tag: 'cut' }, await membersOf(p, names), {
            journal: { storageFolder: storage, portalId: 'test' },
            concurrency: 2,
            onProgress: () => {
              if (++finished === 3) closing.close();
            },
          });
          assert.ok(cut.done.length < names.length, 'the close cut the run short');
          const [record] = await unfinishedJournals(storage);
          assert.equal(record?.applyId, cut.applyId, 'the cut-off bulk run is offered for resume');
          if (!record) return;
          const result = await resumeApply(p.client, record, { journalFolder: storage, confirm: async () => true });
          assert.deepEqual(
            result.rows.filter((r) => r.result !== 'done'),
            [],
          );
          assert.equal(apiRequests(p.emu, PATCH), names.length, 'each member changed once');
          for (const name of names) assert.ok((await p.client.v3.members.get(p.acme, name)).tags.includes('cut'), name);
        }),
      { latencyMs: 20 },
    );
  });
});
