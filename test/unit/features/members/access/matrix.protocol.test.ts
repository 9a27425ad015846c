import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPageMessage, visibleRows } from '../../../../../src/features/members/access/matrix.protocol';
import { levelCode, type WireRow } from '../../../../../src/shared/accessRow';

const row = (id: number, name: string, cells: number[], tags: number[] = [], lastActive = -1): WireRow => [
  id,
  name.toLowerCase(),
  name,
  `${name.toLowerCase()}@x.example`,
  tags,
  1,
  lastActive,
  0,
  cells,
  1,
];

void describe('access matrix filters and order', () => {
  const rows = [
    row(1, 'Cleo', [0, 3, 1, 1], [0], 300),
    row(2, 'Anna', [0, 1], [], 100),
    row(3, 'Bert', [1, 2], [0]),
    row(4, 'Dora', []),
  ];
  const names = (v: Parameters<typeof visibleRows>[1]) => visibleRows(rows, v).map((r) => r[2]);

  void it('a group keeps its members only; a level narrows to that level in it', () => {
    assert.deepEqual(names({ group: 0 }), ['Anna', 'Cleo']);
    assert.deepEqual(names({ group: 0, level: 3 }), ['Cleo']);
    assert.deepEqual(names({ group: 1, sort: 'level', descending: true }), ['Bert', 'Cleo']);
  });

  void it('a level without a group: members with any cell at that level', () => {
    assert.deepEqual(names({ level: 1 }), ['Anna', 'Cleo']);
  });

  void it('tag and text filters, and the orders', () => {
    assert.deepEqual(names({ tag: 0 }), ['Bert', 'Cleo']);
    assert.deepEqual(names({ text: 'DOR' }), ['Dora']);
    assert.deepEqual(names({ text: 'anna@' }), ['Anna']);
    // Never active (-1) sorts as the oldest.
    assert.deepEqual(names({ sort: 'lastActive' }), ['Bert', 'Dora', 'Anna', 'Cleo']);
    assert.deepEqual(names({ sort: 'name', descending: true }), ['Dora', 'Cleo', 'Bert', 'Anna']);
  });

  void it('levels from permissions', () => {
    assert.deepEqual([0, 1, 2, 4, 8, 16, 31].map(levelCode), [0, 1, 1, 2, 2, 3, 3]);
  });

  void it('the host drops page messages that do not match the protocol', () => {
    assert.equal(checkPageMessage({ type: 'export', view: { group: 2, sort: 'name' } }, '').ok, true);
    assert.equal(checkPageMessage({ type: 'export', view: { group: -1 } }, '').ok, false);
    assert.equal(checkPageMessage({ type: 'export', view: { sort: 'evil' } }, '').ok, false);
    assert.equal(checkPageMessage({ type: 'export', view: {}, extra: 1 }, '').ok, false);
    assert.equal(checkPageMessage({ type: 'run', command: 'x' }, '').ok, false);
  });
});
