// An upload sends what its plan showed, against the emulator: a file swapped for a link, or for other bytes of the
// same size, after the plan is a failed unit with its reason and the portal never receives those bytes; a journal
// whose file lies outside its root is refused at resume, before anything is sent; a resume holds each file to the
// identity its plan pinned.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { collect } from '../../../../src/api';
import { Journal } from '../../../../src/engine/journalFile';
import { uploadJournal } from '../../../../src/engine/uploads/journalSchema';
import type { UploadUnit } from '../../../../src/engine/uploads/kind';
import { planUpload, type UploadPlan, type UploadTargetRef } from '../../../../src/engine/uploads/plan';
import {
  ResumeRefused,
  resumeUploads,
  runUploads,
  unfinishedUploads,
  type UploadResult,
} from '../../../../src/engine/uploads/run';
import { unitsOf } from '../../../../src/engine/uploads/units';
import { identify } from '../../../../src/node/pinnedFile';
import { accountId, emulator, groupId, passwordClient, type Emulator, type TestClient } from '../../api/helpers';
import { tempDir } from '../../../support/tempDir';

/** What stands for a private key: bytes that must never reach the portal. */
const SECRET = '-----BEGIN OPENSSH PRIVATE KEY----- pinned-test-secret';

void describe('uploads send what their plan showed', () => {
  let emu: Emulator;
  let t: TestClient;
  let target: UploadTargetRef;
  let scratch: string;
  let blobs: string;
  let secret: string;
  let storage: string;

  before(async () => {
    scratch = tempDir('upload-pinned-');
    // With a data file the emulator keeps every chunk it receives beside it, where the test can look.
    const dataFile = path.join(scratch, 'portal.json');
    blobs = `${dataFile}.blobs`;
    emu = await emulator({ dataFile });
    t = await passwordClient(emu);
    const acme = await accountId(t.client, 'acme');
    target = { portalId: 'p', accountId: acme, groupId: await groupId(t.client, acme, 'social'), folderId: 0 };
    secret = path.join(scratch, 'id_rsa');
    fs.writeFileSync(secret, SECRET);
    storage = path.join(scratch, 'storage');
  });
  after(async () => {
    t.client.close();
    await emu.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const names = async (): Promise<string[]> =>
    (await collect(t.client.v2.files.iterate(target.accountId, target.groupId, { recursive: true, size: 100 }))).map(
      (f) => f.name,
    );

  /** True when any chunk the portal received, kept or not, holds `text`. */
  const received = (text: string): boolean =>
    fs.existsSync(blobs) &&
    fs
      .readdirSync(blobs, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .some((e) => fs.readFileSync(path.join(e.parentPath, e.name)).includes(text));

  function folderWith(name: string, files: Record<string, string>): string {
    const folder = path.join(scratch, name);
    fs.mkdirSync(folder, { recursive: true });
    for (const [n, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, n), text);
    return folder;
  }

  const failures = (r: UploadResult): Map<string, string> =>
    new Map(
      r.units.flatMap((u) => {
        const o = r.outcomes.get(u.seq);
        return o?.result === 'failed' ? [[u.path, o.message] as const] : [];
      }),
    );

  void test('a file swapped for a link after the plan is not sent: the unit fails with its reason', async () => {
    const folder = folderWith('swap-link', { 'notes.txt': 'my notes\n', 'other.txt': 'other\n' });
    const plan = await planUpload(target, [folder], new Map());
    // Between the plan and Upload: notes.txt becomes a link to the private key.
    fs.rmSync(path.join(folder, 'notes.txt'));
    fs.symlinkSync(secret, path.join(folder, 'notes.txt'));
    const result = await runUploads(t.client, plan, unitsOf(plan, new Map()), { storageFolder: storage });
    assert.match(failures(result).get('swap-link/notes.txt') ?? '', /changed since the upload was planned.*link/);
    assert.equal(result.outcomes.size, 2);
    const landed = await names();
    assert.ok(landed.includes('other.txt'), 'the unchanged file is sent');
    assert.ok(!landed.includes('notes.txt'), 'no record under the swapped name');
    assert.ok(!received(SECRET), 'the portal never received the link target’s bytes');
  });

  void test('a file replaced by other bytes of the same size after the plan is a failed unit', async () => {
    const folder = folderWith('swap-bytes', { 'renamed.txt': 'planned A\n', 'rewritten.txt': 'planned B\n' });
    const plan = await planUpload(target, [folder], new Map());
    // Another file renamed into place (a new inode), and the same file rewritten in place (a new mtime).
    fs.writeFileSync(path.join(folder, 'new.tmp'), 'SWAPPED A\n');
    fs.renameSync(path.join(folder, 'new.tmp'), path.join(folder, 'renamed.txt'));
    fs.writeFileSync(path.join(folder, 'rewritten.txt'), 'SWAPPED B\n');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(folder, 'rewritten.txt'), later, later);
    const result = await runUploads(t.client, plan, unitsOf(plan, new Map()), { storageFolder: storage });
    const failed = failures(result);
    assert.match(failed.get('swap-bytes/renamed.txt') ?? '', /another file took its place/);
    assert.match(failed.get('swap-bytes/rewritten.txt') ?? '', /it was modified/);
    const landed = await names();
    assert.ok(!landed.includes('renamed.txt') && !landed.includes('rewritten.txt'));
    assert.ok(!received('SWAPPED'), 'none of the other bytes reached the portal');
  });

  /** An upload journal as a run cut off before its first file leaves it: its first line only. */
  async function cutOffJournal(begin: object): Promise<void> {
    const journal = await Journal.create(uploadJournal, path.join(storage, 'uploads'), {
      accountId: target.accountId,
      portalId: target.portalId,
      origin: 'upload',
      startedAt: Date.now(),
      target,
      ...begin,
    } as never);
    await journal.close();
  }

  /** A plan's journal, cut off, with its units as `edit` makes them. */
  const cutOff = (plan: UploadPlan, edit: (u: UploadUnit) => UploadUnit = (u) => u): Promise<void> =>
    cutOffJournal({ root: plan.root, targetName: 'Social Club', work: unitsOf(plan, new Map()).map(edit) });

  void test('a journal whose file lies outside its root is refused at resume, and nothing is sent', async () => {
    const folder = folderWith('outside-root', { 'report.txt': 'report\n' });
    const plan = await planUpload(target, [folder], new Map());
    const identity = await identify(secret);
    // Edited to name the key with its true identity: only the root stands in the way. Once straight, once by "..".
    for (const localPath of [secret, `${folder}${path.sep}..${path.sep}id_rsa`]) {
      await cutOff(plan, (u) => ({ ...u, path: 'outside-root/id_rsa', localPath, size: identity.size, identity }));
      const [stale] = await unfinishedUploads(storage);
      assert.ok(stale, 'the edited journal is offered');
      await assert.rejects(resumeUploads(t.client, stale, { storageFolder: storage }), ResumeRefused);
      assert.equal((await unfinishedUploads(storage)).length, 1, 'still unfinished: nothing of it ran');
      fs.rmSync(stale.file);
    }
    assert.ok(!(await names()).includes('id_rsa'));
    assert.ok(!received(SECRET));
  });

  void test('a resume re-pins each file: one changed since its plan is a failed unit, the rest are sent', async () => {
    const folder = folderWith('resume-pinned', { 'kept.txt': 'kept\n', 'swapped.txt': 'swapped\n' });
    const plan = await planUpload(target, [folder], new Map());
    await cutOff(plan);
    fs.rmSync(path.join(folder, 'swapped.txt'));
    fs.symlinkSync(secret, path.join(folder, 'swapped.txt'));
    const [stale] = await unfinishedUploads(storage);
    assert.ok(stale);
    const result = await resumeUploads(t.client, stale, { storageFolder: storage });
    assert.match(failures(result).get('resume-pinned/swapped.txt') ?? '', /link/);
    const landed = await names();
    assert.ok(landed.includes('kept.txt') && !landed.includes('swapped.txt'));
    assert.ok(!received(SECRET));
  });

  void test('a journal from before files were pinned is not offered for resume', async () => {
    const folder = folderWith('unpinned', { 'old.txt': 'old\n' });
    await cutOffJournal({
      work: [{ seq: 0, path: 'old.txt', localPath: path.join(folder, 'old.txt'), size: 4, contentType: 'text/plain' }],
    });
    assert.deepEqual(await unfinishedUploads(storage), []);
  });
});
