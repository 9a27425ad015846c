// Names built from a file's content (a journal's id, a snapshot's username) stay in their folder.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { inFolder } from '../../../src/node/privateFiles';

void describe('privateFiles: inFolder', () => {
  void test('a plain name is joined; a name that leaves the folder is refused', () => {
    const folder = resolve('/tmp/portal-reports');
    assert.equal(inFolder(folder, 'report-1.csv'), join(folder, 'report-1.csv'));
    for (const name of ['', '.', '..', '../x.csv', 'report-../../x.csv', 'a/b.csv', 'a\\b.csv', '/etc/passwd'])
      assert.throws(() => inFolder(folder, name), /Not a file name/, JSON.stringify(name));
  });
});
