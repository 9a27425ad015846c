import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, DEMO, fieldsOf, startHarness, startWithDemo, type App3, type Harness } from './helpers';
import type { FaultRule } from '../../emulator';

void describe('faults through the control endpoint', () => {
  let h: Harness;
  let demo: string;
  before(async () => {
    ({ h, demo } = await startWithDemo());
  });
  beforeEach(async () => {
    assert.equal((await h.control('DELETE', '/faults')).status, 200);
  });
  after(() => h.stop());

  const setRules = async (rules: FaultRule[]) => {
    const res = await h.control<{ rules: FaultRule[] }>('POST', '/faults', { rules });
    assert.equal(res.status, 200, res.text);
    return res;
  };
  const userinfo = () => h.call('GET', '/v3/userinfo', { token: demo });

  void test('status 500: JSON internal_error, the handler does not run', async () => {
    await setRules([{ kind: 'status', status: 500, path: '/v3/applications', method: 'post', count: 1 }]);
    assertError(
      await h.call('POST', '/v3/applications', { token: demo, body: { name: 'never made' } }),
      500,
      'internal_error',
    );
    const apps = await h.call<App3[]>('GET', '/v3/applications', { token: demo });
    assert.ok(!apps.body.some((a) => a.name === 'never made'));
    assert.equal(
      (await h.call('POST', '/v3/applications', { token: demo, body: { name: 'made' } })).status,
      201,
      'count 1 expired',
    );
  });

  void test('exactPath: a rule fires for its path alone, not for the paths below it', async () => {
    await setRules([{ kind: 'status', status: 500, path: '/v3/applications', exactPath: true, method: 'get' }]);
    assertError(await h.call('GET', '/v3/applications', { token: demo }), 500, 'internal_error');
    const apps = await h.call<App3[]>('GET', '/v3/applications?limit=1', { token: demo });
    assertError(apps, 500, 'internal_error');
    await setRules([{ kind: 'status', status: 500, path: '/v3/userinfo/', exactPath: true }]);
    assert.equal((await userinfo()).status, 200, 'a longer path does not match a shorter request');
    await setRules([{ kind: 'status', status: 500, path: '/v3/user', exactPath: true }]);
    assert.equal((await userinfo()).status, 200, 'a path that only starts the request does not fire');
    await setRules([{ kind: 'status', status: 500, path: '/v3/user' }]);
    assertError(await userinfo(), 500, 'internal_error');
  });

  void test('status 503 carries Retry-After (default 1, or retryAfterSeconds)', async () => {
    await setRules([
      { kind: 'status', status: 503, count: 1 },
      { kind: 'status', status: 503, retryAfterSeconds: 4, count: 1 },
    ]);
    const first = await userinfo();
    assertError(first, 503, 'service_unavailable');
    assert.equal(first.headers.get('retry-after'), '1');
    const second = await userinfo();
    assertError(second, 503, 'service_unavailable');
    assert.equal(second.headers.get('retry-after'), '4');
    assert.equal((await userinfo()).status, 200);
  });

  void test('forced rate-limit: 429 rate_limited with Retry-After, counted in stats', async () => {
    h.emu.resetStats();
    await setRules([{ kind: 'rate-limit', retryAfterSeconds: 7, count: 2 }]);
    for (let i = 0; i < 2; i++) {
      const res = await userinfo();
      assertError(res, 429, 'rate_limited');
      assert.equal(res.headers.get('retry-after'), '7');
    }
    assert.equal((await userinfo()).status, 200);
    const stats = await h.control<{ rateLimited: number; requests: number }>('GET', '/stats');
    assert.equal(stats.body.rateLimited, 2);
    assert.equal(stats.body.requests, 3);
  });

  void test('truncated-json: the first half of the body, with a matching Content-Length; the change is kept', async () => {
    const full = await userinfo();
    await setRules([{ kind: 'truncated-json', count: 1 }]);
    const cut = await userinfo();
    assert.equal(cut.status, 200);
    assert.equal(cut.text, full.text.slice(0, Math.floor(Buffer.byteLength(full.text) / 2)));
    assert.throws(() => JSON.parse(cut.text));
    assert.equal(Number(cut.headers.get('content-length')), Buffer.byteLength(cut.text));
    await setRules([{ kind: 'truncated-json', path: '/v3/applications', count: 1 }]);
    const created = await h.call('POST', '/v3/applications', { token: demo, body: { name: 'half answered' } });
    assert.equal(created.status, 201);
    assert.equal(created.body, undefined, 'body did not parse');
    const apps = await h.call<App3[]>('GET', '/v3/applications', { token: demo });
    assert.ok(apps.body.some((a) => a.name === 'half answered'));
  });

  void test('malformed-json: a body that never parses, around the real answer', async () => {
    const full = await userinfo();
    await setRules([{ kind: 'malformed-json', count: 1 }]);
    const bad = await userinfo();
    assert.equal(bad.status, 200);
    assert.match(bad.headers.get('content-type') ?? '', /application\/json/);
    assert.throws(() => JSON.parse(bad.text));
    assert.equal(bad.text, `)]}'\n${full.text}`);
  });

  void test('reset: the connection is destroyed without an answer', async () => {
    await setRules([{ kind: 'reset', count: 1, path: '/v3/userinfo' }]);
    await assert.rejects(fetch(`${h.url}/v3/userinfo`, { headers: { Authorization: `Bearer ${demo}` } }));
    assert.equal((await userinfo()).status, 200);
  });

  void test('slow-body: headers first, the complete body in several pieces', async () => {
    const full = await userinfo();
    await setRules([{ kind: 'slow-body', delayMs: 300, count: 1 }]);
    const res = await fetch(`${h.url}/v3/userinfo`, { headers: { Authorization: `Bearer ${demo}` } });
    assert.equal(res.status, 200);
    const reader = res.body?.getReader();
    assert.ok(reader);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < 100; i++) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    assert.ok(chunks.length >= 2, `body came in ${chunks.length} piece(s)`);
    assert.equal(Buffer.concat(chunks).toString('utf8'), full.text);
  });

  void test('a delay held far beyond need ends when the test releases it, and the answer is whole', async () => {
    const arrived = () => h.emu.stats().byRoute['GET /v3/userinfo'] ?? 0;
    const before = arrived();
    // The longest delay a rule may hold; the answer is awaited for half of it, so only the release can bring it.
    await setRules([{ kind: 'latency', delayMs: 120_000, path: '/v3/userinfo', count: 1 }]);
    const answer = userinfo();
    for (let i = 0; i < 6_000 && arrived() === before; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(arrived(), before + 1, 'the request reached the emulator');
    h.emu.releaseDelays();
    let bound: NodeJS.Timeout | undefined;
    const res = await Promise.race([
      answer,
      new Promise<never>((_, reject) => {
        bound = setTimeout(() => reject(new Error('the answer was still held 60 s after its release')), 60_000);
      }),
    ]).finally(() => clearTimeout(bound));
    assert.equal(res.status, 200);
    assert.equal((res.body as { name?: string }).name, 'demo');
  });

  void test('a request held is in flight, through the control endpoint too, until its answer; stats/reset keeps it', async () => {
    const inFlight = async () => (await h.control<{ inFlight: number }>('GET', '/stats')).body.inFlight;
    const arrived = () => h.emu.stats().byRoute['GET /v3/userinfo'] ?? 0;
    const before = arrived();
    assert.equal(await inFlight(), 0, 'the control endpoint does not count its own question');
    await setRules([{ kind: 'latency', delayMs: 120_000, path: '/v3/userinfo', count: 1 }]);
    const answer = userinfo();
    for (let i = 0; i < 6_000 && arrived() === before; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(await inFlight(), 1, 'the held request');
    await h.control('POST', '/stats/reset');
    assert.equal(await inFlight(), 1, 'a reset of the counts does not forget a request still being answered');
    h.emu.releaseDelays();
    assert.equal((await answer).status, 200);
    // The client may read the answer a turn before the emulator has finished with it.
    for (let i = 0; i < 6_000 && (await inFlight()) !== 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(await inFlight(), 0, 'answered');
  });

  void test('latency: the request still succeeds; count consumes the rule', async () => {
    await setRules([{ kind: 'latency', delayMs: 30, jitterMs: 20, count: 2 }]);
    assert.equal((await userinfo()).status, 200);
    const left = await h.control<{ rules: FaultRule[] }>('GET', '/faults');
    assert.deepEqual(left.body.rules, [{ kind: 'latency', delayMs: 30, jitterMs: 20, count: 1 }]);
    assert.equal((await userinfo()).status, 200);
    assert.deepEqual((await h.control<{ rules: FaultRule[] }>('GET', '/faults')).body.rules, []);
  });

  void test('share is deterministic: the same rules fail the same requests', async () => {
    const run = async () => {
      await setRules([{ kind: 'status', status: 500, share: 0.5 }]);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await userinfo()).status);
      return statuses;
    };
    const first = await run();
    const second = await run();
    assert.deepEqual(first, second);
    assert.ok(first.includes(500) && first.includes(200), first.join(','));
    await setRules([{ kind: 'status', status: 500, share: 0 }]);
    assert.equal((await userinfo()).status, 200);
  });

  void test('path and method narrow a rule; the control endpoint is never faulted', async () => {
    await setRules([{ kind: 'status', status: 500, path: '/v3/accounts', method: 'PATCH' }]);
    assert.equal((await userinfo()).status, 200);
    assert.equal((await h.call('GET', '/v3/accounts/1', { token: demo })).status, 200);
    assertError(await h.call('PATCH', '/v3/accounts/1', { token: demo, body: {} }), 500, 'internal_error');
    await setRules([{ kind: 'reset' }]);
    assert.equal((await h.control('GET', '/stats')).status, 200);
    assert.equal((await h.control('DELETE', '/faults')).status, 200);
    assert.equal((await userinfo()).status, 200);
  });

  void test('the token endpoint can be faulted too', async () => {
    await setRules([{ kind: 'status', status: 503, path: '/oauth/token', count: 1 }]);
    const res = await h.call(
      'GET',
      '/oauth/token?grant_type=password&client_id=portal-mobile&username=demo&password=demo',
    );
    assert.equal(res.status, 503);
  });

  void test('bad rules are 400 with field errors and change nothing', async () => {
    await setRules([{ kind: 'latency', delayMs: 1 }]);
    const bad = await h.control('POST', '/faults', {
      rules: [{ kind: 'explode' }, { kind: 'status', status: 418, share: 2, count: 0 }],
    });
    assertError(bad, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(bad).sort(), ['rules[0].kind', 'rules[1].count', 'rules[1].share', 'rules[1].status']);
    assertError(await h.control('POST', '/faults', { rules: 'none' }), 400, 'invalid_input');
    assertError(await h.call('POST', '/__emulator/faults', { rawBody: '{oops' }), 400, 'invalid_input');
    const still = await h.control<{ rules: FaultRule[] }>('GET', '/faults');
    assert.deepEqual(still.body.rules, [{ kind: 'latency', delayMs: 1 }]);
  });

  void test('in-process setFaults and clearFaults do the same', async () => {
    h.emu.setFaults([{ kind: 'status', status: 500 }]);
    assert.equal((await userinfo()).status, 500);
    h.emu.clearFaults();
    assert.equal((await userinfo()).status, 200);
  });
});

