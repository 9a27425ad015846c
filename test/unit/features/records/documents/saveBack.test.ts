// Saving content back: a new version when the portal's copy is the one the editor was given, a conflict when it
// moved, on a portal with the single-record read and on one that only lists.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collect, type PortalClient } from '../../../../../src/api';
import { findRecord } from '../../../../../src/features/records/documents/recordRead';
import { saveBack, SaveConflict, seenOf } from '../../../../../src/features/records/documents/saveBack';
import type { PortalTarget } from '../../../../../src/features/records/documents/uri';
import { accountId, emulator, groupId, passwordClient, type Emulator, type TestClient } from '../../../api/helpers';

type Content = Extract<PortalTarget, { kind: 'content' }>;

async function text(client: PortalClient, group: number, id: number): Promise<string> {
  const d = await client.v2.files.download(group, id);
  const parts: Buffer[] = [];
  for await (const c of d.body as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts).toString('utf8');
}

for (const profile of ['default', 'listing only'] as const)
  void describe(`saveBack (${profile})`, () => {
    let emu: Emulator;
    let t: TestClient;
    let target: Content;
    let other: TestClient;

    before(async () => {
      emu = await emulator(profile === 'listing only' ? { missingReads: ['v2.file.get'] } : {});
      t = await passwordClient(emu);
      other = await passwordClient(emu);
      const acme = await accountId(t.client, 'acme');
      const engineering = await groupId(t.client, acme, 'engineering');
      const root = await collect(t.client.v2.files.iterate(acme, engineering));
      const file = root.find((f) => f.name === 'releases.csv');
      assert.ok(file);
      target = {
        kind: 'content',
        portalId: 'p',
        accountId: acme,
        groupId: engineering,
        fileId: file.id,
        name: file.name,
        known: { folders: [] },
      };
    });
    after(async () => {
      t.client.close();
      other.client.close();
      await emu.stop();
    });

    void test('a save over the copy that was opened sends a new version', async () => {
      const opened = seenOf((await findRecord(t.client, target)).record);
      const saved = await saveBack(t.client, target, opened, new TextEncoder().encode('version,date\n9,today\n'));
      assert.equal(saved.id, target.fileId);
      assert.ok((saved.lastModified ?? 0) > (opened.lastModified ?? 0));
      assert.equal(await text(t.client, target.groupId, target.fileId), 'version,date\n9,today\n');
    });

    void test('a save over a copy changed on the portal since is a conflict, and nothing is sent', async () => {
      const opened = seenOf((await findRecord(t.client, target)).record);
      await saveBack(other.client, target, undefined, new TextEncoder().encode('changed elsewhere\n'));
      await assert.rejects(
        saveBack(t.client, target, opened, new TextEncoder().encode('mine\n')),
        (e) => e instanceof SaveConflict && e.current.id === target.fileId,
      );
      assert.equal(await text(t.client, target.groupId, target.fileId), 'changed elsewhere\n');
    });
  });
