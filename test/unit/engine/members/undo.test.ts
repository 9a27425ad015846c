// A removal whose user lives on in another organisation cannot be undone (the API has no way to add an existing user
// to an organisation again), so Undo does not offer it; the rest of the change stays undoable, and a change made
// only of such removals is not offered for Undo at all. Against the real emulator.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runEdits } from '../../../../src/engine/members/edits';
import { changeHistory, undoPlan } from '../../../../src/engine/members/index';
import { allChanges } from '../../../../src/engine/members/model';
import { emptyBefore } from '../../../../src/engine/members/requests';
import { withPortal, withStorage } from '../../features/members/plan/core/helpers';

void describe('undo of removals', () => {
  void test('a removal whose user belongs to another organisation is not offered for Undo; the rest is', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        for (const username of ['alice.muller', 'bruno.dubois'])
          assert.ok((await p.client.v3.members.get(p.acme, username)).memberOfMultipleAccounts, username);
        const head = { accountId: p.acme, portalId: 'test', origin: 'bulk' as const };
        const remove = (username: string) => ({
          username,
          action: 'remove' as const,
          before: emptyBefore(username),
          after: null,
          permanent: false,
        });
        const tag = {
          username: 'chloe.okafor',
          action: 'update' as const,
          before: { ...emptyBefore('chloe.okafor'), tags: [] },
          after: { fields: { tags: ['undo-me'] }, groups: {} },
        };
        const mixed = await runEdits(p.client, { ...head, title: 'mixed' }, [remove('alice.muller'), tag], {
          journalFolder: storage,
        });
        assert.deepEqual(
          mixed.rows.map((r) => r.result),
          ['done', 'done'],
        );
        const only = await runEdits(p.client, { ...head, title: 'only' }, [remove('bruno.dubois')], {
          journalFolder: storage,
        });
        assert.equal(only.rows[0]?.result, 'done');
        const history = await changeHistory(storage);
        const of = (title: string) => history.find((c) => c.record.begin.title === title);
        const mixedPast = of('mixed');
        assert.ok(mixedPast?.undoable, 'the tag change is still undoable');
        assert.deepEqual(
          allChanges(undoPlan(mixedPast.record)).map((c) => c.id),
          ['chloe.okafor#field:tags'],
          'the removal of alice.muller is not in the undo',
        );
        assert.equal(of('only')?.undoable, false, 'a change of only such removals is not offered for Undo');
      }),
    );
  });
});
