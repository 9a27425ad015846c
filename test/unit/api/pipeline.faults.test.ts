// Every fault the emulator can inject, and what the client does with it: GET retries, POST does not.
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kind, statusesOf, enrolledSuite } from './helpers';

void describe('faults', () => {
  let n = 0;
  const newMember = () => {
    n++;
    return { name: `Fault Test ${n}`, username: `fault.test.${n}`, email: `fault.test.${n}@acme.example` };
  };

  const s = enrolledSuite();
  beforeEach(() => {
    s.emu.clearFaults();
    s.t.logs.length = 0;
  });

  void test('status 500: a GET is retried and succeeds', async () => {
    s.emu.setFaults([{ kind: 'status', status: 500, path: '/v3/userinfo', count: 1 }]);
    assert.equal((await s.t.client.v3.userinfo()).name, 'demo');
    assert.deepEqual(statusesOf(s.t.logs, '/v3/userinfo'), [500, 200]);
  });

  void test('status 500: a POST is not repeated', async () => {
    const path = `/v3/accounts/${s.acme}/members`;
    s.emu.setFaults([{ kind: 'status', status: 500, path, method: 'POST', count: 1 }]);
    const body = newMember();
    await assert.rejects(
      s.t.client.v3.members.create(s.acme, body),
      kind('server', (e) => assert.equal(e.status, 500)),
    );
    assert.deepEqual(statusesOf(s.t.logs, path), [500]);
    await assert.rejects(s.t.client.v3.members.get(s.acme, body.username), kind('not-found'));
  });

  void test('status 503: a GET waits Retry-After and succeeds; a PATCH is not repeated', async () => {
    s.emu.setFaults([{ kind: 'status', status: 503, path: '/v3/userinfo', count: 1, retryAfterSeconds: 1 }]);
    assert.equal((await s.t.client.v3.userinfo()).name, 'demo');
    assert.deepEqual(statusesOf(s.t.logs, '/v3/userinfo'), [503, 200]);
    const path = `/v3/accounts/${s.acme}`;
    s.emu.setFaults([{ kind: 'status', status: 503, path, method: 'PATCH', count: 1 }]);
    await assert.rejects(
      s.t.client.v3.accounts.update(s.acme, { locale: 'en' }),
      kind('server', (e) => assert.equal(e.status, 503)),
    );
    assert.deepEqual(statusesOf(s.t.logs, path), [503]);
  });

  void test('rate-limit: 429 is honoured through Retry-After, for GET and for POST (not processed)', async () => {
    s.emu.setFaults([{ kind: 'rate-limit', path: '/v3/userinfo', count: 1, retryAfterSeconds: 1 }]);
    const started = Date.now();
    assert.equal((await s.t.client.v3.userinfo()).name, 'demo');
    assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
    assert.deepEqual(statusesOf(s.t.logs, '/v3/userinfo'), [429, 200]);
    const path = `/v3/accounts/${s.acme}/members`;
    s.emu.setFaults([{ kind: 'rate-limit', path, method: 'POST', count: 1, retryAfterSeconds: 1 }]);
    const body = newMember();
    const created = await s.t.client.v3.members.create(s.acme, body);
    assert.equal(created.user.username, body.username);
    assert.deepEqual(statusesOf(s.t.logs, path), [429, 200]);
  });

  void test('truncated-json and malformed-json: invalid-response, not retried', async () => {
    for (const fault of ['truncated-json', 'malformed-json'] as const) {
      s.t.logs.length = 0;
      s.emu.setFaults([{ kind: fault, path: '/v3/userinfo', count: 1 }]);
      await assert.rejects(s.t.client.v3.userinfo(), kind('invalid-response'));
      assert.deepEqual(statusesOf(s.t.logs, '/v3/userinfo'), [200]);
      // The fault was used up: the next call is clean.
      assert.equal((await s.t.client.v3.userinfo()).name, 'demo');
    }
  });

  void test('reset: a GET is retried; a POST is not (it may have been processed)', async () => {
    s.emu.setFaults([{ kind: 'reset', path: '/v3/userinfo', count: 1 }]);
    assert.equal((await s.t.client.v3.userinfo()).name, 'demo');
    assert.deepEqual(statusesOf(s.t.logs, '/v3/userinfo'), [undefined, 200]);
    const path = `/v3/accounts/${s.acme}/members`;
    s.emu.setFaults([{ kind: 'reset', path, method: 'POST', count: 1 }]);
    await assert.rejects(s.t.client.v3.members.create(s.acme, newMember()), kind('network'));
    assert.equal(statusesOf(s.t.logs, path).length, 1);
  });

  void test('slow-body: arrives slowly but whole within the body timeout', async () => {
    s.emu.setFaults([{ kind: 'slow-body', path: '/v3/userinfo', delayMs: 300, count: 1 }]);
    assert.equal((await s.t.client.v3.userinfo()).name, 'demo');
  });

  void test('latency: answered late, still answered', async () => {
    s.emu.setFaults([{ kind: 'latency', path: '/v3/userinfo', delayMs: 200, jitterMs: 50, count: 1 }]);
    assert.equal((await s.t.client.v3.userinfo()).name, 'demo');
    assert.deepEqual(statusesOf(s.t.logs, '/v3/userinfo'), [200]);
  });

  void test('a share of failures on a GET walk is absorbed by retries', async () => {
    s.emu.setFaults([{ kind: 'status', status: 500, path: `/v3/accounts/${s.acme}/members`, share: 0.3 }]);
    let count = 0;
    for await (const _m of s.t.client.v3.members.iterate(s.acme, { size: 5 })) count++;
    assert.ok(count > 30);
    assert.ok(
      s.t.logs.some((l) => l.status === 500),
      'some pages failed first',
    );
  });
});
