// The observed upload endpoints, through the client, against the emulator: chunked uploads, new versions, the
// index, faults on single chunks, and a literal portal that has none of them.
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collect } from '../../../../src/api';
import { CHUNK_BYTES, refusesUploads, type UploadSource } from '../../../../src/api/endpoints/uploads';
import { emulator, groupId, passwordClient, type TestClient, signedInSuite } from '../helpers';
import { accountId } from '../helpers';

function source(bytes: Buffer): UploadSource {
  return {
    size: bytes.length,
    contentType: 'application/octet-stream',
    read: (start, end) => Promise.resolve(bytes.subarray(start, end)),
  };
}

/** A source on disk as the engine makes one: each chunk streamed from the file as it is sent. */
function streamed(bytes: Buffer): UploadSource & { readonly opened: number[] } {
  const opened: number[] = [];
  return {
    opened,
    size: bytes.length,
    contentType: 'application/octet-stream',
    stream: (start, end) => {
      opened.push(start);
      return Readable.from([bytes.subarray(start, end)]);
    },
    read: () => Promise.reject(new Error('a streamed source is never read into a buffer')),
  };
}

async function downloaded(t: TestClient, group: number, id: number): Promise<Buffer> {
  const d = await t.client.v2.files.download(group, id);
  const parts: Buffer[] = [];
  for await (const c of d.body as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
}

const noWait = (): Promise<void> => Promise.resolve();

void describe('uploads (observed endpoints)', () => {
  const s = signedInSuite(async ({ t, acme }) => ({ social: await groupId(t.client, acme, 'social') }));

  void test('a file of three chunks lands with its bytes, in folders made along its path', async () => {
    const bytes = Buffer.alloc(2 * CHUNK_BYTES + 123);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
    const progress: number[] = [];
    const record = await s.t.client.uploads.upload(
      { accountId: s.acme, groupId: s.social, folderId: 0, path: 'new/deeper/big.bin' },
      source(bytes),
      { uploadId: 'u-big', onBytes: (n) => progress.push(n) },
    );
    assert.ok(record);
    assert.equal(record.size, bytes.length);
    assert.equal(progress.at(-1), bytes.length);
    assert.ok((await downloaded(s.t, s.social, record.id)).equals(bytes));
    const index = await s.t.client.uploads.index({ accountId: s.acme, groupId: s.social, folderId: 0 });
    assert.equal(index.get('/new/deeper/big.bin'), record.id);
    assert.ok(index.has('/new/deeper'));
  });

  void test('replace by id: the same record, a new version, new bytes, a later lastModified', async () => {
    const first = await s.t.client.uploads.upload(
      { accountId: s.acme, groupId: s.social, folderId: 0, path: 'notes.txt' },
      source(Buffer.from('one')),
      { uploadId: 'u-1' },
    );
    assert.ok(first);
    const second = await s.t.client.uploads.upload(
      { accountId: s.acme, groupId: s.social, folderId: 0, path: 'notes.txt' },
      source(Buffer.from('two!')),
      { uploadId: 'u-2', replaceId: first.id },
    );
    assert.equal(second?.id, first.id);
    assert.ok((second?.lastModified ?? 0) > (first.lastModified ?? 0));
    const detail = await s.t.client.v2.files.get(s.acme, s.social, first.id);
    assert.equal(detail.versions, 2);
    assert.equal((await downloaded(s.t, s.social, first.id)).toString(), 'two!');
  });

  void test('an empty file uploads as one empty chunk', async () => {
    const r = await s.t.client.uploads.upload(
      { accountId: s.acme, groupId: s.social, folderId: 0, path: 'empty.txt' },
      source(Buffer.alloc(0)),
      { uploadId: 'u-empty' },
    );
    assert.equal(r?.size, 0);
  });

  void test('a refused chunk is sent again on its own; the others are not', async () => {
    const bytes = Buffer.alloc(CHUNK_BYTES + 10, 7);
    s.emu.setFaults([{ kind: 'status', status: 503, count: 1, path: '/v2/', method: 'POST' }]);
    s.t.logs.length = 0;
    const r = await s.t.client.uploads.upload(
      { accountId: s.acme, groupId: s.social, folderId: 0, path: 'retried.bin' },
      source(bytes),
      { uploadId: 'u-retry', sleep: noWait },
    );
    s.emu.clearFaults();
    const data = s.t.logs.filter((l) => l.path.includes('/upload/data'));
    assert.equal(data.length, 3, 'two chunks, one of them twice');
    assert.deepEqual(data.map((l) => l.status).filter((s) => s === 503).length, 1);
    assert.ok((await downloaded(s.t, s.social, r?.id ?? 0)).equals(bytes));
  });

  void test('a streamed source: each chunk sent from a stream of its own, and a refused chunk from a new one', async () => {
    const bytes = Buffer.alloc(2 * CHUNK_BYTES + 5);
    for (let i = 0; i < bytes.length; i += 1000) bytes[i] = (i / 1000) % 256;
    const src = streamed(bytes);
    s.emu.setFaults([{ kind: 'status', status: 503, count: 1, path: '/v2/', method: 'POST' }]);
    const r = await s.t.client.uploads.upload(
      { accountId: s.acme, groupId: s.social, folderId: 0, path: 'streamed.bin' },
      src,
      { uploadId: 'u-streamed', sleep: noWait },
    );
    s.emu.clearFaults();
    assert.equal(src.opened.length, 4, 'three chunks, one of them sent again from a new stream');
    assert.deepEqual(
      [...new Set(src.opened)].sort((a, b) => a - b),
      [0, CHUNK_BYTES, 2 * CHUNK_BYTES],
    );
    assert.ok((await downloaded(s.t, s.social, r?.id ?? 0)).equals(bytes));
  });

  void test('a 413 on a chunk is not retried and says so', async () => {
    s.emu.setFaults([{ kind: 'error-body', status: 413, count: 5, path: '/v2/', method: 'POST' }]);
    await assert.rejects(
      s.t.client.uploads.upload(
        { accountId: s.acme, groupId: s.social, folderId: 0, path: 'too-big.bin' },
        source(Buffer.alloc(10)),
        { uploadId: 'u-413', sleep: noWait },
      ),
      (e: unknown) => !refusesUploads(e) && e instanceof Error,
    );
    s.emu.clearFaults();
  });

  void test('a name clash makes a second record: the portal does not refuse it (no 409 observed)', async () => {
    const target = { accountId: s.acme, groupId: s.social, folderId: 0, path: 'twice.txt' };
    const a = await s.t.client.uploads.upload(target, source(Buffer.from('a')), { uploadId: 'u-a' });
    const b = await s.t.client.uploads.upload(target, source(Buffer.from('b')), { uploadId: 'u-b' });
    assert.notEqual(a?.id, b?.id);
    const names = (await collect(s.t.client.v2.files.iterate(s.acme, s.social))).filter((f) => f.name === 'twice.txt');
    assert.equal(names.length, 2);
  });
});

void describe('uploads on a literal portal', () => {
  void test('every upload endpoint is missing: refusesUploads says so', async () => {
    const emu = await emulator({ profile: 'literal' });
    const t = await passwordClient(emu);
    try {
      const acme = await accountId(t.client, 'acme');
      const social = await groupId(t.client, acme, 'social');
      const target = { accountId: acme, groupId: social, folderId: 0, path: 'x.txt' };
      await assert.rejects(t.client.uploads.upload(target, source(Buffer.from('x')), { uploadId: 'l' }), (e) =>
        refusesUploads(e),
      );
      await assert.rejects(t.client.uploads.index(target), (e) => refusesUploads(e));
    } finally {
      t.client.close();
      await emu.stop();
    }
  });
});
