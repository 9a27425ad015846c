// Saving an editor's text back as a kind of the engine's work, against the emulator: the bytes are staged and the
// staged copy is what is sent; the save is journaled (its record's version before, its outcome) and listed in the
// history in the user's words, with no undo; a save interrupted before it finished is never sent again, and the
// history says so; a portal that refuses the upload leaves a failed save, with the portal's own error for the caller.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { collect, refusesUploads, type FileRecord } from '../../../../src/api';
import { Journal } from '../../../../src/engine/journalFile';
import {
  digestOf,
  runSave,
  saveHistory,
  settleInterruptedSaves,
  type SavePlan,
} from '../../../../src/engine/saves/index';
import { saveJournal } from '../../../../src/engine/saves/journalSchema';
import { SaveKind } from '../../../../src/engine/saves/kind';
import { uploadJournal } from '../../../../src/engine/uploads/journalSchema';
import { listJournals } from '../../../../src/engine/journalFile';
import { accountId, emulator, groupId, passwordClient, type Emulator, type TestClient } from '../../api/helpers';
import { tempDir } from '../../../support/tempDir';

const text = async (t: TestClient, groupId: number, id: number): Promise<string> => {
  const download = await t.client.v2.files.download(groupId, id);
  const chunks: Buffer[] = [];
  for await (const chunk of download.body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

void describe('saving back through the engine', () => {
  let emu: Emulator;
  let t: TestClient;
  let acme: number;
  let engineering: number;
  let file: FileRecord;
  const folders: string[] = [];
  const storageFolder = (): string => {
    const f = tempDir('save-engine-');
    folders.push(f);
    return f;
  };
  const planOf = (record: FileRecord): SavePlan => ({
    portalId: 'p',
    accountId: acme,
    groupId: engineering,
    where: 'Engineering',
    title: `Save ${record.name} back to Engineering`,
    record,
    before: { lastModified: record.lastModified, versions: record.versions },
  });

  before(async () => {
    emu = await emulator();
    t = await passwordClient(emu);
    acme = await accountId(t.client, 'acme');
    engineering = await groupId(t.client, acme, 'engineering');
    const found = (await collect(t.client.v2.files.iterate(acme, engineering))).find((f) => f.name === 'releases.csv');
    assert.ok(found);
    file = await t.client.v2.files.get(acme, engineering, found.id);
  });
  after(async () => {
    t.client.close();
    await emu.stop();
    for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
  });

  void test('a save is staged, journaled and sent as those bytes; the history names it and offers no undo', async () => {
    const storage = storageFolder();
    const bytes = new TextEncoder().encode('version,date\n7,sunday\n');
    const result = await runSave(t.client, storage, planOf(file), bytes);
    assert.equal(result.outcome?.result, 'done', result.outcome?.message);
    assert.equal(await text(t, engineering, file.id), 'version,date\n7,sunday\n');
    const now = await t.client.v2.files.get(acme, engineering, file.id);
    assert.equal(now.versions, (file.versions ?? 0) + 1, 'a new version of the same record');

    const lines = fs
      .readFileSync(path.join(storage, 'saves', 'journal', `${result.applyId}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => l.type),
      ['begin', 'intent', 'outcome', 'end'],
    );
    const begin = lines[0] as { kind: string; title: string; work: Array<{ digest: string; size: number }> };
    assert.equal(begin.kind, 'saves');
    assert.equal(begin.title, 'Save releases.csv back to Engineering');
    assert.equal(begin.work[0]?.digest, digestOf(bytes), 'the journal names the bytes sent by their digest');
    assert.deepEqual(lines[1]?.before, { lastModified: file.lastModified, versions: file.versions });
    assert.deepEqual(fs.readdirSync(path.join(storage, 'saves', 'staged')), [], 'the staged copy is removed');

    const history = await saveHistory(storage);
    assert.equal(history.length, 1);
    assert.equal(history[0]?.state, 'saved');
    assert.equal(history[0]?.record.begin.title, 'Save releases.csv back to Engineering');
    const offer = new SaveKind(t.client, { accountId: acme, groupId: engineering }, '', result.applyId, null).undo();
    assert.ok('notOffered' in offer && /cannot be undone/.test(offer.notOffered), 'no undo, and it says why');
    assert.deepEqual(await listJournals(uploadJournal, path.join(storage, 'saves')), [], 'no other kind reads it');
    file = now;
  });

  void test('a save interrupted before it finished is closed as not sent again, and its staged bytes go', async () => {
    const storage = storageFolder();
    const staged = path.join(storage, 'saves', 'staged');
    fs.mkdirSync(staged, { recursive: true });
    const name = `${'ab'.repeat(16)}.bin`;
    const bytes = Buffer.from('version,date\n8,never sent\n');
    fs.writeFileSync(path.join(staged, name), bytes);
    const st = fs.statSync(path.join(staged, name));
    // A run that wrote its first line and its intent, then stopped (a crash): no outcome, no end.
    const journal = await Journal.create(saveJournal, path.join(storage, 'saves'), {
      accountId: acme,
      portalId: 'p',
      origin: 'save',
      startedAt: Date.now(),
      groupId: engineering,
      where: 'Engineering',
      title: 'Save releases.csv back to Engineering',
      work: [
        {
          seq: 0,
          recordId: file.id,
          folderId: 0,
          name: file.name,
          contentType: file.contentType,
          size: bytes.length,
          digest: digestOf(bytes),
          staged: name,
          identity: { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs },
        },
      ],
    });
    await journal.append({ type: 'intent', seq: 0, before: null, requests: [{ uploadId: `${journal.applyId}-0` }] });
    await journal.close();
    assert.equal((await saveHistory(storage))[0]?.state, 'interrupted');

    await settleInterruptedSaves(storage);
    const [past] = await saveHistory(storage);
    assert.equal(past?.state, 'interrupted', 'still said to be interrupted, never as saved');
    assert.match(past?.message ?? '', /not sent again/);
    assert.equal(past?.record.unfinished, false, 'closed: nothing offers it again');
    assert.deepEqual(fs.readdirSync(staged), [], 'its staged bytes are removed');
    assert.notEqual(await text(t, engineering, file.id), bytes.toString('utf8'), 'nothing was sent');
  });

  void test('a portal without the upload endpoints: the save fails with its error, journaled as failed', async () => {
    const literal = await emulator({ profile: 'literal' });
    const lt = await passwordClient(literal);
    try {
      const storage = storageFolder();
      const a = await accountId(lt.client, 'acme');
      const g = await groupId(lt.client, a, 'engineering');
      const record = (await collect(lt.client.v2.files.iterate(a, g))).find((f) => f.name === 'releases.csv');
      assert.ok(record);
      const result = await runSave(
        lt.client,
        storage,
        { ...planOf(record), accountId: a, groupId: g },
        Buffer.from('x'),
      );
      assert.equal(result.outcome?.result, 'failed');
      assert.ok(refusesUploads(result.error), 'the portal’s own error, for the file system to word');
      assert.equal((await saveHistory(storage))[0]?.state, 'failed');
    } finally {
      lt.client.close();
      await literal.stop();
    }
  });
});
