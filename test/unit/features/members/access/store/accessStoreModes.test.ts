// The access matrix's store names the people of an organisation and their access: it is the user's alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AccessStoreFile, storeFilePath } from '../../../../../../src/features/members/access/store/accessStoreFile';
import { tempDir } from '../../../../../support/tempDir';

const mode = async (f: string) => (await stat(f)).mode & 0o777;

async function withStorage(run: (folder: string) => Promise<void>): Promise<void> {
  const folder = tempDir('portal-access-');
  try {
    await run(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** One member as the store keeps them. */
const member = { username: 'sam', name: 'Sam', email: 's@x.org', tags: [], permission: 1, lastActive: null, flags: 0 };

void describe('access matrix store: file modes', () => {
  void test('the access store is 0600 in 0700 folders', async () => {
    await withStorage(async (storage) => {
      const access = new AccessStoreFile(storeFilePath(join(storage, 'access'), 'p1', 7));
      access.read(member, {}, 1);
      assert.equal(await mode(access.file), 0o600);
      assert.equal(await mode(join(storage, 'access')), 0o700);
      await access.compact(access.load());
      assert.equal(await mode(access.file), 0o600, 'rewritten, still private');
    });
  });

  void test('a store file or folder that is a planted link is refused, and what it points to is untouched', async () => {
    await withStorage(async (storage) => {
      const victim = join(storage, 'elsewhere', 'notes.txt');
      await mkdir(dirname(victim));
      await writeFile(victim, 'mine\n', { mode: 0o644 });
      const file = storeFilePath(join(storage, 'access'), 'p1', 7);
      await mkdir(dirname(file), { recursive: true });
      await symlink(victim, file);
      assert.throws(() => new AccessStoreFile(file).read(member, {}, 1), { name: 'UnsafePathError' });
      await assert.rejects(new AccessStoreFile(file).compact(new AccessStoreFile(file).load()), {
        name: 'UnsafePathError',
      });
      const other = storeFilePath(join(storage, 'access'), 'p2', 7);
      await symlink(dirname(victim), dirname(other));
      assert.throws(() => new AccessStoreFile(other).read(member, {}, 1), { name: 'UnsafePathError' });
      assert.equal(await readFile(victim, 'utf8'), 'mine\n');
      assert.equal(await mode(victim), 0o644);
      assert.equal((await readdir(dirname(victim))).length, 1, 'nothing new beside it');
    });
  });
});