/** Reads a streamed body chunk by chunk without keeping it, so a gigabyte costs the test nothing. */
async function drain(res: Response, onChunk: (chunk: Uint8Array) => void = () => undefined): Promise<number> {
  const reader = res.body?.getReader();
  assert.ok(reader, 'a body');
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.length;
    onChunk(value);
  }
}

void describe('hostile-server faults', () => {
  let h: Harness;
  let demo: string;
  before(async () => {
    ({ h, demo } = await startWithDemo());
  });
  beforeEach(() => h.emu.clearFaults());
  after(() => h.stop());

  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${h.url}${path}`, { ...init, headers: { Authorization: `Bearer ${demo}` } });

  void test('huge-body: 200 JSON of exactly `bytes` bytes with Content-Length; small bodies parse; the handler does not run', async () => {
    for (const bytes of [0, 1, 2, 20, 127, 128, 129, 130, 1000, 300_001]) {
      h.emu.setFaults([{ kind: 'huge-body', bytes, count: 1 }]);
      const res = await get('/v3/userinfo');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(res.headers.get('content-length'), String(bytes));
      const text = await res.text();
      assert.equal(Buffer.byteLength(text), bytes, `${bytes} bytes`);
      if (bytes >= 2) assert.ok(Array.isArray(JSON.parse(text)), `${bytes} bytes parse as an array`);
    }
    h.emu.setFaults([{ kind: 'huge-body', bytes: 4096, path: '/v3/applications', method: 'POST', count: 1 }]);
    const res = await fetch(`${h.url}/v3/applications`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${demo}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'never made by huge-body' }),
    });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    const apps = await h.call<App3[]>('GET', '/v3/applications', { token: demo });
    assert.ok(!apps.body.some((a) => a.name === 'never made by huge-body'));
  });

  void test('huge-body with contentLength false: chunked, no Content-Length, still exactly `bytes` bytes', async () => {
    h.emu.setFaults([{ kind: 'huge-body', bytes: 5 * 1024 * 1024 + 17, contentLength: false, count: 1 }]);
    const res = await get('/v3/accounts');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), null);
    assert.equal(res.headers.get('transfer-encoding'), 'chunked');
    let head = '';
    const total = await drain(res, (c) => {
      if (head.length < 16) head += Buffer.from(c).toString('latin1');
    });
    assert.equal(total, 5 * 1024 * 1024 + 17);
    assert.ok(head.startsWith('[{"id":1,"name":"xxx'), head.slice(0, 40));
  });

  void test('huge-body is streamed: 512 MiB pass through while memory stays flat', async () => {
    const bytes = 512 * 1024 * 1024;
    h.emu.setFaults([{ kind: 'huge-body', bytes, count: 1 }]);
    const base = process.memoryUsage();
    let peak = 0;
    let seen = 0;
    const res = await get('/v3/userinfo');
    const total = await drain(res, (c) => {
      seen += c.length;
      if (seen < 8 * 1024 * 1024) return;
      seen = 0;
      const m = process.memoryUsage();
      peak = Math.max(peak, m.arrayBuffers - base.arrayBuffers + m.heapUsed - base.heapUsed);
    });
    assert.equal(total, bytes);
    assert.ok(peak < 128 * 1024 * 1024, `peak growth ${Math.round(peak / 1048576)} MiB`);
    assert.equal((await h.call('GET', '/v3/userinfo', { token: demo })).status, 200, 'the emulator still answers');
  });

  void test('huge-body: a client that hangs up mid-stream does not stall the emulator', async () => {
    h.emu.setFaults([{ kind: 'huge-body', bytes: 1024 ** 3, count: 1 }]);
    const controller = new AbortController();
    const res = await fetch(`${h.url}/v3/userinfo`, {
      headers: { Authorization: `Bearer ${demo}` },
      signal: controller.signal,
    });
    const reader = res.body?.getReader();
    assert.ok(reader);
    await reader.read();
    controller.abort();
    await assert.rejects(reader.read());
    assert.equal((await h.call('GET', '/v3/userinfo', { token: demo })).status, 200);
  });

  void test('drip: headers at once, then one byte at a time from the real body, and the body never completes', async () => {
    const full = await h.call('GET', '/v3/userinfo', { token: demo });
    h.emu.setFaults([{ kind: 'drip', delayMs: 10, count: 1 }]);
    const controller = new AbortController();
    const res = await fetch(`${h.url}/v3/userinfo`, {
      headers: { Authorization: `Bearer ${demo}` },
      signal: controller.signal,
    });
    assert.equal(res.status, 200, 'headers arrive before any body byte');
    assert.equal(res.headers.get('content-length'), null, 'no length, so the client cannot know the body is over');
    const reader = res.body?.getReader();
    assert.ok(reader);
    const chunks: Buffer[] = [];
    for (let i = 0; i < 8; i++) {
      const { done, value } = await reader.read();
      assert.equal(done, false);
      chunks.push(Buffer.from(value));
    }
    const got = Buffer.concat(chunks);
    assert.ok(
      chunks.every((c) => c.length <= 2),
      `pieces of ${chunks.map((c) => c.length).join(',')} bytes`,
    );
    assert.equal(got.toString('utf8'), full.text.slice(0, got.length));
    // Long past the time the whole body would take at full speed, it is still not over.
    const pending = reader.read().then((r) => (r.done ? 'ended' : 'byte'));
    assert.equal(await pending, 'byte');
    controller.abort();
    await assert.rejects(reader.read());
    assert.equal((await h.call('GET', '/v3/userinfo', { token: demo })).status, 200, 'the emulator still answers');
  });

  void test('drip keeps dripping spaces after the real body: the answer is never complete', async () => {
    h.emu.setFaults([{ kind: 'drip', delayMs: 1, count: 1, path: '/v3/applications', method: 'DELETE' }]);
    const apps = await h.call<App3[]>('GET', '/v3/applications', { token: demo });
    const target = apps.body[0];
    assert.ok(target);
    const controller = new AbortController();
    const res = await fetch(`${h.url}/v3/applications/${target.clientId}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${demo}` },
      signal: controller.signal,
    });
    assert.equal(res.status, 200);
    const reader = res.body?.getReader();
    assert.ok(reader);
    let text = '';
    while (text.length < 30) {
      const { done, value } = await reader.read();
      assert.equal(done, false);
      text += Buffer.from(value).toString('utf8');
    }
    assert.equal(text.trim(), '', 'an empty answer drips spaces');
    controller.abort();
    const after = await h.call<App3[]>('GET', '/v3/applications', { token: demo });
    assert.ok(!after.body.some((a) => a.clientId === target.clientId), 'the handler ran: the change is kept');
  });

  void test('drip: stop() ends a dripping response', async () => {
    const emu = await startHarness();
    const token = await emu.login();
    emu.emu.setFaults([{ kind: 'drip', delayMs: 5 }]);
    const res = await fetch(`${emu.url}/v3/userinfo`, { headers: { Authorization: `Bearer ${token}` } });
    const body = res.text().then(
      () => 'ended',
      () => 'aborted',
    );
    await emu.stop();
    assert.equal(await body, 'aborted');
  });

  void test('oversized-page: envelopes and plain arrays carry factor x the rows asked for, copies under new ids', async () => {
    h.emu.setFaults([{ kind: 'oversized-page', factor: 3 }]);
    const v3 = await h.call<{ items: Array<{ user: { id: number; username: string } }>; pageSize: number }>(
      'GET',
      `/v3/accounts/${DEMO.acme}/members?size=5`,
      { token: demo },
    );
    assert.equal(v3.body.items.length, 15);
    assert.equal(v3.body.pageSize, 5, 'the envelope still says what was asked for');
    assert.equal(new Set(v3.body.items.map((m) => m.user.id)).size, 15, 'every row has its own id');
    assert.equal(new Set(v3.body.items.map((m) => m.user.username)).size, 15);
    assert.equal(Number(v3.headers.get('content-length')), Buffer.byteLength(v3.text));

    const v2 = await h.call<{ page: Array<{ id: number }> }>(
      'GET',
      `/v2/accounts/${DEMO.acme}/groups/${DEMO.engineering}/files?size=2`,
      { token: demo },
    );
    assert.equal(v2.body.page.length, 6);
    assert.equal(new Set(v2.body.page.map((f) => f.id)).size, 6);

    const groups = await h.call<Array<{ id: number; name: string }>>('GET', `/v2/accounts/${DEMO.acme}/groups?size=2`, {
      token: demo,
    });
    assert.equal(groups.body.length, 6);
    const all = await h.call<Array<{ id: number }>>('GET', `/v2/accounts/${DEMO.acme}/groups`, { token: demo });
    assert.equal(all.body.length, 12, 'a plain array asked whole comes back factor times as long');
    const tags = await h.call<string[]>('GET', `/v3/accounts/${DEMO.acme}/member-tags?size=4`, { token: demo });
    assert.equal(tags.body.length, 12);
    assert.equal(new Set(tags.body).size, 12);

    const info = await h.call<Record<string, unknown>>('GET', '/v3/userinfo', { token: demo });
    assert.equal(typeof info.body.name, 'string', 'a non-list answer is left alone');
    h.emu.setFaults([{ kind: 'oversized-page' }]);
    const tenfold = await h.call<{ items: unknown[] }>('GET', `/v3/accounts/${DEMO.acme}/members?size=3`, {
      token: demo,
    });
    assert.equal(tenfold.body.items.length, 30, 'factor defaults to 10');
  });

  void test('error-body: any 4xx/5xx with an empty, plain-text or HTML body; the handler does not run', async () => {
    h.emu.setFaults([{ kind: 'error-body', status: 404, shape: 'html', count: 1 }]);
    const html = await get('/v3/userinfo');
    assert.equal(html.status, 404);
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    const page = await html.text();
    assert.match(page, /<title>404 Not Found<\/title>/);
    assert.ok(page.includes('[Click](command:workbench.action.openSettings)'));

    h.emu.setFaults([{ kind: 'error-body', status: 403, shape: 'text', count: 1 }]);
    const text = await get('/v3/userinfo');
    assert.equal(text.status, 403);
    assert.match(text.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await text.text(), /^403 Forbidden/);

    h.emu.setFaults([
      {
        kind: 'error-body',
        status: 503,
        shape: 'empty',
        retryAfterSeconds: 9,
        path: '/v3/applications',
        method: 'POST',
        count: 1,
      },
    ]);
    const res = await fetch(`${h.url}/v3/applications`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${demo}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'never made by error-body' }),
    });
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('content-type'), null);
    assert.equal(res.headers.get('retry-after'), '9');
    assert.equal(await res.text(), '');
    const apps = await h.call<App3[]>('GET', '/v3/applications', { token: demo });
    assert.ok(!apps.body.some((a) => a.name === 'never made by error-body'));

    h.emu.setFaults([{ kind: 'error-body', count: 1 }]);
    const fallback = await get('/v3/userinfo');
    assert.equal(fallback.status, 500, 'status defaults to 500');
    assert.match(fallback.headers.get('content-type') ?? '', /^text\/html/, 'shape defaults to html');
  });

  void test('the new kinds are set through the control endpoint and checked like the others', async () => {
    const ok = await h.control<{ rules: FaultRule[] }>('POST', '/faults', {
      rules: [
        { kind: 'huge-body', bytes: 2 * 1024 ** 3, contentLength: false },
        { kind: 'drip', delayMs: 50 },
        { kind: 'oversized-page', factor: 1000 },
        { kind: 'error-body', status: 418, shape: 'text' },
      ],
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.rules.length, 4);
    const bad = await h.control('POST', '/faults', {
      rules: [
        { kind: 'huge-body' },
        { kind: 'huge-body', bytes: 2 * 1024 ** 3 + 1, contentLength: 'no' },
        { kind: 'oversized-page', factor: 1 },
        { kind: 'error-body', status: 302, shape: 'xml' },
        { kind: 'status', status: 404 },
      ],
    });
    assertError(bad, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(bad).sort(), [
      'rules[0].bytes',
      'rules[1].bytes',
      'rules[1].contentLength',
      'rules[2].factor',
      'rules[3].shape',
      'rules[3].status',
      'rules[4].status',
    ]);
    assert.throws(() => h.emu.setFaults([{ kind: 'huge-body' }]), /bytes/, 'in-process rules are checked too');
    await h.control('DELETE', '/faults');
  });
});

void describe('control endpoint housekeeping', () => {
  void test('stats by route, stats reset, reset with a seed, unknown control path', async () => {
    const h = await startHarness();
    try {
      const token = await h.login();
      await h.call('GET', '/v3/accounts/1/members', { token });
      await h.call('GET', '/v3/accounts/1/members?page=2', { token });
      await h.call('GET', '/nowhere');
      const stats = await h.control<{ requests: number; tokenRequests: number; byRoute: Record<string, number> }>(
        'GET',
        '/stats',
      );
      assert.equal(stats.body.requests, 4);
      assert.equal(stats.body.tokenRequests, 1);
      assert.equal(stats.body.byRoute['GET /v3/accounts/:account/members'], 2);
      assert.equal(stats.body.byRoute['GET (unmatched)'], 1);
      assert.equal((await h.control('POST', '/stats/reset')).status, 200);
      assert.equal((await h.control<{ requests: number }>('GET', '/stats')).body.requests, 0);

      await h.call('POST', '/v3/applications', { token, body: { name: 'before reset' } });
      h.emu.setFaults([{ kind: 'latency', delayMs: 1 }]);
      assert.equal((await h.control('POST', '/reset', { seed: 'empty' })).status, 200);
      assert.equal((await h.call('GET', '/v3/userinfo', { token })).status, 401, 'tokens are gone');
      assert.deepEqual((await h.control<{ rules: unknown[] }>('GET', '/faults')).body.rules, [], 'faults are cleared');
      assert.equal(h.emu.stats().requests, 1, 'stats were zeroed (only the request above counts)');
      const fresh = await h.login();
      const accounts = await h.call<Array<{ name: string }>>('GET', '/v3/accounts', { token: fresh });
      assert.deepEqual(
        accounts.body.map((a) => a.name),
        ['empty'],
      );
      assert.equal((await h.control('POST', '/reset', {})).status, 200);
      const demo = await h.call<Array<{ name: string }>>('GET', '/v3/accounts', { token: await h.login() });
      assert.equal(demo.body[0]?.name, 'acme', 'reset without a seed goes back to the configured seed');
      const apps = await h.call<Array<{ name: string }>>('GET', '/v3/applications', { token: await h.login() });
      assert.ok(!apps.body.some((a) => a.name === 'before reset'));
      assertError(await h.control('POST', '/reset', { seed: 'huge' }), 400, 'invalid_input');
      assertError(await h.control('GET', '/nothing-here'), 404, 'not_found');
      assertError(await h.control('POST', '/revoke', {}), 400, 'invalid_input');
    } finally {
      await h.stop();
    }
  });

  void test('global latency and jitter options still answer every request', async () => {
    const h = await startHarness({ latencyMs: 5, jitterMs: 5 });
    try {
      const token = await h.login();
      for (let i = 0; i < 3; i++) assert.equal((await h.call('GET', '/v3/userinfo', { token })).status, 200);
    } finally {
      await h.stop();
    }
  });
});
