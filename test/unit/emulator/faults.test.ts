import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, fieldsOf, startHarness, startWithDemo, type App3, type Harness } from './helpers';
import type { FaultRule } from '../../emulator';

void describe('faults through the control endpoint', () => {
  let h: Harness;
  let demo: string;
  before(async () => { ({ h, demo } = await startWithDemo()); });
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
    assertError(await h.call('POST', '/v3/applications', { token: demo, body: { name: 'never made' } }), 500, 'internal_error');
    const apps = await h.call<App3[]>('GET', '/v3/applications', { token: demo });
    assert.ok(!apps.body.some((a) => a.name === 'never made'));
    assert.equal((await h.call('POST', '/v3/applications', { token: demo, body: { name: 'made' } })).status, 201, 'count 1 expired');
  });

  void test('status 503 carries Retry-After (default 1, or retryAfterSeconds)', async () => {
    await setRules([{ kind: 'status', status: 503, count: 1 }, { kind: 'status', status: 503, retryAfterSeconds: 4, count: 1 }]);
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
    const res = await h.call('GET', '/oauth/token?grant_type=password&client_id=portal-mobile&username=demo&password=demo');
    assert.equal(res.status, 503);
  });

  void test('bad rules are 400 with field errors and change nothing', async () => {
    await setRules([{ kind: 'latency', delayMs: 1 }]);
    const bad = await h.control('POST', '/faults', { rules: [{ kind: 'explode' }, { kind: 'status', status: 418, share: 2, count: 0 }] });
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

void describe('control endpoint housekeeping', () => {
  void test('stats by route, stats reset, reset with a seed, unknown control path', async () => {
    const h = await startHarness();
    try {
      const token = await h.login();
      await h.call('GET', '/v3/accounts/1/members', { token });
      await h.call('GET', '/v3/accounts/1/members?page=2', { token });
      await h.call('GET', '/nowhere');
      const stats = await h.control<{ requests: number; tokenRequests: number; byRoute: Record<string, number> }>('GET', '/stats');
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
      assert.deepEqual(accounts.body.map((a) => a.name), ['empty']);
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
