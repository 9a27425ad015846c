// Every grant, single-flight renewal and the signed-out state, against the real emulator.
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PortalError, type TokenSet } from '../../../src/api';
import { DEMO, emulator, enrolledClient, kind, makeClient, passwordClient, emulatorSuite } from './helpers';
import { testClock } from '../../support/clock';

void describe('grants', () => {
  const s = emulatorSuite();
  beforeEach(() => {
    s.emu.reset();
    s.emu.resetStats();
  });

  void test('password grant: the token works, the User-Agent names the extension', async () => {
    const { client } = await passwordClient(s.emu);
    assert.equal(client.credentialKind, 'password');
    assert.match(client.userAgent, /^portal-vscode\/\d+\.\d+\.\d+/);
    assert.equal((await client.v3.userinfo()).name, 'demo');
    assert.equal(typeof (await client.accessToken()), 'string');
    client.close();
  });

  void test('wrong password, disabled and locked users are auth errors that say why', async () => {
    const { client } = makeClient(s.emu);
    await assert.rejects(
      client.signIn({ kind: 'password', username: 'demo', password: 'not-the-password' }),
      kind('auth', (e) => {
        assert.match(e.message, /user name or password is wrong/);
        assert.equal(e.code, 'invalid_grant');
      }),
    );
    await assert.rejects(
      client.signIn({ kind: 'password', username: 'victor.hale', password: 'demo' }),
      kind('auth', (e) => assert.match(e.message, /disabled/)),
    );
    await assert.rejects(
      client.signIn({ kind: 'password', username: 'lena.locked', password: 'demo' }),
      kind('auth', (e) => assert.match(e.message, /locked/)),
    );
    assert.equal(client.credentialKind, undefined, 'failed sign-ins keep no credentials');
    client.close();
  });

  void test('two-factor: missing code, wrong code, right code', async () => {
    const { client } = makeClient(s.emu);
    const creds = { kind: 'password', username: 'demo-2fa', password: 'demo' } as const;
    await assert.rejects(client.signIn(creds), kind('two-factor-required'));
    await assert.rejects(client.signIn({ ...creds, code: '000000' }), kind('two-factor-invalid'));
    await client.signIn({ ...creds, code: '123456' });
    assert.equal((await client.v3.userinfo()).name, 'demo-2fa');
    client.close();
  });

  void test('a lazy password grant (setCredentials) maps errors the same way', async () => {
    const { client } = makeClient(s.emu, { credentials: { kind: 'password', username: 'demo-2fa', password: 'demo' } });
    // Stored credentials that stop working (here: the portal wants a code) sign the client out.
    await assert.rejects(
      client.v3.userinfo(),
      kind('signed-out', (e) => assert.match(e.message, /two-factor code/)),
    );
    client.setCredentials(DEMO);
    assert.equal((await client.v3.userinfo()).name, 'demo');
    client.close();
  });

  void test('enrollApplication (v3): creates the app, switches to client credentials, drops the password', async () => {
    const t = await enrolledClient(s.emu);
    assert.equal(t.client.credentialKind, 'client');
    assert.equal(t.client.clientId, t.clientId);
    const apps = await t.client.v3.applications.list();
    assert.ok(apps.some((a) => a.clientId === t.clientId));
    const other = makeClient(s.emu);
    await other.client.signIn({ kind: 'client', clientId: t.clientId, clientSecret: t.clientSecret });
    assert.equal((await other.client.v3.userinfo()).name, 'demo');
    other.client.close();
    t.client.close();
  });

  void test('enrollApplicationV2: same through POST /v2/applications', async () => {
    const { client } = await passwordClient(s.emu);
    const r = await client.enrollApplicationV2({ name: 'v2 enrolment', platform: 'OTHER', deviceType: 'Other' });
    assert.ok(r.clientSecret);
    assert.equal(client.credentialKind, 'client');
    assert.equal((await client.v3.userinfo()).name, 'demo');
    client.close();
  });

  void test('an enrolment whose new credentials fail deletes the application it created: no orphan on the portal', async () => {
    const { client } = await passwordClient(s.emu);
    const before = (await client.v3.applications.list()).map((a) => a.clientId);
    // The application is created; the grant that proves its secret fails.
    s.emu.setFaults([{ kind: 'status', status: 500, path: '/oauth/token', method: 'POST', count: 1 }]);
    await assert.rejects(
      client.enrollApplication({ name: 'orphan?', platform: 'OTHER', deviceType: 'Other' }),
      kind('server'),
    );
    s.emu.clearFaults();
    assert.equal(client.credentialKind, 'password', 'the password session is still usable');
    assert.deepEqual(
      (await client.v3.applications.list()).map((a) => a.clientId).sort(),
      before.sort(),
      'nothing was left behind',
    );
    client.close();
  });

  void test('enrollApplication needs a password session', async () => {
    const { client } = makeClient(s.emu);
    await assert.rejects(client.enrollApplication({ name: 'x' }), kind('auth'));
    client.close();
  });

  void test('client credentials: a wrong secret is an auth error', async () => {
    const t = await enrolledClient(s.emu);
    const { client } = makeClient(s.emu);
    await assert.rejects(
      client.signIn({ kind: 'client', clientId: t.clientId, clientSecret: 'not-the-secret' }),
      kind('auth', (e) => assert.equal(e.code, 'invalid_client')),
    );
    client.close();
    t.client.close();
  });

  void test('refresh grant: a stored token set is renewed with its refresh token', async () => {
    const saved: Array<TokenSet | undefined> = [];
    const a = await passwordClient(s.emu, {
      tokenStore: {
        load: () => undefined,
        save: (s) => {
          saved.push(s);
        },
      },
    });
    const stored = saved.at(-1);
    assert.ok(stored?.refreshToken, 'the password grant answered a refresh token and the store got it');
    a.client.close();
    // A second client with no credentials, only the stored tokens, which it believes expired.
    s.emu.resetStats();
    const b = makeClient(s.emu, {
      tokenStore: { load: () => ({ ...stored, expiresAt: Date.now() - 1000 }), save: () => undefined },
    });
    assert.equal((await b.client.v3.userinfo()).name, 'demo');
    assert.equal(s.emu.stats().tokenRequests, 1);
    // Access and refresh tokens killed: with nothing else to fall back on, the client is signed out.
    s.emu.expireAllTokens();
    await assert.rejects(b.client.v3.userinfo(), kind('signed-out'));
    b.client.close();
  });

  void test('password session: a dead refresh token falls back to the password grant', async () => {
    const { client } = await passwordClient(s.emu);
    s.emu.expireAllTokens();
    s.emu.resetStats();
    assert.equal((await client.v3.userinfo()).name, 'demo');
    assert.equal(s.emu.stats().tokenRequests, 2, 'refresh (refused), then password');
    client.close();
  });

  void test('tokens are renewed shortly before they expire, without a 401', async () => {
    // The portal and the client share a clock the test moves, so the token's life is the test's, not the machine's.
    const clock = testClock();
    const short = await emulator({ tokenLifetimeSeconds: 1, clock: clock.now });
    try {
      const t = await enrolledClient(short, { clock: clock.now });
      short.resetStats();
      t.logs.length = 0;
      // 950 ms into a 1 s token: still good on the portal, and past the client's early renewal (a tenth before).
      clock.advance(950);
      await Promise.all(Array.from({ length: 20 }, () => t.client.v3.userinfo()));
      assert.equal(short.stats().tokenRequests, 1, 'the twenty calls share one renewal, made before the token ended');
      assert.equal(t.logs.filter((l) => l.status === 401).length, 0);
      t.client.close();
    } finally {
      await short.stop();
    }
  });
});

