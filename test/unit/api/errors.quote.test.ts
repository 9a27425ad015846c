// Server text that goes into a message: one short line, no control or direction-changing characters, no markup.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_QUOTED_CHARS, PortalError, cancelledError, errorMessage, quoteServerText } from '../../../src/api';
import { httpError, plainServerText } from '../../../src/api/http';
import { kind, hostileSuite } from './helpers';

void test('quoteServerText: controls and bidi characters go, whitespace collapses, length is capped', () => {
  assert.equal(quoteServerText('a\u202Egnp.exe\u0000 b\n\n\tc\u2066x\u2069'), 'a gnp.exe b c x');
  const long = quoteServerText('word '.repeat(2000));
  assert.equal(long.length, MAX_QUOTED_CHARS);
  assert.ok(long.endsWith('…'));
  // A surrogate pair is never cut in half.
  const emoji = quoteServerText('😀'.repeat(400));
  assert.ok(!/[\uD800-\uDBFF]…$/.test(emoji));
});

void test('an HTML error page becomes its title, never markup, never 20 KB', () => {
  const page = `<!doctype html><html><head><title>503 Service &amp; Unavailable</title></head><body>${'<p>[Click](command:workbench.action.openSettings)</p>'.repeat(400)}</body></html>`;
  assert.ok(page.length > 20_000);
  const headers = { 'content-type': 'text/html; charset=utf-8' };
  assert.equal(plainServerText(page, headers), '503 Service & Unavailable');
  const error = httpError({ status: 503, headers, text: page, endpoint: 'GET /v3/userinfo', host: 'p.example' });
  assert.equal(error.kind, 'server');
  assert.equal(
    error.message,
    'The portal had a problem answering (HTTP 503): 503 Service & Unavailable. Try again later.',
  );
  assert.equal(error.serverMessage, '503 Service & Unavailable');
  // A page without a title says nothing rather than its markup.
  assert.equal(plainServerText('<html><body><h1>x</h1></body></html>', {}), undefined);
});

void test('plain-text and JSON error bodies: kept as data, quoted short in the message', () => {
  const text = `Denied\u202E [Fix](command:workbench.action.openSettings) ${'x'.repeat(5000)}`;
  const plain = httpError({
    status: 403,
    headers: { 'content-type': 'text/plain' },
    text,
    endpoint: 'DELETE /v3/x',
    host: 'h',
  });
  assert.equal(plain.kind, 'forbidden');
  assert.ok(plain.message.length < MAX_QUOTED_CHARS + 120, plain.message);
  assert.ok(!plain.message.includes('\u202E'));
  const json = httpError({
    status: 409,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify({ error: 'conflict', message: `taken\n${'y'.repeat(1000)}` }),
    endpoint: 'POST /v2/x',
    host: 'h',
  });
  assert.equal(json.kind, 'conflict');
  assert.equal(json.serverMessage?.length, 1006, 'the whole server message stays available as data');
  assert.ok(json.message.length < MAX_QUOTED_CHARS + 150);
  const empty = httpError({ status: 404, headers: {}, text: '', endpoint: 'GET /v3/applications/a', host: 'h' });
  assert.equal(empty.kind, 'not-found');
  assert.equal(empty.serverMessage, undefined);
  const unsupported = httpError({ status: 405, headers: {}, text: '', endpoint: 'GET /v3/applications/a', host: 'h' });
  assert.equal(unsupported.kind, 'not-found');
  assert.match(unsupported.message, /does not offer this request \(HTTP 405\)/);
});

void test('errorMessage and cancelledError: one way to say what went wrong, one cancellation', () => {
  assert.equal(errorMessage(new PortalError({ kind: 'auth', endpoint: '', message: 'm' })), 'm');
  assert.equal(errorMessage(new Error('e')), 'e');
  assert.equal(errorMessage('s'), 's');
  assert.equal(errorMessage(42), '42');
  const c = cancelledError('GET /v3/userinfo');
  assert.equal(c.kind, 'cancelled');
  assert.equal(c.endpoint, 'GET /v3/userinfo');
});

void describe('the hostile seed', () => {
  const s = hostileSuite();

  void test('an error message with a command link is kept as data and quoted on one short line', async () => {
    const account = (await s.t.client.v3.accounts.list())[0]?.id ?? 1;
    await assert.rejects(
      s.t.client.v3.members.delete(account, 'trap.member'),
      kind('forbidden', (e) => {
        assert.match(e.serverMessage ?? '', /command:/, "the portal's words are kept as they were");
        // eslint-disable-next-line no-control-regex -- control characters are what the message must not hold
        assert.ok(!/[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/.test(e.message));
        assert.ok(e.message.length < 400);
      }),
    );
  });
});
