// What a server cannot make the client do (the limits client.ts promises): read an answer without end, hold a
// request for ever, reach another path through "..", or get a secret it handed out echoed back unmasked.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CODES, collect, type FileRecord } from '../../../src/api';
import {
  accountId,
  emulator,
  enrolledClient,
  groupId,
  makeClient,
  kind,
  passwordClient,
  statusesOf,
  type Emulator,
  type TestClient,
} from './helpers';

const MIB = 1024 * 1024;
/**
 * The JSON deadline these tests hold the client to. Every request a test makes goes under it (the setup's do not): it
 * is long enough that a busy machine's ordinary answers from the local emulator fit, and the faults that test it (a
 * drip of a byte every 20 ms, an answer after 100 s) outlast it many times over.
 */
const DEADLINE_MS = 3_000;

void describe('limits on what a server can do', () => {
  let emu: Emulator;
  let t: TestClient;
  let acme: number;
  let file: FileRecord;
  let engineering: number;
  before(async () => {
    emu = await emulator();
    // The sign-in and the lookups go through a client with the usual limits, which hands its tokens on: only what a
    // test asks is held to the short deadline, so a busy machine's slow setup cannot fail the whole file.
    const setup = await enrolledClient(emu);
    try {
      acme = await accountId(setup.client, 'acme');
      engineering = await groupId(setup.client, acme, 'engineering');
      const root = await collect(setup.client.v2.files.iterate(acme, engineering, { recursive: true }));
      const biggest = root.filter((f) => !f.isFolder).sort((a, b) => (b.size ?? 0) - (a.size ?? 0))[0];
      assert.ok(biggest);
      file = biggest;
      t = makeClient(emu, {
        credentials: { kind: 'client', clientId: setup.clientId, clientSecret: setup.clientSecret },
        initialTokens: setup.client.tokens(),
        maxJsonBytes: MIB,
        deadlineMs: DEADLINE_MS,
        retry: { attempts: 2, backoffMs: 5, maxBackoffMs: 10 },
      });
    } finally {
      setup.client.close();
    }
  });
  after(async () => {
    // A sign-in over the deadline fails the hook before t is set: the emulator still stops,
    // or the file would never end.
    try {
      t.client.close();
    } finally {
      await emu.stop();
    }
  });
  beforeEach(() => {
    emu.clearFaults();
    t.logs.length = 0;
  });

  for (const contentLength of [true, false]) {
    void test(`a JSON answer over the cap fails once, clearly (${contentLength ? 'with' : 'without'} Content-Length)`, async () => {
      emu.setFaults([{ kind: 'huge-body', path: '/v3/userinfo', bytes: 64 * MIB, contentLength }]);
      await assert.rejects(
        t.client.v3.userinfo(),
        kind('invalid-response', (e) => {
          assert.equal(e.code, ERROR_CODES.responseTooLarge);
          assert.match(e.message, /^The portal sent an answer larger than 1 MB for GET \/v3\/userinfo/);
        }),
      );
      assert.deepEqual(statusesOf(t.logs, '/v3/userinfo'), [undefined], 'one attempt, not retried');
    });
  }

  void test('a server that drips its answer is stopped by the overall deadline; a GET is retried, a POST is not', async () => {
    emu.setFaults([{ kind: 'drip', path: '/v3/userinfo', delayMs: 20 }]);
    await assert.rejects(
      t.client.v3.userinfo(),
      kind('timeout', (e) => {
        assert.equal(e.code, ERROR_CODES.deadline);
        assert.match(e.message, /^127\.0\.0\.1:\d+ took longer than 3 s to send its whole answer/);
      }),
    );
    assert.equal(statusesOf(t.logs, '/v3/userinfo').length, 2, 'retried like other timeouts');
    const path = `/v3/accounts/${acme}/members`;
    emu.setFaults([{ kind: 'drip', path, method: 'POST', delayMs: 20 }]);
    await assert.rejects(
      t.client.v3.members.create(acme, { name: 'Drip', username: 'drip.test', email: 'drip@acme.example' }),
      kind('timeout'),
    );
    assert.equal(statusesOf(t.logs, path).length, 1);
  });

  void test(
    'before the headers the deadline holds too: a portal that does not answer frees the slot',
    { timeout: 30_000 },
    async () => {
      // Answered after 100 s, within a headers timeout of 120 s: only the deadline can end this call in time.
      const slow = await passwordClient(emu, {
        deadlineMs: DEADLINE_MS,
        headersTimeoutMs: 120_000,
        retry: { attempts: 1 },
      });
      emu.setFaults([{ kind: 'latency', path: '/v3/userinfo', delayMs: 100_000 }]);
      await assert.rejects(slow.client.v3.userinfo(), kind('timeout'));
      emu.clearFaults();
      slow.client.close();
    },
  );

  void test(
    'an error answer whose body drips is held to the same deadline: it fails as a timeout and frees its slot',
    { timeout: 180_000 },
    async () => {
      // One slot, so a request held past the deadline would keep the next one waiting.
      const c = await passwordClient(emu, { deadlineMs: DEADLINE_MS, maxConcurrent: 1, retry: { attempts: 1 } });
      emu.setFaults([
        { kind: 'status', status: 500, path: '/v3/userinfo', count: 1 },
        { kind: 'drip', path: '/v3/userinfo', delayMs: 1000, count: 1 },
      ]);
      // The drip never ends, so only the deadline ends the call: the bound only turns a missing deadline into a failure
      // rather than a hang, and is far beyond what a busy machine adds to the deadline.
      const bound = (ms: number) =>
        new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms).unref());
      const started = Date.now();
      const outcome = await Promise.race([
        c.client.v3.userinfo().then(
          () => 'answered',
          (e: unknown) => e,
        ),
        bound(60_000),
      ]);
      try {
        assert.notEqual(outcome, 'still running', `still reading the error body after ${Date.now() - started} ms`);
        assert.ok(kind('timeout', (e) => assert.equal(e.code, ERROR_CODES.deadline))(outcome));
        assert.deepEqual(statusesOf(c.logs, '/v3/userinfo'), [undefined], 'one attempt, ended by the deadline');
        // The slot is free: the next call gets it at once.
        assert.equal(await Promise.race([c.client.v3.userinfo().then((u) => u.name), bound(60_000)]), 'demo');
        // A download has no overall deadline while its bytes come, but its error body does.
        const download = `/v3/groups/${engineering}/files/${file.id}/download`;
        emu.setFaults([
          { kind: 'status', status: 500, path: download, count: 1 },
          { kind: 'drip', path: download, delayMs: 1000, count: 1 },
        ]);
        const refused = await Promise.race([
          c.client.v2.files.download(engineering, file.id).then(
            () => 'answered',
            (e: unknown) => e,
          ),
          bound(60_000),
        ]);
        assert.ok(kind('timeout', (e) => assert.equal(e.code, ERROR_CODES.deadline))(refused));
      } finally {
        c.client.close();
      }
    },
  );

  void test('downloads stream: no size cap, and no overall deadline while bytes keep coming', async () => {
    const d = await t.client.v2.files.download(engineering, file.id);
    let got = 0;
    for await (const chunk of d.body as AsyncIterable<Buffer>) got += chunk.length;
    assert.equal(got, file.size);

    // A byte every 20 ms at the most: more bytes than fit in the deadline of JSON calls means the download outlived
    // it, counted without a clock of the test's own.
    const dripMs = 20;
    const beyondDeadline = DEADLINE_MS / dripMs + 10;
    emu.setFaults([{ kind: 'drip', path: `/v3/groups/${engineering}/files/${file.id}/download`, delayMs: dripMs }]);
    const slow = await t.client.v2.files.download(engineering, file.id);
    let bytes = 0;
    for await (const chunk of slow.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes >= beyondDeadline) break;
    }
    slow.body.destroy();
    assert.ok(bytes >= beyondDeadline, `kept receiving past the deadline (${bytes} bytes)`);
  });

  void test('a download that stalls ends with a timeout (the stall timeout, not a total time)', async () => {
    // A download has no overall deadline, so only the stall timeout can end it; the JSON deadline is the file's, for
    // the sign-in.
    const stall = await passwordClient(emu, { bodyTimeoutMs: 200, deadlineMs: DEADLINE_MS });
    emu.setFaults([{ kind: 'drip', path: `/v3/groups/${engineering}/files/${file.id}/download`, delayMs: 30_000 }]);
    const d = await stall.client.v2.files.download(engineering, file.id);
    await assert.rejects(
      async () => {
        for await (const _chunk of d.body as AsyncIterable<Buffer>) {
          /* drain */
        }
      },
      (e: unknown) => (e as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT',
    );
    stall.client.close();
  });

  void test('ids and names that are ".", ".." or empty are never sent; "%2e%2e" goes out encoded', async () => {
    const account = acme;
    for (const bad of ['.', '..', '']) {
      await assert.rejects(
        t.client.v3.members.get(account, bad),
        kind('invalid-input', (e) => assert.equal(e.code, ERROR_CODES.unsafePathSegment)),
      );
      await assert.rejects(t.client.v3.applications.delete(bad), kind('invalid-input'));
      await assert.rejects(t.client.v2.members.delete(account, bad), kind('invalid-input'));
    }
    assert.equal(t.logs.length, 0, 'nothing went out');
    await assert.rejects(t.client.v3.members.get(account, '%2e%2e'), kind('not-found'));
    await assert.rejects(t.client.v3.applications.get('%2e%2e'), kind('not-found'));
    assert.deepEqual(
      t.logs.map((l) => l.path),
      [`/v3/accounts/${account}/members/%252e%252e`, '/v3/applications/%252e%252e'],
    );
  });

  void test('a client secret the portal hands out (create v3 and v2, rotate) is masked in later log lines and errors', async () => {
    const created = await t.client.v3.applications.create({ name: 'masked v3' });
    const v2 = await t.client.v2.applications.create({ name: 'masked v2' });
    const rotated = await t.client.v3.applications.update(v2.clientId, { rotateSecret: true });
    const secrets = [created.clientSecret, v2.clientSecret, rotated.clientSecret].filter((s): s is string => !!s);
    assert.equal(secrets.length, 3);
    for (const secret of secrets) {
      // A search box where someone pasted the secret, and an error that echoes it.
      await t.client.v3.members.page(acme, { name: secret });
      await assert.rejects(
        t.client.v3.members.get(acme, `${secret}x`),
        (e: unknown) => !String((e as Error).message).includes(secret),
      );
    }
    const lines = JSON.stringify(t.logs);
    for (const secret of secrets) assert.ok(!lines.includes(secret), 'no log line carries a secret');
    assert.ok(t.logs.some((l) => l.path.includes('name=***')));
  });
});
