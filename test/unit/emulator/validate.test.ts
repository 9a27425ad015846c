// Bad input always gets a clear JSON error: never a crash, a hang, or a half-written change.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { DEMO, assertError, fieldsOf, type Group2, type Member3, demoAndMemberSuite } from './helpers';

void describe('bad input', () => {
  const s = demoAndMemberSuite();

  const groups = `/v2/accounts/${DEMO.acme}/groups`;

  void test('malformed JSON is 400 invalid_input', async () => {
    for (const rawBody of ['{', '{"name": }', 'nul', '{"a":1}}', '\u0000']) {
      const res = await s.h.call('POST', '/v3/applications', {
        token: s.demo,
        rawBody,
        headers: { 'Content-Type': 'application/json' },
      });
      assertError(res, 400, 'invalid_input');
      assert.match((res.body as { message: string }).message, /JSON/);
    }
  });

  void test('a body that is not an object is 400', async () => {
    for (const body of [[], 'text', 42, null, true]) {
      assertError(
        await s.h.call('POST', '/v3/applications', {
          token: s.demo,
          rawBody: JSON.stringify(body),
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
        'invalid_input',
      );
    }
  });

  void test('wrong types are 400 with fieldErrors naming each field', async () => {
    const res = await s.h.call('POST', `/v3/accounts/${DEMO.acme}/members`, {
      token: s.demo,
      body: { name: ['x'], username: 12, email: { a: 1 }, enabled: 'yes', tags: [1, 2], assignGroupsAdmin: 'all' },
    });
    assertError(res, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(res).sort(), ['assignGroupsAdmin', 'email', 'enabled', 'name', 'tags', 'username']);
  });

  void test('unknown enum values are 400', async () => {
    assertError(
      await s.h.call('POST', '/v3/applications', { token: s.demo, body: { name: 'x', platform: 'ios' } }),
      400,
      'invalid_input',
    );
    assertError(
      await s.h.call('PATCH', `/v3/accounts/${DEMO.acme}/members/member`, { token: s.demo, body: { permission: 8 } }),
      400,
      'invalid_input',
    );
    assertError(
      await s.h.call('GET', `/v3/accounts/${DEMO.acme}/members?orderBy=age`, { token: s.demo }),
      400,
      'invalid_input',
    );
  });

  void test('unknown body fields are ignored', async () => {
    const res = await s.h.call('POST', '/v3/applications', {
      token: s.demo,
      body: { name: 'extra fields', colour: 'blue', nested: { deep: true } },
    });
    assert.equal(res.status, 201);
  });

  void test('missing token 401, not allowed 403, unknown id 404, taken 409, reserved 400', async () => {
    assertError(await s.h.call('GET', groups), 401, 'unauthorized');
    assertError(await s.h.call('POST', groups, { token: s.member, body: { name: 'x' } }), 403, 'forbidden');
    assertError(await s.h.call('GET', `${groups}/123456`, { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('GET', `${groups}/not-a-number`, { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('GET', `${groups}/0`, { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('POST', groups, { token: s.demo, body: { name: 'handbook' } }), 409, 'conflict');
    assertError(await s.h.call('POST', groups, { token: s.demo, body: { name: 'settings' } }), 400, 'invalid_input');
  });

  void test('unknown routes and methods are 404 JSON', async () => {
    assertError(await s.h.call('GET', '/v4/everything', { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('PUT', '/v3/applications', { token: s.demo, body: {} }), 404, 'not_found');
    assertError(await s.h.call('GET', '/', { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('GET', '/v3/applications/%E0%A4%A', { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('DELETE', '/oauth/token'), 404, 'not_found');
  });

  void test('a body over 1 MiB is 413 payload_too_large, and the connection still answers', async () => {
    const big = JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024 + 10) });
    assertError(
      await s.h.call('POST', '/v3/applications', {
        token: s.demo,
        rawBody: big,
        headers: { 'Content-Type': 'application/json' },
      }),
      413,
      'payload_too_large',
    );
    assert.equal((await s.h.call('GET', '/v3/userinfo', { token: s.demo })).status, 200);
  });

  void test('an endless oversized upload is cut off with 413 instead of being read forever', async () => {
    const url = new URL(s.h.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/v3/applications',
        headers: {
          'Content-Type': 'application/json',
          'Transfer-Encoding': 'chunked',
          Authorization: `Bearer ${s.demo}`,
        },
      });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error('no answer to an endless upload'));
      }, 15_000);
      req.on('response', (res) => {
        clearTimeout(timer);
        res.resume();
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const pump = (sent: number): void => {
        // Never end(): only the server's cut-off can answer. 40 MiB bounds the test either way.
        for (let n = sent; n < 40; n++) {
          if (req.destroyed) return;
          if (!req.write(chunk)) {
            req.once('drain', () => pump(n + 1));
            return;
          }
        }
      };
      pump(0);
    });
    assert.equal(status, 413);
    assert.equal((await s.h.call('GET', '/v3/userinfo', { token: s.demo })).status, 200);
  });

  void test('nothing is half-written when a request fails', async () => {
    const before = await s.h.call<Group2>('GET', `${groups}/${DEMO.engineering}`, { token: s.demo });
    // Valid fields first, one bad field last: nothing may change.
    const res = await s.h.call('POST', `${groups}/${DEMO.engineering}`, {
      token: s.demo,
      body: { friendlyName: 'Changed', disableChat: true, components: ['files', 'bogus'] },
    });
    assertError(res, 400, 'invalid_input');
    const after = await s.h.call<Group2>('GET', `${groups}/${DEMO.engineering}`, { token: s.demo });
    assert.deepEqual(after.body, before.body);
    const m = await s.h.call<Member3>('GET', `/v3/accounts/${DEMO.acme}/members/member`, { token: s.demo });
    const conflict = await s.h.call('PATCH', `/v3/accounts/${DEMO.acme}/members/member`, {
      token: s.demo,
      body: { tags: ['changed'], assignGroupsRights: { 999999: 4 } },
    });
    assertError(conflict, 400, 'invalid_input');
    const m2 = await s.h.call<Member3>('GET', `/v3/accounts/${DEMO.acme}/members/member`, { token: s.demo });
    assert.deepEqual(m2.body, m.body);
    const taken = await s.h.call('POST', `/v2/accounts/${DEMO.acme}/members/member`, {
      token: s.demo,
      body: { user: { name: 'Renamed', email: 'demo@acme.example' } },
    });
    assertError(taken, 409, 'conflict');
    const m3 = await s.h.call<Member3>('GET', `/v3/accounts/${DEMO.acme}/members/member`, { token: s.demo });
    assert.equal(m3.body.user.name, 'Mia Member');
  });

  void test('odd inputs never crash the server: each gets a JSON 4xx', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['PATCH', `/v3/accounts/${DEMO.acme}`, { name: null, friendlyName: '' }],
      ['PATCH', `/v3/accounts/${DEMO.acme}/members/member`, { activation: 'soon' }],
      ['PATCH', `/v3/accounts/${DEMO.acme}/members/member`, { assignGroups: [1, 2], assignGroupsRights: { abc: 'x' } }],
      [
        'POST',
        `/v2/accounts/${DEMO.acme}/members`,
        { user: { username: 'u'.repeat(500), email: 'a@b.c', name: 'n' }, groups: 'all' },
      ],
      ['POST', groups, { name: '   ' }],
      ['POST', groups, { name: 'x'.repeat(101) }],
      ['POST', groups, { name: 'ok-name', branding: 'blue' }],
      ['PATCH', '/v3/applications/whatever', { rotateSecret: 'yes' }],
      ['GET', `${groups}/${DEMO.engineering}/files?page=99999999999`, undefined],
      ['GET', `${groups}/${DEMO.engineering}/files?modifiedAfter=1e3`, undefined],
      ['GET', `${groups}/${DEMO.engineering}/files/abc/children`, undefined],
      ['GET', `${groups}/${DEMO.engineering}/duplicate?duplicateName=${encodeURIComponent('a/b')}`, undefined],
      ['GET', `/v3/groups/abc/files/1/download`, undefined],
      ['GET', `/v3/accounts/${DEMO.acme}/member-tags/${encodeURIComponent(' , ')}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await s.h.call(method, path, body === undefined ? { token: s.demo } : { token: s.demo, body });
      assert.ok(res.status >= 400 && res.status < 500, `${method} ${path}: ${res.status} ${res.text}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);
      assert.equal(typeof (res.body as { error: string }).error, 'string');
    }
  });

  void test('a malformed HTTP request gets a 400 and the server keeps serving', async () => {
    const { Socket } = await import('node:net');
    const url = new URL(s.h.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const s = new Socket();
      let data = '';
      s.setTimeout(5000, () => {
        s.destroy();
        reject(new Error('timeout'));
      });
      s.connect(Number(url.port), url.hostname, () => s.write('THIS IS NOT HTTP\r\n\r\n'));
      s.on('data', (d) => {
        data += d.toString();
      });
      s.on('close', () => resolve(data));
      s.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.equal((await s.h.call('GET', '/v3/userinfo', { token: s.demo })).status, 200);
  });

  void test('a client that aborts mid-body does not hang the server', async () => {
    const url = new URL(s.h.url);
    await new Promise<void>((resolve) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/v3/applications',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '1000', Authorization: `Bearer ${s.demo}` },
      });
      req.on('error', () => resolve());
      req.write('{"name": "half');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    assert.equal((await s.h.call('GET', '/v3/userinfo', { token: s.demo })).status, 200);
  });
});