void describe('single-flight renewal and signed-out', () => {
  const s = emulatorSuite();
  beforeEach(() => {
    s.emu.reset();
    s.emu.resetStats();
  });

  void test('50 concurrent calls after expireAllTokens cause exactly one token request', async () => {
    const t = await enrolledClient(s.emu);
    await t.client.v3.userinfo();
    s.emu.expireAllTokens();
    s.emu.resetStats();
    const results = await Promise.all(Array.from({ length: 50 }, () => t.client.v3.userinfo()));
    assert.equal(results.length, 50);
    assert.ok(results.every((r) => r.name === 'demo'));
    assert.equal(s.emu.stats().tokenRequests, 1);
    t.client.close();
  });

  void test('revoked application: signed-out once, onSignedOut once, then fail fast without the network', async () => {
    const signedOut: PortalError[] = [];
    const t = await enrolledClient(s.emu, { onSignedOut: (e) => signedOut.push(e) });
    await t.client.v3.userinfo();
    s.emu.revokeApplication(t.clientId);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => t.client.v3.userinfo()));
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      assert.ok(r.reason instanceof PortalError && r.reason.kind === 'signed-out', String(r.reason));
    }
    assert.equal(signedOut.length, 1);
    assert.equal(t.client.isSignedOut, true);
    const before = s.emu.stats().requests;
    await assert.rejects(
      t.client.v3.accounts.list(),
      kind('signed-out', (e) => assert.equal(e.endpoint, 'GET /v3/accounts')),
    );
    assert.equal(s.emu.stats().requests, before, 'no request once signed out');
    // New credentials clear the state.
    await t.client.signIn(DEMO);
    assert.equal((await t.client.v3.userinfo()).name, 'demo');
    t.client.close();
  });

  void test('deleting the application it runs on signs the client out', async () => {
    const signedOut: PortalError[] = [];
    const t = await enrolledClient(s.emu, { onSignedOut: (e) => signedOut.push(e) });
    await t.client.v3.applications.delete(t.clientId);
    await assert.rejects(
      t.client.v3.userinfo(),
      kind('signed-out', (e) => assert.match(e.message, /signed out/i)),
    );
    assert.equal(signedOut.length, 1);
    t.client.close();
  });

  void test('no credentials at all: signed-out without a callback', async () => {
    const signedOut: PortalError[] = [];
    const { client } = makeClient(s.emu, { onSignedOut: (e) => signedOut.push(e) });
    await assert.rejects(
      client.v3.userinfo(),
      kind('signed-out', (e) => assert.equal(e.endpoint, 'GET /v3/userinfo')),
    );
    assert.equal(signedOut.length, 0);
    assert.equal(s.emu.stats().requests, 0);
    client.close();
  });
});

