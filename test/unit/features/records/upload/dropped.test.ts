// Files dropped without a path (an OS drop into VS Code in a browser) as the upload reads them: staged 0600 in 0700,
// only plain file names, and kept exactly as long as an upload may still read them.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Journal } from '../../../../../src/engine/journalFile';
import { uploadJournal } from '../../../../../src/engine/uploads/journalSchema';
import { planUpload } from '../../../../../src/engine/uploads/plan';
import { discardUploads, unfinishedUploads } from '../../../../../src/engine/uploads/run';
import { unitsOf } from '../../../../../src/engine/uploads/units';
import { releaseStaged, stageDropped, stagedFoldersOf } from '../../../../../src/features/records/upload/dropped';
import { tempDir } from '../../../../support/tempDir';

const storage = tempDir('portal-dropped-');
after(() => fs.rmSync(storage, { recursive: true, force: true }));
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const mode = (p: string): number => fs.statSync(p).mode & 0o777;

void test('dropped files are staged 0600 in a 0700 folder of their own; a name that is no plain file name, or twice, is left out', async () => {
  const staged = await stageDropped(storage, [
    { name: 'brief.md', bytes: bytes('# brief\n') },
    { name: '..', bytes: bytes('x') },
    { name: '../escape.txt', bytes: bytes('x') },
    { name: 'a\\b.txt', bytes: bytes('x') },
    { name: 'BRIEF.md', bytes: bytes('again') },
    { name: 'empty.txt', bytes: new Uint8Array() },
  ]);
  assert.deepEqual(
    staged.paths.map((p) => path.relative(staged.folder, p)),
    ['brief.md', 'empty.txt'],
  );
  assert.deepEqual(staged.refused, ['..', '../escape.txt', 'a\\b.txt', 'BRIEF.md']);
  assert.equal(fs.readFileSync(staged.paths[0] ?? '', 'utf8'), '# brief\n');
  assert.equal(mode(staged.folder), 0o700);
  assert.equal(mode(path.dirname(staged.folder)), 0o700);
  for (const p of staged.paths) assert.equal(mode(p), 0o600, p);
  assert.ok(!fs.existsSync(path.join(path.dirname(staged.folder), 'escape.txt')), 'nothing written outside');
  await releaseStaged(storage, [staged.folder]);
  assert.ok(!fs.existsSync(staged.folder), 'with no upload left to read them, the copies go');
});

/** Files under `folder`, by path below it. */
const filesUnder = (folder: string): string[] =>
  fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

/** An upload journal as a run cut off by a reload leaves it: its plan recorded, no file's outcome yet. */
async function cutOffUpload(paths: string[], work?: (units: object[]) => object[]): Promise<void> {
  const plan = await planUpload({ portalId: 'p', accountId: 1, groupId: 2, folderId: 0 }, paths, new Map());
  const units = unitsOf(plan, new Map());
  const journal = await Journal.create(uploadJournal, path.join(storage, 'uploads'), {
    accountId: 1,
    portalId: 'p',
    origin: 'upload',
    startedAt: 0,
    target: plan.target,
    root: plan.root,
    targetName: 'Social Club',
    work: work ? work(units) : units,
  } as never);
  await journal.close();
}

void test('a staged folder an unfinished upload reads from stays until that upload is resumed or left', async () => {
  const staged = await stageDropped(storage, [{ name: 'note.txt', bytes: bytes('note\n') }]);
  const local = staged.paths[0] ?? '';
  // An upload cut off (a reload) before its end: its journal names the staged copy.
  await cutOffUpload([local]);
  await releaseStaged(storage, [staged.folder]);
  assert.equal(fs.readFileSync(local, 'utf8'), 'note\n', 'kept for the resume');
  const [record] = await unfinishedUploads(storage);
  assert.ok(record);
  assert.deepEqual(await stagedFoldersOf(storage, record), [fs.realpathSync(staged.folder)]);
  await discardUploads(record);
  await releaseStaged(storage, await stagedFoldersOf(storage, record));
  assert.ok(!fs.existsSync(staged.folder), 'left: the copies go');
});

void test('a journal naming a staged path with ".." leads out of the staging folder: Leave It removes nothing there', async () => {
  const staged = await stageDropped(storage, [{ name: 'mine.txt', bytes: bytes('mine\n') }]);
  // What the journal's edited path leads to: a folder of the user's beside the extension's storage.
  const documents = tempDir('portal-documents-');
  fs.writeFileSync(path.join(documents, 'x'), 'the user’s own\n');
  // Joined by hand: path.join would resolve the "..", and the journal holds them as written.
  const outside = [storage, 'dropped-files', '..', '..', path.basename(documents)].join(path.sep);
  const escape = `${outside}${path.sep}x`;
  assert.ok(escape.startsWith(path.join(storage, 'dropped-files')), 'the old check took it for a staged file');
  await cutOffUpload(staged.paths, (units) => units.map((u) => ({ ...u, localPath: escape })));
  const [record] = await unfinishedUploads(storage);
  assert.ok(record, 'the edited journal is offered');
  // Leave It, as the offer does it: the upload discarded, then the staged folders it names released.
  await discardUploads(record);
  await releaseStaged(storage, await stagedFoldersOf(storage, record));
  await releaseStaged(storage, [outside]);
  assert.ok(fs.existsSync(documents), 'the folder outside is still there');
  assert.deepEqual(filesUnder(documents), ['x'], 'nothing outside the staging folder was removed');
  assert.deepEqual(await stagedFoldersOf(storage, record), [], 'it names no staged folder');
  fs.rmSync(documents, { recursive: true, force: true });
  await releaseStaged(storage, [staged.folder]);
});
