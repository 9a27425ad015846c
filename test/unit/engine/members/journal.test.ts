// The journal makes an apply survive a crash and turn back: an apply killed halfway (SIGKILL of the process running
// it) is resumed with every member changed exactly once, and undo puts every member back where they were.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPlan } from '../../../../src/engine/members/apply';
import {
  lastUndoable,
  readJournal,
  resumeApply,
  undoPlan,
  unfinishedJournals,
} from '../../../../src/engine/members/index';
import { parseMembersFile } from '../../../../src/features/members/plan/core/file/membersFile';
import { allChanges } from '../../../../src/features/members/plan/core/model';
import { makePlan } from '../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../src/features/members/plan/core/portalState';
import { demoClient } from '../../features/helpers';
import { applyAndKill } from './killedApply';
import { apiRequests, exportText, Table, withPortal, withStorage } from '../../features/members/plan/core/helpers';

const PATCH = /^PATCH \/v3\/accounts\/:account\/members\/:/;

void describe('journal: resume and undo', () => {
  void test('an apply killed halfway, then resumed, leaves every member changed exactly once', async () => {
    await withPortal(
      async (p) =>
        withStorage(async (storage) => {
          const table = new Table(await exportText(p));
          const names = table.rows.slice(1).map((r) => r[0] ?? '');
          for (const name of names) table.set(name, 'Tags', `wave, ${name}`);
          const text = table.text();
          p.emu.resetStats();
          await applyAndKill(p, text, storage, Math.floor(names.length / 2));
          const [record, ...others] = await unfinishedJournals(storage);
          assert.ok(record, 'the killed apply left an unfinished journal');
          assert.equal(others.length, 0);
          assert.ok(record.outcomes.size < names.length, 'killed before the end');
          const result = await resumeApply(p.client, record, { journalFolder: storage, confirm: async () => true });
          assert.equal(apiRequests(p.emu, PATCH), names.length, 'one PATCH per member over both runs: none twice');
          assert.deepEqual(
            result.rows.filter((r) => r.result !== 'done'),
            [],
            'every member done: none lost',
          );
          for (const name of names)
            assert.deepEqual((await p.client.v3.members.get(p.acme, name)).tags, ['wave', name]);
          assert.deepEqual(await unfinishedJournals(storage), []);
        }),
      { latencyMs: 20 },
    );
  });

  void test('a client closed under an apply (a reload) leaves it resumable: resumed, every member is changed once', async () => {
    await withPortal(
      async (p) =>
        withStorage(async (storage) => {
          const table = new Table(await exportText(p));
          const names = table.rows.slice(1).map((r) => r[0] ?? '');
          for (const name of names) table.set(name, 'Tags', `closed, ${name}`);
          const file = parseMembersFile(table.text());
          const plan = makePlan(file, await readPortalState(p.client, p.acme, file));
          const closing = await demoClient(p.emu);
          p.emu.resetStats();
          let started = 0;
          const cut = await applyPlan(closing, plan, {
            journalFolder: storage,
            portalId: 'test',
            concurrency: 3,
            onProgress: () => {
              if (++started === 5) closing.close();
            },
          });
          assert.ok(
            cut.rows.some((r) => r.result !== 'done'),
            'the close cut the run short',
          );
          const [record] = await unfinishedJournals(storage);
          assert.equal(record?.applyId, cut.applyId, 'the cut-off run is offered for resume');
          if (!record) return;
          const result = await resumeApply(p.client, record, { journalFolder: storage, confirm: async () => true });
          assert.deepEqual(
            result.rows.filter((r) => r.result !== 'done'),
            [],
          );
          assert.equal(apiRequests(p.emu, PATCH), names.length);
          for (const name of names)
            assert.deepEqual((await p.client.v3.members.get(p.acme, name)).tags, ['closed', name]);
        }),
      { latencyMs: 20 },
    );
  });

  void test('undo puts fields, tags, groups, created and disabled members back; the undo is undone by nothing', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const original = await exportText(p);
        const table = new Table(original);
        table
          .set('alice.muller', 'Tags', 'changed')
          .set('alice.muller', 'Name', 'Alice Changed')
          .set('alice.muller', 'group:social', 'Administrator')
          .set('bruno.dubois', 'Enabled', 'false')
          .set('chloe.kowalski', 'group:engineering', '')
          .set('chloe.kowalski', 'group:marketing', 'Standard');
        table.add({ Username: 'temp.person', Name: 'Temp', 'E-mail': 'temp@acme.example', Tags: 'x' });
        const file = parseMembersFile(table.text());
        const plan = makePlan(file, await readPortalState(p.client, p.acme, file));
        const applied = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test' });
        assert.ok(applied.rows.every((r) => r.result === 'done'));
        const record = await lastUndoable(storage);
        assert.equal(record?.applyId, applied.applyId);
        const undo = undoPlan(await readJournal(applied.journalFile));
        assert.equal(undo.origin, 'undo');
        assert.deepEqual(undo.permanentDeletions, ['temp.person#uncreate']);
        p.emu.resetStats();
        const undone = await applyPlan(p.client, undo, {
          journalFolder: storage,
          portalId: 'test',
          snapshotFolder: storage,
          undoOf: applied.applyId,
        });
        assert.ok(
          undone.rows.every((r) => r.result === 'done'),
          JSON.stringify(undone.rows),
        );
        assert.ok(apiRequests(p.emu, /^(PATCH|POST|DELETE)/) <= allChanges(undo).length);
        // The portal is back where it started: its export (group cells and all) is the same but for lastModified.
        const strip = (t: string) => {
          const tb = new Table(t);
          const i = tb.column('lastModified');
          return tb.rows.map((r) => r.filter((_, j) => j !== i));
        };
        assert.deepEqual(strip(await exportText(p)), strip(original));
        assert.equal(await lastUndoable(storage), undefined, 'the apply is undone, and an undo is not offered again');
      }),
    );
  });
});
