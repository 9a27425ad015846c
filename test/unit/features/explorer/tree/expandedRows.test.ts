// The Explorer's expanded rows: kept by key for the next session, which alone draws them expanded; a collapse forgets
// the row and everything below it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryMemento } from '../../../memento';
import { ExpandedRows } from '../../../../../src/features/explorer/tree/explorerState';
import type { TreeKey } from '../../../../../src/shared/keys';

const memento = memoryMemento;

const key = (k: string) => k as TreeKey;

void describe('Explorer expanded rows', () => {
  void it('what one session expands, the next draws expanded; a collapse forgets the rows below', () => {
    const m = memento();
    const first = new ExpandedRows(m);
    first.expanded(key('explorer/p'));
    first.expanded(key('explorer/p/a:1'));
    first.expanded(key('explorer/p/a:1/g:101'));
    assert.equal(first.has(key('explorer/p/a:1')), false, 'this session leaves expansion to VS Code');
    const second = new ExpandedRows(m);
    assert.equal(second.has(key('explorer/p/a:1')), true);
    assert.equal(second.has(key('explorer/p/a:1/g:101')), true);
    second.collapsed(key('explorer/p/a:1'));
    assert.equal(second.has(key('explorer/p/a:1/g:101')), false, 'collapsed with its parent');
    const third = new ExpandedRows(m);
    assert.equal(third.has(key('explorer/p')), true);
    assert.equal(third.has(key('explorer/p/a:1')), false);
    assert.equal(third.has(key('explorer/p/a:1/g:101')), false);
  });
});
