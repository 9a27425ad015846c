import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PortalClient, PortalError, isLoopbackHost, parseBaseUrl, bypassesProxy, resolveProxy, buildQuery, parseRetryAfter,
  parseContentDisposition,
} from '../../../src/api';

const invalidInput = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-input';

void test('loopback hosts', () => {
  for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', 'app.localhost']) assert.ok(isLoopbackHost(h), h);
  for (const h of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com']) assert.ok(!isLoopbackHost(h), h);
});

void test('http is refused except on loopback; credentials in URLs are refused', () => {
  assert.throws(() => new PortalClient({ baseUrl: 'http://portal.example.com', service: 'portal' }), (e: unknown) => invalidInput(e) && /https/.test((e as Error).message));
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

void test('NO_PROXY matching', () => {
  const list = ['localhost', '.corp.example', '*.internal', '10.0.0.0/8', 'svc:8443'];
  assert.ok(bypassesProxy('localhost', 80, list));
  assert.ok(bypassesProxy('a.corp.example', 443, list));
  assert.ok(bypassesProxy('corp.example', 443, list));
  assert.ok(bypassesProxy('x.internal', 443, list));
  assert.ok(bypassesProxy('10.2.3.4', 443, list));
  assert.ok(bypassesProxy('svc', 8443, list));
  assert.ok(!bypassesProxy('svc', 443, list));
  assert.ok(!bypassesProxy('example.com', 443, list));
  assert.ok(!bypassesProxy('127.0.0.1', 80, list));
  assert.ok(bypassesProxy('anything', 1, ['*']));
  assert.ok(!bypassesProxy('x', 1, undefined));
});

void test('resolveProxy: setting first, then environment, honouring NO_PROXY', () => {
  assert.equal(resolveProxy({ baseUrl: 'https://p.example', httpProxy: 'http://proxy:3128' })?.url, 'http://proxy:3128');
  assert.equal(resolveProxy({ baseUrl: 'https://p.example', env: { https_proxy: 'proxy:8080' } })?.url, 'http://proxy:8080');
  assert.equal(resolveProxy({ baseUrl: 'https://p.example', env: { HTTPS_PROXY: 'http://proxy:1', NO_PROXY: 'p.example' } }), undefined);
  assert.equal(resolveProxy({ baseUrl: 'https://p.example', env: {} }), undefined);
  assert.equal(resolveProxy({ baseUrl: 'https://p.example', httpProxy: 'http://x:1', strictSSL: false })?.strictSSL, false);
});

void test('query strings, Retry-After, Content-Disposition', () => {
  assert.equal(buildQuery({ a: 1, b: true, c: undefined, d: null, summary: '', t: ['x', 'y z'] }), '?a=1&b=true&summary&t=x%2Cy%20z');
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
