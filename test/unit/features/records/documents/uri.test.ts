import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isDirectoryPath,
  knownQuery,
  parseKnown,
  parseTarget,
  safeSegment,
  targetPath,
  type PortalTarget,
} from '../../../../../src/features/records/documents/uri';

void test('every portal: target survives a round trip through its URI path', () => {
  const targets: PortalTarget[] = [
    { kind: 'record', portalId: 'p', accountId: 1, groupId: 101, fileId: 100001, name: 'README.md' },
    { kind: 'content', portalId: 'p', accountId: 1, groupId: 101, fileId: 100001, name: 'README.md' },
    { kind: 'group', portalId: 'p', accountId: 1, groupId: 101, name: 'Engineering' },
    { kind: 'account', portalId: 'p', accountId: 1, name: 'Acme' },
    { kind: 'application', portalId: 'p', clientId: 'demo-abc/1', name: 'Sync' },
  ];
  for (const t of targets) {
    const back = parseTarget(t.portalId, targetPath(t));
    assert.ok(back, targetPath(t));
    const { name: _a, ...ids } = t;
    const { name: _b, ...backIds } = back;
    assert.deepEqual(backIds, ids);
  }
  assert.equal(parseTarget('p', '/accounts/1/groups/x/files/2/a.md'), undefined);
  assert.equal(parseTarget('', targetPath(targets[0]!)), undefined);
  assert.ok(isDirectoryPath('/accounts/1/groups/101/files/5/content'));
  assert.ok(!isDirectoryPath('/accounts/1/groups/101/files/5/content/x'));
});

void test('names become one safe path segment', () => {
  assert.equal(safeSegment('a/b\\c'), 'a∕b∕c');
  assert.equal(safeSegment('..'), 'untitled');
});

void test('what the Explorer knew of a record survives a round trip through the URI query, and a bad query adds nothing', () => {
  const known: Parameters<typeof knownQuery>[0] = {
    groupLabel: 'Engineering & Ops',
    folders: [
      { id: 7, name: 'src' },
      { id: 9, name: 'a:b / c' },
    ],
    size: 1234,
    lastModified: 1_736_931_600_000,
    contentType: 'text/plain',
  };
  assert.deepEqual(parseKnown(knownQuery(known)), known);
  assert.deepEqual(parseKnown(knownQuery({ folders: [] })), { folders: [] }, 'at the root');
  assert.equal(parseKnown(knownQuery({ size: null })), undefined, 'an unreported size is not carried');
  assert.deepEqual(
    parseKnown('f=7:src&f=oops&s=-1&m=x'),
    {},
    'half a path is no path; numbers that are not sizes are dropped',
  );
  const t = parseTarget('p', '/accounts/1/groups/101/files/5/README.md (record).md', knownQuery(known));
  assert.deepEqual(t?.kind === 'record' ? t.known : undefined, known);
});
