// The door to the disk: no link is followed where it writes, modes are exact, and paths stay inside their root.
import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import {
  appendPrivate,
  appendPrivateSync,
  insideRoot,
  privateTempFolder,
  sweepTempFolders,
  UnsafePathError,
  writeFileSafely,
} from '../../../src/node/disk';
import { privateFolder, privateFolderSync } from '../../../src/node/privateFiles';
import { tempDir } from '../../support/tempDir';

let dir: string;
let victim: string;
const VICTIM_TEXT = 'export PATH=/usr/bin\n';

beforeEach(() => {
  dir = tempDir('portal-disk-');
  victim = join(dir, 'outside', '.bashrc');
  fs.mkdirSync(join(dir, 'outside'));
  fs.writeFileSync(victim, VICTIM_TEXT, { mode: 0o644 });
  fs.mkdirSync(join(dir, 'work'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;
const untouched = (): void => {
  assert.equal(fs.readFileSync(victim, 'utf8'), VICTIM_TEXT);
  assert.equal(modeOf(victim), 0o644);
};

void describe('the door to the disk: writes', () => {
  void test('a whole-file write refuses a link at the target, replace or not, and the linked file is untouched', async () => {
    const target = join(dir, 'work', 'starters.portal-mapping.json');
    fs.symlinkSync(victim, target);
    await assert.rejects(writeFileSafely(target, '{"x":1}', { replace: true }), (e: unknown) => {
      assert.ok(e instanceof UnsafePathError);
      assert.equal(e.reason, 'link');
      return true;
    });
    assert.equal(await writeFileSafely(target, '{"x":1}', { replace: false }), 'exists');
    untouched();
    assert.ok(fs.lstatSync(target).isSymbolicLink(), 'the link itself is left for the user to see');
    assert.deepEqual(
      fs.readdirSync(join(dir, 'work')).filter((n) => n.startsWith('.portal-')),
      [],
      'no temporary file is left behind',
    );
  });

  void test('a whole-file write is 0600 whatever the umask, and replaces a regular file', async () => {
    const target = join(dir, 'work', 'members.csv');
    fs.writeFileSync(target, 'old', { mode: 0o644 });
    const umask = process.umask(0o000);
    try {
      assert.equal(await writeFileSafely(target, 'new', { replace: true }), 'written');
    } finally {
      process.umask(umask);
    }
    assert.equal(fs.readFileSync(target, 'utf8'), 'new');
    assert.equal(modeOf(target), 0o600);
  });

  void test('an append refuses a link, async and sync, and makes a 0600 file otherwise', async () => {
    const journal = join(dir, 'work', 'apply.jsonl');
    fs.symlinkSync(victim, journal);
    await assert.rejects(appendPrivate(journal, 'line\n'), UnsafePathError);
    assert.throws(() => appendPrivateSync(journal, 'line\n'), UnsafePathError);
    untouched();
    fs.rmSync(journal);
    await appendPrivate(journal, 'a\n');
    appendPrivateSync(journal, 'b\n');
    assert.equal(fs.readFileSync(journal, 'utf8'), 'a\nb\n');
    assert.equal(modeOf(journal), 0o600);
  });

  void test('a private folder that is a link is refused, and its target keeps its mode', async () => {
    const folder = join(dir, 'work', 'journal');
    fs.symlinkSync(join(dir, 'outside'), folder);
    const before = modeOf(join(dir, 'outside'));
    await assert.rejects(privateFolder(folder), UnsafePathError);
    assert.throws(() => privateFolderSync(folder), UnsafePathError);
    assert.equal(modeOf(join(dir, 'outside')), before);
    const real = await privateFolder(join(dir, 'work', 'reports'));
    assert.equal(modeOf(real), 0o700);
  });
});

void describe('the door to the disk: roots and temporary folders', () => {
  void test('insideRoot refuses .. and a link leading out, and accepts a path not made yet', async () => {
    const root = join(dir, 'work');
    assert.equal(await insideRoot(root, join(root, 'a', 'b.json')), join(fs.realpathSync(root), 'a', 'b.json'));
    await assert.rejects(insideRoot(root, join(root, '..', 'outside', '.bashrc')), UnsafePathError);
    // A staged drop named `dropped-files/../../Documents/x` passed a startsWith check.
    await assert.rejects(insideRoot(join(root, 'dropped'), join(root, 'dropped-files', 'x')), UnsafePathError);
    fs.symlinkSync(join(dir, 'outside'), join(root, 'escape'));
    await assert.rejects(insideRoot(root, join(root, 'escape', '.bashrc')), UnsafePathError);
  });

  void test('a private temporary folder is 0700, removed by dispose, and swept after a crash', async () => {
    const parent = join(dir, 'work', 'tmp');
    const a = await privateTempFolder(parent, 'xlsx-');
    const b = await privateTempFolder(parent, 'xlsx-');
    assert.equal(modeOf(a.folder), 0o700);
    fs.writeFileSync(join(b.folder, 'spool'), 'x');
    await a.dispose();
    assert.equal(fs.existsSync(a.folder), false);
    assert.equal(await sweepTempFolders(parent, 'xlsx-'), 1);
    assert.deepEqual(fs.readdirSync(parent), []);
  });
});
