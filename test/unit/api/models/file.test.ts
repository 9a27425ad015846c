import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PortalError, parseFileRecord } from '../../../../src/api';

const invalid = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-response';

void test('File record: folder flag, tags string, group id', () => {
  const f = parseFileRecord(
    {
      id: 7,
      contentType: '@folder',
      tags: 'a, b,,c',
      group: { id: 3, name: 'g' },
      parent: { id: 2 },
      path: [{ id: 1, name: 'root' }],
    },
    'portal',
  );
  assert.equal(f.isFolder, true);
  assert.deepEqual(f.tags, ['a', 'b', 'c']);
  assert.equal(f.groupId, 3);
  assert.equal(f.parentId, 2);
  assert.deepEqual(f.path, [{ id: 1, name: 'root' }]);
  const plain = parseFileRecord({ id: 8, contentType: 'text/plain', tags: null, group: null }, 'portal');
  assert.equal(plain.isFolder, false);
  assert.deepEqual(plain.tags, []);
  assert.throws(() => parseFileRecord({ name: 'x' }, 'portal'), invalid);
});