void describe('token requests: a password goes into a URL only for a portal that takes nothing but GET', () => {
  const s = emulatorSuite();
  beforeEach(() => {
    s.emu.reset();
    s.emu.resetStats();
  });

  const tokenLines = (logs: { method: string; path: string; status?: number }[]) =>
    logs.filter((l) => l.path.startsWith('/oauth/token')).map((l) => `${l.method} ${l.status ?? ''}`);

  // What a mistyped base path, a web server's error page or a gateway answers: not "use GET".
  for (const [status, shape] of [
    [400, 'html'],
    [404, 'html'],
    [404, 'empty'],
    [415, 'text'],
  ] as const) {
    void test(`a token POST refused with ${status} (${shape} body) fails the sign-in, and the next one POSTs again`, async () => {
      s.emu.setFaults([{ kind: 'error-body', status, shape, method: 'POST', path: '/oauth/token', count: 1 }]);
      const c = makeClient(s.emu);
      await assert.rejects(c.client.signIn(DEMO), kind('invalid-response'));
      assert.deepEqual(tokenLines(c.logs), [`POST ${status}`], 'no GET with the password in its query');
      await c.client.signIn(DEMO);
      assert.deepEqual(tokenLines(c.logs), [`POST ${status}`, 'POST 200'], 'not switched to GET for good');
      assert.equal(s.emu.stats().byRoute['GET /oauth/token'], undefined);
      c.client.close();
    });
  }

  for (const status of [405, 501]) {
    void test(`a token POST refused with ${status} is asked again with GET (a GET-only portal)`, async () => {
      s.emu.setFaults([{ kind: 'error-body', status, shape: 'empty', method: 'POST', path: '/oauth/token' }]);
      const c = makeClient(s.emu);
      await c.client.signIn(DEMO);
      assert.deepEqual(tokenLines(c.logs), [`POST ${status}`, 'GET 200']);
      assert.equal((await c.client.v3.userinfo()).name, 'demo');
      c.client.close();
    });
  }
});
