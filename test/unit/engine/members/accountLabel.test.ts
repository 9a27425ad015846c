// A change keeps the name of the organisation it was made in, so its history and its undo name the organisation
// after a reload, when the window no longer knows the label (it named it "organisation 1" before). The name is
// portal text: kept as one bounded line, so the journal that holds it always reads back. Against the real emulator.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runEdits } from '../../../../src/engine/members/edits';
import { changeHistory } from '../../../../src/engine/members/index';
import { emptyBefore } from '../../../../src/engine/members/requests';
import { runBulk } from '../../../../src/features/members/bulk/bulkRun';
import { withPortal, withStorage } from '../../features/members/plan/core/helpers';

void describe("a change's organisation", () => {
  void test('is kept with the change by name, as one line, and read back with its history', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const tag = {
          username: 'chloe.okafor',
          action: 'update' as const,
          before: { ...emptyBefore('chloe.okafor'), tags: [] },
          after: { fields: { tags: ['kept-label'] }, groups: {} },
        };
        const head = { accountId: p.acme, portalId: 'test', origin: 'bulk' as const, title: 'tag' };
        const tagged = await runEdits(p.client, { ...head, accountLabel: 'Acme Corporation' }, [tag], {
          journalFolder: storage,
        });
        assert.equal(tagged.rows[0]?.result, 'done');
        // An organisation renamed on the portal to something with a line break and a bidi override.
        const odd = await runEdits(p.client, { ...head, title: 'odd', accountLabel: 'Acme\n\u202ECorp' }, [tag], {
          journalFolder: storage,
        });
        assert.equal(odd.rows[0]?.result, 'done');
        const disabled = await runBulk(
          p.client,
          p.acme,
          { kind: 'disable' },
          [{ username: 'maya.evans', enabled: true, locked: false, tags: [] }],
          { journal: { storageFolder: storage, portalId: 'test', accountLabel: 'Acme Corporation' }, title: 'bulk' },
        );
        assert.equal(disabled.done.length, 1);

        const history = await changeHistory(storage);
        const labelOf = (title: string) =>
          history.find((c) => c.record.begin.title === title)?.record.begin.accountLabel;
        assert.equal(labelOf('tag'), 'Acme Corporation');
        assert.equal(labelOf('odd'), 'Acme Corp', 'one line, no bidi override, and the journal still reads');
        assert.equal(labelOf('bulk'), 'Acme Corporation');
      }),
    );
  });
});
