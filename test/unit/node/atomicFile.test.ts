// A file written atomically is complete or absent: never a partial target, never a temporary file left behind,
// and an existing file kept unless replacing was asked for.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { exists, LengthMismatchError, TEMP_PREFIX, writeAtomically } from '../../../src/node/atomicFile';
import { tempDir } from '../../support/tempDir';

const scratch = tempDir('portal-atomic-');
after(() => fs.rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const folder = (): string => fs.mkdtempSync(path.join(scratch, `t${n++}-`));
const leftovers = (dir: string): string[] => fs.readdirSync(dir).filter((f) => f.startsWith(TEMP_PREFIX));

async function* chunks(...parts: string[]): AsyncIterable<string> {
  for (const p of parts) yield p;
}

void test('writes the bytes and counts them as they arrive; no temporary file is left', async () => {
  const dir = folder();
  const target = path.join(dir, 'a.txt');
  let counted = 0;
  const result = await writeAtomically(target, chunks('hello ', 'world'), {
    replace: false,
    expectedBytes: 11,
    onBytes: (c) => (counted += c),
  });
  assert.equal(result, 'written');
  assert.equal(fs.readFileSync(target, 'utf8'), 'hello world');
  assert.equal(counted, 11);
  assert.deepEqual(leftovers(dir), []);
});

void test('an existing file is kept unless replace is asked for', async () => {
  const dir = folder();
  const target = path.join(dir, 'a.txt');
  fs.writeFileSync(target, 'old');
  assert.equal(await writeAtomically(target, chunks('new'), { replace: false }), 'exists');
  assert.equal(fs.readFileSync(target, 'utf8'), 'old');
  assert.equal(await writeAtomically(target, chunks('new'), { replace: true }), 'written');
  assert.equal(fs.readFileSync(target, 'utf8'), 'new');
  assert.deepEqual(leftovers(dir), []);
});

void test('fewer bytes than announced: a LengthMismatchError, no target, no temporary file', async () => {
  const dir = folder();
  const target = path.join(dir, 'short.bin');
  await assert.rejects(writeAtomically(target, chunks('abc'), { replace: false, expectedBytes: 10 }), (e: unknown) => {
    assert.ok(e instanceof LengthMismatchError);
    assert.equal(e.received, 3);
    assert.equal(e.expected, 10);
    return true;
  });
  assert.equal(await exists(target), false);
  assert.deepEqual(leftovers(dir), []);
});

void test('a source that fails midway, or an abort: the target untouched, no temporary file', async () => {
  const dir = folder();
  const target = path.join(dir, 'kept.txt');
  fs.writeFileSync(target, 'before');
  const failing = Readable.from(
    (async function* () {
      yield 'part';
      throw new Error('connection lost');
    })(),
  );
  await assert.rejects(writeAtomically(target, failing, { replace: true }), /connection lost/);
  assert.equal(fs.readFileSync(target, 'utf8'), 'before');

  const controller = new AbortController();
  const endless = Readable.from(
    (async function* () {
      for (;;) {
        yield 'x';
        controller.abort();
        await new Promise((resolve) => setImmediate(resolve));
      }
    })(),
  );
  await assert.rejects(writeAtomically(target, endless, { replace: true, signal: controller.signal }), {
    name: 'AbortError',
  });
  assert.equal(fs.readFileSync(target, 'utf8'), 'before');
  assert.deepEqual(leftovers(dir), []);
});

void test('exists: a file or a dangling link exists, a missing name does not', async () => {
  const dir = folder();
  assert.equal(await exists(path.join(dir, 'nothing')), false);
  fs.writeFileSync(path.join(dir, 'f'), '');
  assert.equal(await exists(path.join(dir, 'f')), true);
  fs.symlinkSync(path.join(dir, 'missing-target'), path.join(dir, 'link'));
  assert.equal(await exists(path.join(dir, 'link')), true);
});
