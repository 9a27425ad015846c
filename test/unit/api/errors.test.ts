// Every PortalError kind, produced by the real emulator (or a tiny local server for "not a portal API").
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { PortalClient, PortalError } from '../../../src/api';
import { closedPort, kind, makeClient, passwordClient, plainServer, selfSignedCert, enrolledSuite } from './helpers';

void describe('error kinds from the portal', () => {
  const s = enrolledSuite();
  beforeEach(() => s.emu.clearFaults());

  void test('forbidden: a regular member may not manage members', async () => {
    const m = await passwordClient(s.emu, {}, { username: 'member', password: 'demo' });
    await assert.rejects(
      m.client.v3.members.create(s.acme, { name: 'No Way', username: 'no.way', email: 'no.way@acme.example' }),
      kind('forbidden', (e) => {
        assert.equal(e.status, 403);
        assert.equal(e.endpoint, `POST /v3/accounts/${s.acme}/members`);
        assert.ok(e.serverMessage);
        assert.match(e.message, /permission/);
      }),
    );
    m.client.close();
  });

  void test('not-found', async () => {
    await assert.rejects(
      s.t.client.v3.members.get(s.acme, 'nobody.at.all'),
      kind('not-found', (e) => assert.equal(e.status, 404)),
    );
  });

  void test('conflict: a taken username', async () => {
    await assert.rejects(
      s.t.client.v3.members.create(s.acme, { name: 'Demo Again', username: 'demo', email: 'demo.again@acme.example' }),
      kind('conflict', (e) => assert.equal(e.status, 409)),
    );
  });

  void test('invalid-input: field errors from the portal, and http:// on a non-loopback host', async () => {
    await assert.rejects(
      s.t.client.v3.members.create(s.acme, { name: 'No Mail', username: 'no.mail', email: 'not-an-address' }),
      kind('invalid-input', (e) => {
        assert.equal(e.status, 400);
        assert.ok(e.fieldErrors?.some((f) => f.field === 'email'));
        assert.match(e.message, /email/);
      }),
    );
    assert.throws(() => new PortalClient({ baseUrl: 'http://portal.example.com' }), kind('invalid-input'));
  });

  void test("rate-limited: once retries are exhausted, with the server's Retry-After", async () => {
    // Longer than the client waits (60 s by default): fail at once and say when to come back.
    s.emu.setFaults([{ kind: 'rate-limit', path: '/v3/userinfo', retryAfterSeconds: 120 }]);
    await assert.rejects(
      s.t.client.v3.userinfo(),
      kind('rate-limited', (e) => {
        assert.equal(e.status, 429);
        assert.equal(e.retryAfterMs, 120_000);
        assert.match(e.message, /Try again in 120 s/);
      }),
    );
    s.emu.setFaults([{ kind: 'rate-limit', path: '/v3/accounts', retryAfterSeconds: 1 }]);
    const limited = await passwordClient(s.emu, { retry: { rateLimitAttempts: 2 } });
    await assert.rejects(limited.client.v3.accounts.list(), kind('rate-limited'));
    assert.deepEqual(
      limited.logs.filter((l) => l.path === '/v3/accounts').map((l) => l.status),
      [429, 429],
    );
    limited.client.close();
  });

  void test('server: 500 on every try of a GET, after the retries', async () => {
    s.emu.setFaults([{ kind: 'status', status: 500, path: '/v3/userinfo' }]);
    s.emu.resetStats();
    await assert.rejects(
      s.t.client.v3.userinfo(),
      kind('server', (e) => assert.equal(e.status, 500)),
    );
    assert.equal(s.emu.stats().byRoute['GET /v3/userinfo'], 3);
  });

  void test('timeout: a slow body and a slow answer with small timeouts', async () => {
    const slowBody = await passwordClient(s.emu, { bodyTimeoutMs: 100, retry: { attempts: 1 } });
    // undici checks body and header timeouts on a coarse (~1 s) clock: make the gaps clearly longer than that.
    s.emu.setFaults([{ kind: 'slow-body', path: '/v3/userinfo', delayMs: 30_000 }]);
    await assert.rejects(
      slowBody.client.v3.userinfo(),
      kind('timeout', (e) => assert.match(e.message, /stopped sending/)),
    );
    slowBody.client.close();
    const slowHead = await passwordClient(s.emu, { headersTimeoutMs: 100, retry: { attempts: 2 } });
    s.emu.setFaults([{ kind: 'latency', path: '/v3/userinfo', delayMs: 30_000 }]);
    await assert.rejects(slowHead.client.v3.userinfo(), kind('timeout'));
    assert.equal(slowHead.logs.filter((l) => l.path === '/v3/userinfo').length, 2, 'a GET timeout is retried');
    slowHead.client.close();
  });

  void test('cancelled: before sending, while waiting for the answer, while queued', async () => {
    const pre = new AbortController();
    pre.abort();
    await assert.rejects(s.t.client.v3.userinfo({ signal: pre.signal }), kind('cancelled'));

    s.emu.setFaults([{ kind: 'latency', path: '/v3/userinfo', delayMs: 120_000 }]);
    const mid = new AbortController();
    const pending = s.t.client.v3.userinfo({ signal: mid.signal });
    setTimeout(() => mid.abort(), 50);
    await assert.rejects(
      pending,
      kind('cancelled', (e) => assert.equal(e.endpoint, 'GET /v3/userinfo')),
    );

    const one = await passwordClient(s.emu, { maxConcurrent: 1 });
    const blocker = one.client.v3.userinfo().catch(() => undefined);
    const queued = new AbortController();
    const waiting = one.client.v3.accounts.list(undefined, { signal: queued.signal });
    queued.abort();
    await assert.rejects(waiting, kind('cancelled'));
    assert.equal(
      one.logs.filter((l) => l.path.startsWith('/v3/accounts')).length,
      0,
      'a cancelled queued call never went out',
    );
    // The blocker's answer is held far beyond need: let it go rather than wait it out.
    s.emu.releaseDelays();
    one.client.close();
    await blocker;
  });

  void test('invalid-response: malformed and truncated JSON', async () => {
    s.emu.setFaults([{ kind: 'malformed-json', path: '/v3/userinfo' }]);
    await assert.rejects(
      s.t.client.v3.userinfo(),
      kind('invalid-response', (e) => assert.match(e.message, /did not answer like a portal API/)),
    );
    s.emu.setFaults([{ kind: 'truncated-json', path: '/v3/userinfo' }]);
    await assert.rejects(s.t.client.v3.userinfo(), kind('invalid-response'));
  });
});

