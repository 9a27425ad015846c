// Which base URLs a client accepts: https, or plain http only to this computer (a *.localhost name included only
// when it resolves here).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CODES, PortalClient, PortalError, isLoopbackHost, parseBaseUrl } from '../../../src/api';
import { fixedLookup, kind, makeClient, emulatorSuite } from './helpers';

const invalidInput = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-input';

void test('loopback hosts', () => {
  for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', 'app.localhost'])
    assert.ok(isLoopbackHost(h), h);
  for (const h of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com']) assert.ok(!isLoopbackHost(h), h);
});

void test('http is refused except on loopback; credentials in URLs are refused', () => {
  assert.throws(
    () => new PortalClient({ baseUrl: 'http://portal.example.com', service: 'portal' }),
    (e: unknown) => invalidInput(e) && /https/.test((e as Error).message),
  );
  assert.throws(() => parseBaseUrl('ftp://x'), invalidInput);
  assert.throws(() => parseBaseUrl('not a url'), invalidInput);
  assert.throws(() => parseBaseUrl('https://u:p@portal.example.com'), invalidInput);
  const base = parseBaseUrl('http://127.0.0.1:8080/api/');
  assert.equal(base.origin, 'http://127.0.0.1:8080');
  assert.equal(base.basePath, '/api');
  assert.equal(parseBaseUrl('https://portal.example.com').port, 443);
  const c = new PortalClient({ baseUrl: 'https://portal.example.com' });
  assert.equal(c.service, 'portal');
  c.close();
});

void describe('*.localhost over plain http', () => {
  const s = emulatorSuite();

  void test('is trusted only when it resolves to this computer', async () => {
    const port = new URL(s.emu.url).port;
    const lookup = fixedLookup({
      'app.localhost': '127.0.0.1',
      'evil.localhost': '10.9.8.7',
      'mixed.localhost': '::ffff:10.0.0.1',
    });
    const good = makeClient({ url: `http://app.localhost:${port}` }, { lookup });
    await good.client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    assert.equal((await good.client.v3.userinfo()).name, 'demo');
    good.client.close();
    for (const host of ['evil.localhost', 'mixed.localhost']) {
      const bad = makeClient({ url: `http://${host}:${port}` }, { lookup });
      await assert.rejects(
        bad.client.signIn({ kind: 'password', username: 'demo', password: 'demo' }),
        kind('network', (e) => {
          assert.equal(e.code, ERROR_CODES.notLoopback);
          assert.match(e.message, new RegExp(`${host}:${port}.*does not resolve to this computer`));
        }),
      );
      assert.equal(bad.logs.length, 1, 'refused at once, not retried');
      bad.client.close();
    }
  });
});
