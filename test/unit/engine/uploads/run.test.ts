// Uploads as the engine's second kind, against the emulator: a plan (clashes, refused names, empty folders), a run,
// and a run cut off by a closed client (a reload) then resumed: no file twice, none lost.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { collect, type FileRecord } from '../../../../src/api';
import { planUpload } from '../../../../src/engine/uploads/plan';
import { tryLock } from '../../../../src/node/fileLock';
import { resumeUploads, runUploads, unfinishedUploads } from '../../../../src/engine/uploads/run';
import { unitsOf } from '../../../../src/engine/uploads/units';
import { groupId, passwordClient, signedInSuite } from '../../api/helpers';
import { tempDir } from '../../../support/tempDir';
import { waitFor } from '../../../support/wait';

function tree(root: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), text);
  }
}

void describe('uploads through the engine', () => {
  const s = signedInSuite(async ({ t, acme }) => ({
    target: { portalId: 'p', accountId: acme, groupId: await groupId(t.client, acme, 'social'), folderId: 0 },
    scratch: tempDir('upload-engine-'),
  }));
  after(() => fs.rmSync(s.scratch, { recursive: true, force: true }));

  const records = async (): Promise<FileRecord[]> =>
    collect(s.t.client.v2.files.iterate(s.target.accountId, s.target.groupId, { recursive: true, size: 100 }));

  void test('the plan counts files, folders and bytes, lists each clash, and refuses what the portal cannot hold', async () => {
    const local = path.join(s.scratch, 'plan');
    tree(local, { 'a.txt': 'a', 'sub/b.txt': 'bb', 'sub/$(zap).txt': 'x', 'sub/[x](command:y).md': 'x' });
    fs.mkdirSync(path.join(local, 'empty'));
    const index = new Map([['/plan/a.txt', 42]]);
    const plan = await planUpload(s.target, [local], index);
    assert.deepEqual(plan.files.map((f) => f.path).sort(), ['plan/a.txt', 'plan/sub/b.txt']);
    assert.equal(plan.files.find((f) => f.path === 'plan/a.txt')?.existingId, 42);
    assert.deepEqual([...plan.folders].sort(), ['plan', 'plan/sub']);
    assert.equal(plan.bytes, 3);
    assert.deepEqual(plan.refused.map((r) => [r.path, r.reason]).sort(), [
      ['plan/empty', 'empty-folder'],
      ['plan/sub/$(zap).txt', 'markup'],
      ['plan/sub/[x](command:y).md', 'markup'],
    ]);
    // A clash is skipped unless chosen otherwise; keep both takes a free name.
    assert.deepEqual(
      unitsOf(plan, new Map()).map((u) => u.path),
      ['plan/sub/b.txt'],
    );
    const both = unitsOf(plan, new Map([['plan/a.txt', 'keep-both']]));
    assert.deepEqual(both.map((u) => u.path).sort(), ['plan/a (1).txt', 'plan/sub/b.txt']);
    assert.equal(unitsOf(plan, new Map([['plan/a.txt', 'version']]))[0]?.replaceId, 42);
  });

  void test('a run uploads every file with its bytes; a clash chosen as a new version replaces that record', async () => {
    const local = path.join(s.scratch, 'run');
    tree(local, { 'one.txt': 'first', 'deep/two.txt': 'second' });
    const planned = await planUpload(s.target, [local], new Map());
    const first = await runUploads(s.t.client, planned, unitsOf(planned, new Map()), { storageFolder: s.scratch });
    assert.equal([...first.outcomes.values()].filter((o) => o.result === 'done').length, 2);
    fs.writeFileSync(path.join(local, 'one.txt'), 'first, again');
    const index = await s.t.client.uploads.index(s.target);
    const plan = await planUpload(s.target, [local], index);
    const units = unitsOf(plan, new Map([['run/one.txt', 'version']]));
    assert.equal(units.length, 1, 'the other clash is skipped by default');
    await runUploads(s.t.client, plan, units, { storageFolder: s.scratch });
    const one = (await records()).filter((f) => f.name === 'one.txt');
    assert.equal(one.length, 1);
    assert.equal((await s.t.client.v2.files.get(s.target.accountId, s.target.groupId, one[0]?.id ?? 0)).versions, 2);
  });

  void test('cut off halfway by a closed client, then resumed: every file once, none lost', async () => {
    const local = path.join(s.scratch, 'resume');
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`f${String(i).padStart(2, '0')}.txt`] = `file ${i}`;
    tree(local, files);
    const plan = await planUpload(s.target, [local], new Map());
    const units = unitsOf(plan, new Map());
    const cut = await passwordClient(s.emu);
    // The complete call's answer is slow, so the close lands while some have been made on the portal: those files
    // are there, though their outcome never reached the journal.
    const complete = `/v2/accounts/${s.target.accountId}/groups/${s.target.groupId}/files/upload/complete`;
    s.emu.setFaults([{ kind: 'slow-body', delayMs: 300, path: complete }]);
    let finished = 0;
    const cutRun = await runUploads(cut.client, plan, units, {
      storageFolder: s.scratch,
      concurrency: 4,
      onProgress: () => {
        if (++finished === 18) cut.client.close();
      },
    });
    assert.ok(
      [...cutRun.outcomes.values()].some((o) => o.unconfirmed),
      'some files were cut off under way',
    );
    const before = (await records()).filter((f) => /^f\d\d\.txt$/.test(f.name)).length;
    assert.ok(before > 18 && before < 40, `${before} files landed before the resume: some unconfirmed, some not sent`);
    await waitFor(() => s.emu.stats().inFlight === 0, 'the portal has answered every request of the closed client');
    s.emu.clearFaults();
    const [stopped] = await unfinishedUploads(s.scratch);
    assert.ok(stopped, 'the run is left unfinished');
    // Held by another window (its lock taken), the same run is running there, and not offered here.
    const held = await tryLock(stopped.file);
    assert.ok(held);
    assert.deepEqual(await unfinishedUploads(s.scratch), [], 'a run another window holds is not offered');
    await held.release();
    const resumed = await resumeUploads(s.t.client, stopped, { storageFolder: s.scratch });
    assert.ok([...resumed.outcomes.values()].every((o) => o.result === 'done'));
    assert.deepEqual(await unfinishedUploads(s.scratch), []);
    const landed = (await records()).filter((f) => /^f\d\d\.txt$/.test(f.name));
    assert.equal(landed.length, 40, 'none lost, none twice');
    assert.equal(new Set(landed.map((f) => f.name)).size, 40);
  });
});
