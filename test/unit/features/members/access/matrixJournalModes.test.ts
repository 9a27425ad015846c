// The access matrix's store names the people of an organisation and their access: it is the user's alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journalPath, MatrixJournal } from '../../../../../src/features/members/access/matrixJournal';

const mode = async (f: string) => (await stat(f)).mode & 0o777;

async function withStorage(run: (folder: string) => Promise<void>): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'portal-access-'));
  try {
    await run(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

void describe('access matrix store: file modes', () => {
  void test('the access store is 0600 in 0700 folders', async () => {
    await withStorage(async (storage) => {
      const access = new MatrixJournal(journalPath(join(storage, 'access'), 'p1', 7));
      const member = {
        username: 'sam',
        name: 'Sam',
        email: 's@x.org',
        tags: [],
        permission: 1,
        lastActive: null,
        flags: 0,
      };
      access.read(member, {}, 1);
      assert.equal(await mode(access.file), 0o600);
      assert.equal(await mode(join(storage, 'access')), 0o700);
      await access.compact(access.load());
      assert.equal(await mode(access.file), 0o600, 'rewritten, still private');
    });
  });
});
