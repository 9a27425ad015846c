// The mapping saved beside a sheet is written by the import without a question, so it must never be written
// through a link: a folder that holds `starters.csv` and a link `starters.portal-mapping.json -> ~/.bashrc` (a
// cloned repository, a shared folder) gets a refusal, and the file the link names is untouched.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UnsafePathError } from '../../../../../src/node/disk';
import { mappingPath, saveMapping, writePrivate } from '../../../../../src/features/members/import/savedMapping';
import type { ImportMapping } from '../../../../../src/features/members/import/mapping';
import { tempDir } from '../../../../support/tempDir';

const mapping: ImportMapping = {
  portalId: 'p',
  accountId: 1,
  accountLabel: 'Acme',
  columns: { Email: 'email', 'First name': 'firstName' },
  usernames: 'first.last',
  departments: {},
};

void describe('saveMapping', () => {
  const dir = tempDir('import-mapping-');
  const home = path.join(dir, 'home');
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(home);
  fs.mkdirSync(repo);
  const bashrc = path.join(home, '.bashrc');
  const sheet = path.join(repo, 'starters.csv');

  void test('a mapping path that is a link is refused, and the file it names is untouched', async () => {
    fs.writeFileSync(bashrc, 'export PATH=$PATH\n', { mode: 0o644 });
    fs.symlinkSync(path.relative(repo, bashrc), mappingPath(sheet));
    await assert.rejects(saveMapping(sheet, mapping), UnsafePathError);
    assert.equal(fs.readFileSync(bashrc, 'utf8'), 'export PATH=$PATH\n');
    assert.equal(fs.statSync(bashrc).mode & 0o777, 0o644);
    assert.ok(fs.lstatSync(mappingPath(sheet)).isSymbolicLink());
  });

  void test('the members file is written the same way: a link at its path is refused', async () => {
    const target = path.join(repo, 'starters.members.csv');
    fs.symlinkSync(bashrc, target);
    await assert.rejects(writePrivate(target, 'username\r\nana\r\n'), UnsafePathError);
    assert.equal(fs.readFileSync(bashrc, 'utf8'), 'export PATH=$PATH\n');
  });

  void test('a mapping path that is free, or a file, is written 0600', async () => {
    const other = path.join(repo, 'q2.csv');
    fs.writeFileSync(mappingPath(other), '{}', { mode: 0o644 });
    await saveMapping(other, mapping);
    assert.equal(fs.statSync(mappingPath(other)).mode & 0o777, 0o600);
    assert.match(fs.readFileSync(mappingPath(other), 'utf8'), /first\.last/);
  });
});
