// Another's edit of a file record's content through the control endpoint: the bytes change, and lastModified and
// versions move unless the edit keeps them, as a portal that does not mark such a change would.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness, type Obj } from './helpers';

const MARKETING = 102;

void describe('emulator: files/edit control', () => {
  let h: Harness;
  let token: string;
  let id: number;

  const record = async (): Promise<{ size: number; lastModified: number; versions: number }> => {
    const res = await h.call<{ size: number; lastModified: number; versions: number }>(
      'GET',
      `/v2/accounts/1/groups/${MARKETING}/files/${id}`,
      { token },
    );
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const bytes = async (): Promise<string> =>
    (await h.call('GET', `/v3/groups/${MARKETING}/files/${id}/download`, { token })).text;

  before(async () => {
    h = await startHarness();
    token = await h.login();
    const root = await h.call<{ page: Array<{ id: number; name: string }> }>(
      'GET',
      `/v2/accounts/1/groups/${MARKETING}/files`,
      { token },
    );
    const notes = root.body.page.find((f) => f.name === 'notes.txt');
    assert.ok(notes);
    id = notes.id;
  });
  after(() => h.stop());

  void test('an edit replaces the bytes and moves lastModified and versions, like a new version', async () => {
    const before = await record();
    assert.equal((await h.control('POST', '/files/edit', { id, text: 'first edit\n' })).status, 200);
    const now = await record();
    assert.equal(await bytes(), 'first edit\n');
    assert.equal(now.size, 11);
    assert.equal(now.versions, before.versions + 1);
    assert.ok(now.lastModified > before.lastModified);
  });

  void test('keepLastModified and keepVersions leave the record as it was but for the bytes', async () => {
    const before = await record();
    h.emu.editFile({ id, text: 'other edit\n', keepLastModified: true, keepVersions: true });
    const now = await record();
    assert.equal(await bytes(), 'other edit\n');
    assert.deepEqual(
      { size: now.size, lastModified: now.lastModified, versions: now.versions },
      { size: before.size, lastModified: before.lastModified, versions: before.versions },
    );
  });

  void test('refuses a body without an id or text, and an unknown record', async () => {
    const bad = await h.control<Obj>('POST', '/files/edit', { id, text: 3 });
    assert.equal(bad.status, 400);
    assert.equal((await h.control('POST', '/files/edit', { text: 'x' })).status, 400);
    assert.equal((await h.control('POST', '/files/edit', { id, text: 'x', keepVersions: 1 })).status, 400);
    assert.equal((await h.control('POST', '/files/edit', { id: 1, text: 'x' })).status, 404);
  });
});
