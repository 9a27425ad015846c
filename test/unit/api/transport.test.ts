import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PortalClient,
  PortalError,
  isLoopbackHost,
  parseBaseUrl,
  resolveProxy,
  buildQuery,
  parseRetryAfter,
  parseContentDisposition,
} from '../../../src/api';

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

void test('resolveProxy: setting first, then environment; NO_PROXY and http.noProxy passed on for undici to match', () => {
  assert.equal(
    resolveProxy({ baseUrl: 'https://p.example', httpProxy: 'http://proxy:3128' })?.url,
    'http://proxy:3128',
  );
  assert.equal(
    resolveProxy({ baseUrl: 'https://p.example', env: { https_proxy: 'proxy:8080' } })?.url,
    'http://proxy:8080',
  );
  assert.deepEqual(
    resolveProxy({
      baseUrl: 'https://p.example',
      noProxy: ['corp.example'],
      env: { HTTPS_PROXY: 'http://proxy:1', NO_PROXY: 'p.example, .internal' },
    })?.noProxy,
    ['corp.example', 'p.example', '.internal'],
  );
  assert.equal(resolveProxy({ baseUrl: 'https://p.example', env: {} }), undefined);
  assert.equal(
    resolveProxy({ baseUrl: 'https://p.example', httpProxy: 'http://x:1', strictSSL: false })?.strictSSL,
    false,
  );
});

void test('resolveProxy: a loopback portal never gets a proxy, whatever the settings say', () => {
  for (const baseUrl of ['http://127.0.0.1:8787', 'http://localhost:1', 'http://[::1]:2', 'http://app.localhost:3']) {
    assert.equal(
      resolveProxy({
        baseUrl,
        httpProxy: 'http://proxy:3128',
        env: { HTTP_PROXY: 'http://proxy:1', ALL_PROXY: 'http://proxy:2' },
      }),
      undefined,
      baseUrl,
    );
  }
});

void test('query strings, Retry-After, Content-Disposition', () => {
  assert.equal(
    buildQuery({ a: 1, b: true, c: undefined, d: null, summary: '', t: ['x', 'y z'] }),
    '?a=1&b=true&summary&t=x%2Cy%20z',
  );
  assert.equal(buildQuery({}), '');
  assert.equal(parseRetryAfter('3'), 3000);
  assert.equal(parseRetryAfter('0'), 0);
  assert.equal(parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now()) !== undefined, true);
  assert.equal(parseRetryAfter('soon'), undefined);
  assert.equal(parseContentDisposition('attachment; filename="a \\"b\\".txt"'), 'a "b".txt');
  assert.equal(parseContentDisposition("attachment; filename=x.txt; filename*=UTF-8''%C3%A9t%C3%A9.txt"), 'été.txt');
  assert.equal(parseContentDisposition('attachment; filename=plain.pdf'), 'plain.pdf');
  assert.equal(parseContentDisposition(undefined), undefined);
});
