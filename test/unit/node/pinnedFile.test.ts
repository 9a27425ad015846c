// A pinned file: opened without following a link, read only through its handle, and checked before each chunk (and
// before a chunk's last bytes leave), so bytes changed between chunks are refused, never sent.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { text } from 'node:stream/consumers';
import { FileChangedError, fileInsideRoot, identify, pin } from '../../../src/node/pinnedFile';
import { UnsafePathError } from '../../../src/node/unsafePath';
import { tempDir } from '../../support/tempDir';

const dir = tempDir('portal-pinned-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const changesOf = (e: unknown): readonly string[] => (e instanceof FileChangedError ? e.changes : []);

void test('a link is refused at the open; expected to be a file, it is a change named "link"', async () => {
  const file = path.join(dir, 'target.txt');
  fs.writeFileSync(file, 'target\n');
  const link = path.join(dir, 'link.txt');
  fs.symlinkSync(file, link);
  await assert.rejects(pin(link), (e) => e instanceof UnsafePathError && e.reason === 'link');
  await assert.rejects(pin(link, await identify(file)), (e) => changesOf(e).includes('link'));
  await assert.rejects(pin(dir), (e) => e instanceof UnsafePathError && e.reason === 'not-a-file');
});

void test('bytes changed between two chunks: the next chunk is refused, by read and by stream', async () => {
  const file = path.join(dir, 'chunks.txt');
  fs.writeFileSync(file, 'aaaabbbb');
  const pinned = await pin(file, await identify(file));
  try {
    assert.equal((await pinned.read(0, 4, Buffer.alloc(4))).toString(), 'aaaa');
    assert.equal(await text(pinned.stream(0, 4)), 'aaaa');
    fs.writeFileSync(file, 'aaaaXXXX');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later);
    await assert.rejects(pinned.read(4, 8, Buffer.alloc(4)), (e) => changesOf(e).includes('mtime'));
    await assert.rejects(text(pinned.stream(4, 8)), FileChangedError);
    assert.ok(pinned.change, 'the change is remembered for the reader of a broken stream');
  } finally {
    await pinned.close();
  }
});

void test('the path swapped for a link while the handle is open is a change, though the handle still reads the old file', async () => {
  const file = path.join(dir, 'swapped.txt');
  fs.writeFileSync(file, 'planned\n');
  const secret = path.join(dir, 'secret');
  fs.writeFileSync(secret, 'secret!\n');
  const pinned = await pin(file);
  try {
    fs.rmSync(file);
    fs.symlinkSync(secret, file);
    await assert.rejects(text(pinned.stream(0, 8)), (e) => changesOf(e).includes('link'));
  } finally {
    await pinned.close();
  }
});

void test('a file is held to its root by its folder: ".." leads out, a link at its end does not', async () => {
  const root = path.join(dir, 'root');
  fs.mkdirSync(root);
  fs.symlinkSync(path.join(dir, 'secret'), path.join(root, 'link'));
  assert.equal(await fileInsideRoot(root, path.join(root, 'link')), path.join(fs.realpathSync(root), 'link'));
  await assert.rejects(fileInsideRoot(root, `${root}${path.sep}..${path.sep}secret`), UnsafePathError);
  await assert.rejects(fileInsideRoot(root, `${root}${path.sep}..`), UnsafePathError);
  await assert.rejects(fileInsideRoot(root, path.join(dir, 'secret')), UnsafePathError);
});
