// The folders of a group, for naming where a search hit lies, against the real emulator (demo seed).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GroupFolders } from '../../../../../src/features/records/search/groupFolders';
import { accountIdOf, apiRequests, demoClient, emulator, groupIdOf } from '../../helpers';

const FILES_ROUTE = /^GET \/v2\/accounts\/:account\/groups\/:group\/files$/;
const never = new AbortController().signal;

void describe('group folders', () => {
  void test('name the way to a nested file as the single record does, with one listing for the group', async () => {
    const emu = await emulator();
    const client = await demoClient(emu);
    try {
      const acme = await accountIdOf(client, 'acme');
      const engineering = await groupIdOf(client, acme, 'engineering');
      const listed = await client.v2.files.page(acme, engineering, {
        page: 1,
        size: 100,
        recursive: true,
        name: 'format',
      });
      const file = listed.items.find((r) => r.name === 'format.ts');
      assert.ok(file?.parentId, 'format.ts lies in a folder');
      const index = new GroupFolders();
      emu.resetStats();
      const [steps, again] = await Promise.all([
        index.stepsTo(client, { accountId: acme, groupId: engineering }, file.parentId, never),
        index.stepsTo(client, { accountId: acme, groupId: engineering }, file.parentId, never),
      ]);
      const record = await client.v2.files.get(acme, engineering, file.id);
      assert.ok(record.path.length >= 1);
      assert.deepEqual(
        steps?.map((s) => s.name),
        record.path.map((p) => p.name),
      );
      assert.equal(steps?.at(-1)?.id, file.parentId);
      assert.deepEqual(again, steps);
      assert.equal(apiRequests(emu, FILES_ROUTE), 1, 'one listing, shared');
      assert.equal(await index.stepsTo(client, { accountId: acme, groupId: engineering }, 999_999, never), undefined);
    } finally {
      client.close();
      await emu.stop();
    }
  });

  void test('a portal that lists only the root names no way to a nested folder', async () => {
    const emu = await emulator({ profile: 'literal' });
    const client = await demoClient(emu);
    try {
      const acme = await accountIdOf(client, 'acme');
      const engineering = await groupIdOf(client, acme, 'engineering');
      const root = await client.v2.files.page(acme, engineering, { page: 1, size: 100 });
      const folder = root.items.find((r) => r.isFolder);
      assert.ok(folder);
      const children = await client.v2.files.children(acme, engineering, folder.id, { page: 1, size: 100 });
      const nested = children.items.find((r) => r.isFolder);
      const index = new GroupFolders();
      const where = { accountId: acme, groupId: engineering };
      assert.deepEqual(await index.stepsTo(client, where, folder.id, never), [{ id: folder.id, name: folder.name }]);
      assert.ok(nested, `a folder inside ${folder.name}`);
      assert.equal(await index.stepsTo(client, where, nested.id, never), undefined);
    } finally {
      client.close();
      await emu.stop();
    }
  });
});
