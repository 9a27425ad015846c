// What the Members view keeps for the next session is read back field by field: what is not as written is dropped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryMemento } from '../../../memento';
import { keepMembersView, loadMembersView, queryOf } from '../../../../../src/features/members/view/membersState';

const memento = memoryMemento;

void describe('Members view state', () => {
  void it('keeps the organisation and its query, and reads them back as they were', async () => {
    const m = memento();
    const account = { kind: 'account' as const, portalId: 'p', accountId: 2, label: 'Globex Research' };
    const query = { search: 'ann', tags: ['ops'], orderBy: 'lastActive' as const, activity: { inactiveDays: 90 } };
    await keepMembersView(m, { account, query });
    assert.deepEqual(loadMembersView(m), { account, query });
    await keepMembersView(m, undefined);
    assert.equal(loadMembersView(m), undefined);
  });

  void it('drops what is not as written: a wrong order, a negative day count, tags that are not text', () => {
    assert.deepEqual(
      queryOf({ orderBy: 'drop table', tags: [1, 'ok'], activity: { inactiveDays: -5, locked: 'yes' }, x: 1 }),
      { tags: ['ok'] },
    );
    assert.deepEqual(queryOf('not an object'), {});
  });

  void it('keeps an activity filter scoped to a group, and drops a group that is not whole', async () => {
    const m = memento();
    const account = { kind: 'account' as const, portalId: 'p', accountId: 1, label: 'Acme Corporation' };
    const group = { id: 7, name: 'engineering', label: 'Engineering' };
    const query = { activity: { inactiveDays: 90, group } };
    await keepMembersView(m, { account, query });
    assert.deepEqual(loadMembersView(m), { account, query });
    for (const bad of [
      { ...group, id: '7' },
      { ...group, id: 0 },
      { id: 7, label: 'Engineering' },
      { ...group, name: 5 },
      'x',
    ])
      assert.deepEqual(queryOf({ activity: { inactiveDays: 90, group: bad } }), { activity: { inactiveDays: 90 } });
  });
});
