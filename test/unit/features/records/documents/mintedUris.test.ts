// Which portal: URIs are read from the portal without a click: those this extension made, kept across a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_MINTED, MintedUris, type MintedStorage } from '../../../../../src/features/records/documents/mintedUris';

/** A Memento as VS Code keeps one: values survive as JSON. */
function memento(): MintedStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: <T>(key: string) => (data.has(key) ? (JSON.parse(data.get(key) ?? 'null') as T) : undefined),
    update: (key: string, value: unknown) => {
      data.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
  };
}

const record = {
  authority: 'p1',
  path: '/accounts/1/groups/101/files/5/README.md (record).md',
  query: 'g=Engineering&f=',
};

void test('a URI never made here is not trusted; one made here is, with its query; another query only by path', () => {
  const minted = new MintedUris(memento());
  assert.equal(minted.trust(record), undefined);
  minted.mint(record);
  assert.equal(minted.trust(record), 'full');
  assert.equal(minted.trust({ ...record, query: 'g=Payroll&f=7:Secret' }), 'path', 'a query we did not write');
  assert.equal(minted.trust({ ...record, query: '' }), 'path');
  assert.equal(minted.trust({ ...record, authority: 'p2' }), undefined, 'another portal');
  assert.equal(minted.trust({ ...record, path: record.path.replace('/5/', '/6/') }), undefined, 'another record');
});

void test('a document a person chose to load is trusted by its path, never with its query', () => {
  const minted = new MintedUris(memento());
  const link = { ...record, query: 'g=Payroll' };
  minted.trustPath(link);
  assert.equal(minted.trust(link), 'path');
});

void test('the list survives a restart, bounded: the oldest go first', () => {
  const storage = memento();
  const first = new MintedUris(storage);
  first.mint(record);
  for (let i = 0; i < MAX_MINTED; i++) first.mint({ authority: 'p1', path: `/accounts/1/details/${i}.md`, query: '' });
  const again = new MintedUris(storage);
  assert.equal(again.trust(record), undefined, 'the oldest was dropped');
  assert.equal(again.trust({ authority: 'p1', path: `/accounts/1/details/${MAX_MINTED - 1}.md`, query: '' }), 'full');
  const second = new MintedUris(storage);
  second.mint(record);
  assert.equal(new MintedUris(storage).trust(record), 'full', 'a restart keeps what was made before it');
});

void test('stored data that is not a list of URIs is ignored, never trusted', () => {
  for (const bad of [{ p1: ['x'] }, 'p1', [[1, ['x']]], [['p1/accounts/1/details/x.md', 'x']]]) {
    const storage = memento();
    void storage.update('portal.documents.minted', bad);
    assert.equal(
      new MintedUris(storage).trust({ authority: 'p1', path: '/accounts/1/details/x.md', query: 'x' }),
      undefined,
    );
  }
});