void describe('error kinds without a portal', () => {
  void test('network: connection refused, also for the POST of a grant (retried: it never left)', async () => {
    const port = await closedPort();
    const { client, logs } = makeClient({ url: `http://127.0.0.1:${port}` });
    await assert.rejects(
      client.signIn({ kind: 'password', username: 'demo', password: 'demo' }),
      kind('network', (e) => {
        assert.equal(
          e.message,
          `Could not reach 127.0.0.1:${port} (connection refused). Check the portal URL and your network or proxy.`,
        );
        assert.equal(e.endpoint, 'POST /oauth/token');
      }),
    );
    assert.equal(logs.length, 3, 'connect failures are retried even for POST');
    client.close();
  });

  void test('invalid-response: an HTML web server is "not a portal API"', async () => {
    const html = await plainServer((req, res) => {
      res.writeHead(req.url?.startsWith('/oauth') ? 200 : 404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Welcome</title><h1>Our website</h1>');
    });
    const { client } = makeClient(html);
    await assert.rejects(
      client.signIn({ kind: 'client', clientId: 'x', clientSecret: 'y' }),
      kind('invalid-response', (e) => {
        assert.match(e.message, /did not answer like a portal API/);
        assert.match(e.message, /text\/html/);
      }),
    );
    client.setCredentials(undefined);
    client.close();
    await html.close();
  });

  void test('invalid-response: a redirect is not followed and names where it pointed', async () => {
    const redirect = await plainServer((_req, res) => {
      res.writeHead(302, { location: 'https://login.example.com/sso' });
      res.end();
    });
    const { client } = makeClient(redirect);
    await assert.rejects(
      client.signIn({ kind: 'client', clientId: 'x', clientSecret: 'y' }),
      kind('invalid-response', (e) => {
        assert.match(e.message, /https:\/\/login\.example\.com/);
        assert.equal(e.status, 302);
      }),
    );
    client.close();
    await redirect.close();
  });

  void test('invalid-response: a JSON answer without the identity field', async () => {
    const fake = await plainServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        req.url?.startsWith('/oauth')
          ? JSON.stringify({ access_token: 'fake-token-123', expires_in: 60 })
          : JSON.stringify([{ name: 'no id' }]),
      );
    });
    const { client } = makeClient(fake);
    await client.signIn({ kind: 'client', clientId: 'x', clientSecret: 'y' });
    await assert.rejects(
      client.v3.accounts.list(),
      kind('invalid-response', (e) => {
        assert.equal(e.endpoint, 'GET /v3/accounts');
        assert.match(e.message, /organisation/);
      }),
    );
    client.close();
    await fake.close();
  });

  void test('tls: https to a server that does not speak TLS', async () => {
    const plain = await plainServer((_req, res) => res.end('{}'));
    const { client } = makeClient({ url: plain.url.replace('http:', 'https:') }, { retry: { attempts: 1 } });
    await assert.rejects(client.signIn({ kind: 'client', clientId: 'x', clientSecret: 'y' }), kind('tls'));
    client.close();
    await plain.close();
  });

  void test('tls: a self-signed certificate is refused, and accepted once it is trusted', async (t) => {
    const pem = selfSignedCert('127.0.0.1');
    if (!pem) {
      t.skip('openssl is not available to make a certificate');
      return;
    }
    const server = createHttpsServer(pem, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'tls-token-1234' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const strict = makeClient({ url });
      await assert.rejects(
        strict.client.signIn({ kind: 'client', clientId: 'x', clientSecret: 'y' }),
        kind('tls', (e) => assert.match(e.message, /self-signed/)),
      );
      strict.client.close();
      const trusting = makeClient({ url }, { ca: pem.cert.toString() });
      await trusting.client.signIn({ kind: 'client', clientId: 'x', clientSecret: 'y' });
      trusting.client.close();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  void test('every error is a PortalError with an endpoint and no query string', async () => {
    const port = await closedPort();
    const { client } = makeClient(
      { url: `http://127.0.0.1:${port}` },
      { retry: { attempts: 1 }, credentials: { kind: 'client', clientId: 'a', clientSecret: 'b' } },
    );
    const err = await client.v3.members.page(1, { name: 'x', page: 2 }).catch((e: unknown) => e);
    assert.ok(err instanceof PortalError);
    assert.ok(!err.endpoint.includes('?'));
    client.close();
  });
});
