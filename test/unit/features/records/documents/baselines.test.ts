// Saving content back, as VS Code drives the file system (see editorDriver.ts): a new version when the portal holds
// what the editor was given; VS Code's own Compare / Overwrite for any other copy, whatever the portal's dates and
// sizes say, however many documents are open and however often the file is stat'ed; Overwrite then sends. On a
// portal with the single-record read and on one that only lists.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { collect } from '../../../../../src/api';
import { SaveBaselines } from '../../../../../src/features/records/documents/baselines';
import { findRecord } from '../../../../../src/features/records/documents/recordRead';
import { SaveConflict } from '../../../../../src/features/records/documents/saveBack';
import { accountId, emulator, groupId, passwordClient, type Emulator, type TestClient } from '../../../api/helpers';
import { EditorDriver, portalText, type Content } from './editorDriver';
import { tempDir } from '../../../../support/tempDir';

for (const profile of ['default', 'listing only'] as const)
  void describe(`save-back (${profile})`, () => {
    let emu: Emulator;
    let t: TestClient;
    let target: Content;
    let editor: EditorDriver;
    let baselines: SaveBaselines;
    /** Where the write engine stages and journals the saves. */
    let storage: string;
    const original = 'version,date\n1,monday\n';

    /** Another administrator's edit, made on the portal. */
    const theirs = (text: string, keep: { keepLastModified?: boolean; keepVersions?: boolean } = {}): void =>
      emu.editFile({ id: target.fileId, text, ...keep });
    const onPortal = (): Promise<string> => portalText(t.client, target);

    before(async () => {
      storage = tempDir('save-back-');
      emu = await emulator(profile === 'listing only' ? { missingReads: ['v2.file.get'] } : {});
      t = await passwordClient(emu);
      const acme = await accountId(t.client, 'acme');
      const engineering = await groupId(t.client, acme, 'engineering');
      const file = (await collect(t.client.v2.files.iterate(acme, engineering))).find((f) => f.name === 'releases.csv');
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
    beforeEach(async () => {
      theirs(original);
      baselines = new SaveBaselines(() => true, storage);
      editor = new EditorDriver(baselines, t.client, target, 'doc');
      await editor.open();
    });
    after(async () => {
      t.client.close();
      await emu.stop();
      fs.rmSync(storage, { recursive: true, force: true });
    });

    void test('a save over the copy that was opened sends a new version, and the next save builds on it', async () => {
      const versions = (await findRecord(t.client, target)).record.versions;
      editor.edit('version,date\n9,today\n');
      assert.equal(await editor.save(), 'saved');
      assert.equal(await onPortal(), 'version,date\n9,today\n');
      if (versions !== null) assert.equal((await findRecord(t.client, target)).record.versions, versions + 1);
      editor.edit('version,date\n10,tomorrow\n');
      assert.equal(await editor.save(), 'saved');
      assert.equal(await onPortal(), 'version,date\n10,tomorrow\n');
    });

    void test('a change on the portal just after a save, before VS Code looks again, still meets Compare / Overwrite', async () => {
      editor.edit('version,date\n9,today\n');
      assert.equal(await editor.save(() => theirs('version,date\n2,theirs\n')), 'saved');
      editor.edit('version,date\n9,today\nmore\n');
      assert.equal(await editor.save(), 'compare', 'their change is not overwritten in silence');
      assert.equal(await onPortal(), 'version,date\n2,theirs\n');
    });

    void test('a change on the portal just after a save still meets Compare / Overwrite when another stat comes first', async () => {
      editor.edit('version,date\n9,today\n');
      const meanwhile = async (): Promise<void> => {
        theirs('version,date\n2,theirs\n');
        await editor.stat();
      };
      assert.equal(await editor.save(meanwhile), 'saved');
      editor.edit('version,date\n9,today\nmore\n');
      assert.equal(await editor.save(), 'compare', 'their change is not overwritten in silence');
      assert.equal(await onPortal(), 'version,date\n2,theirs\n');
    });

    void test('a same-size change on the portal meets Compare / Overwrite; Overwrite then sends', async () => {
      theirs('version,date\n2,monday\n');
      editor.edit('version,date\n1,monday\nmine\n');
      assert.equal(await editor.save(), 'compare');
      assert.equal(await onPortal(), 'version,date\n2,monday\n', 'the other change is kept');
      assert.equal(await editor.compare(), 'version,date\n2,monday\n', 'Compare shows their copy');
      assert.equal(await editor.save(), 'compare', 'saving from the compare editor still asks');
      assert.equal(await editor.overwrite(), 'saved');
      assert.equal(await onPortal(), 'version,date\n1,monday\nmine\n');
    });

    void test('a same-size edit over a same-size change still meets Compare / Overwrite', async () => {
      theirs('version,date\n2,monday\n');
      editor.edit('version,date\n3,monday\n');
      assert.equal(await editor.save(), 'compare');
      assert.equal(await onPortal(), 'version,date\n2,monday\n');
    });

    void test('a portal that never moves lastModified: the version count tells', async () => {
      theirs('version,date\n2,monday\n', { keepLastModified: true });
      editor.edit('mine\n');
      assert.equal(await editor.save(), 'compare');
      assert.equal(await onPortal(), 'version,date\n2,monday\n');
    });

    void test('a portal whose dates and version count both stay: the bytes tell', async () => {
      theirs('version,date\n2,monday\n', { keepLastModified: true, keepVersions: true });
      editor.edit('mine\n');
      assert.equal(await editor.save(), 'compare');
      assert.equal(await onPortal(), 'version,date\n2,monday\n');
      assert.equal(await editor.overwrite(), 'saved');
      assert.equal(await onPortal(), 'mine\n');
    });

    void test("a change between the save's stat and its write is refused by the write; saving again compares", async () => {
      editor.edit('mine\n');
      await editor.stat();
      theirs('version,date\n2,monday\n', { keepLastModified: true, keepVersions: true });
      await assert.rejects(
        baselines.write('doc', t.client, target, new TextEncoder().encode('mine\n')),
        (e) => e instanceof SaveConflict,
      );
      assert.equal(await onPortal(), 'version,date\n2,monday\n');
      assert.equal(await editor.save(), 'compare');
    });

    void test('stats and reads before the write leave the baseline where the editor was given it', async () => {
      theirs('version,date\n2,monday\n');
      for (let i = 0; i < 3; i++) await editor.stat();
      editor.edit('mine\n');
      for (let i = 0; i < 3; i++) await editor.stat();
      await editor.compare();
      assert.equal(await editor.save(), 'compare');
      assert.equal(await onPortal(), 'version,date\n2,monday\n');
    });

    void test("a clean editor that reloads takes the portal's copy as what it was given; its save then sends", async () => {
      theirs('version,date\n2,monday\n');
      await editor.stat();
      await editor.open();
      assert.equal(editor.text, 'version,date\n2,monday\n');
      editor.edit('version,date\n2,monday\nmine\n');
      assert.equal(await editor.save(), 'saved');
      assert.equal(await onPortal(), 'version,date\n2,monday\nmine\n');
    });

    void test('100 open documents: each one still meets Compare / Overwrite', async () => {
      const editors = Array.from({ length: 100 }, (_, i) => new EditorDriver(baselines, t.client, target, `doc-${i}`));
      for (const e of editors) await e.open();
      theirs('version,date\n2,monday\n', { keepLastModified: true });
      for (const e of [editors[0], editors[50], editors[99]]) {
        assert.ok(e);
        e.edit(`mine, ${e.key}\n`);
        assert.equal(await e.save(), 'compare', e.key);
      }
      assert.equal(await onPortal(), 'version,date\n2,monday\n');
    });
  });
