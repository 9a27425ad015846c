// Bulk edits on a selection write the plan's journal, so they gain undo: a tag added and members disabled in bulk
// are turned back by the undo plan of the bulk run; a bulk edit cut off by a reload is resumed like an apply.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect } from '../../../../../../src/api';
import { bulkMemberOf, type BulkMember } from '../../../../../../src/features/members/bulk/bulkChange';
import { runBulk } from '../../../../../../src/features/members/bulk/bulkRun';
import { applyPlan } from '../../../../../../src/engine/members/apply';
import { lastUndoable, resumeApply, undoPlan, unfinishedJournals } from '../../../../../../src/engine/members/index';
import { demoClient } from '../../../helpers';
import { apiRequests, withPortal, withStorage, type Portal } from './helpers';

const PATCH = /^PATCH \/v3\/accounts\/:account\/members\/:/;

async function membersOf(p: Portal, usernames: readonly string[]): Promise<BulkMember[]> {
  const all = await collect(p.client.v3.members.iterate(p.acme));
  return usernames.map((u) => bulkMemberOf(all.find((m) => m.user.username === u) ?? assert.fail(u)));
}

void describe('bulk edits journaled', () => {
  void test('a bulk tag and a bulk disable are undone by the undo plan of their journal', async () => {
    await withPortal(async (p) => {
      const storage = await mkdtemp(join(tmpdir(), 'portal-bulk-'));
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
          const result = await resumeApply(p.client, record, { journalFolder: storage });
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
