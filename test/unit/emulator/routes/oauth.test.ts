import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, startHarness, type Harness } from '../helpers';
import { testClock } from '../../../support/clock';

interface TokenBody {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  error?: string;
  error_description?: string;
}

void describe('token endpoint', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.stop());

  const grant = (params: Record<string, string>) =>
    h.call<TokenBody>('GET', `/oauth/token?${new URLSearchParams(params)}`);
  const password = (username: string, pw: string, extra: Record<string, string> = {}) =>
    grant({ grant_type: 'password', client_id: 'portal-mobile', username, password: pw, ...extra });
  /** An application the holder of `token` registers: its client id and secret. */
  const application = async (token: string, name: string) =>
    (await h.call<{ clientId: string; clientSecret: string }>('POST', '/v3/applications', { token, body: { name } }))
      .body;
  const clientCredentials = (app: { clientId: string; clientSecret: string }, extra: Record<string, string> = {}) =>
    grant({ grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.clientSecret, ...extra });

  void test('password grant by GET answers the token shape', async () => {
    const res = await password('demo', 'demo');
    assert.equal(res.status, 200);
    assert.equal(res.body.token_type, 'bearer');
    assert.equal(res.body.scope, 'read write');
    assert.equal(res.body.expires_in, 1800);
    assert.equal(typeof res.body.access_token, 'string');
    assert.equal(typeof res.body.refresh_token, 'string');
    assert.notEqual(res.body.access_token, res.body.refresh_token);
    const me = await h.call<{ name: string }>('GET', '/v3/userinfo', { token: res.body.access_token });
    assert.equal(me.body.name, 'demo');
  });

  void test('password grant by POST with a form body, and with params split between query and body', async () => {
    const form = await h.call<TokenBody>('POST', '/oauth/token', {
      rawBody: new URLSearchParams({
        grant_type: 'password',
        client_id: 'portal-mobile',
        username: 'member',
        password: 'demo',
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 200, form.text);
    const split = await h.call<TokenBody>('POST', '/oauth/token?grant_type=password&client_id=portal-mobile', {
      rawBody: 'username=member&password=demo',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(split.status, 200, split.text);
    const me = await h.call<{ name: string }>('GET', '/v3/userinfo', { token: split.body.access_token });
    assert.equal(me.body.name, 'member');
  });

  void test('wrong client id is 401 invalid_client', async () => {
    const res = await grant({ grant_type: 'password', client_id: 'other-mobile', username: 'demo', password: 'demo' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
    assert.equal(typeof res.body.error_description, 'string');
  });

  void test('wrong password or unknown user is 400 invalid_grant Bad credentials', async () => {
    for (const [u, p] of [
      ['demo', 'nope'],
      ['nobody', 'demo'],
    ] as const) {
      const res = await password(u, p);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'invalid_grant', error_description: 'Bad credentials' });
    }
  });

  void test('two-factor user: missing_2fa without code, invalid_2fa with a wrong one, token with the right one', async () => {
    const missing = await password('demo-2fa', 'demo');
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'missing_2fa' });
    const wrong = await password('demo-2fa', 'demo', { code: '000000' });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, { error: 'invalid_2fa' });
    const ok = await password('demo-2fa', 'demo', { code: '123456' });
    assert.equal(ok.status, 200);
    // A wrong password is still reported as bad credentials, not as a 2FA prompt.
    const bad = await password('demo-2fa', 'wrong');
    assert.equal(bad.body.error, 'invalid_grant');
  });

  void test('disabled and locked users are refused', async () => {
    const disabled = await password('victor.hale', 'demo');
    assert.equal(disabled.status, 400);
    assert.deepEqual(disabled.body, { error: 'invalid_grant', error_description: 'User is disabled' });
    const locked = await password('lena.locked', 'demo');
    assert.equal(locked.status, 400);
    assert.deepEqual(locked.body, { error: 'invalid_grant', error_description: 'User account is locked' });
  });

  void test('missing or unknown grant type', async () => {
    const missing = await grant({ client_id: 'portal-mobile' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, 'invalid_request');
    const unknown = await grant({ grant_type: 'implicit' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, 'unsupported_grant_type');
    const noUser = await grant({ grant_type: 'password', client_id: 'portal-mobile' });
    assert.equal(noUser.status, 400);
    assert.equal(noUser.body.error, 'invalid_request');
  });

  void test('client credentials: application secret gives a token; wrong secret or unknown id is 401 invalid_client', async () => {
    const token = await h.login();
    const app = await application(token, 'cc test');
    const ok = await clientCredentials(app);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.scope, 'read write');
    assert.equal(ok.body.token_type, 'bearer');
    const me = await h.call<{ name: string }>('GET', '/v3/userinfo', { token: ok.body.access_token });
    assert.equal(me.body.name, 'demo');
    const explicitScope = await clientCredentials(app, { scope: 'read' });
    assert.equal(explicitScope.body.scope, 'read');
    const badScope = await clientCredentials(app, { scope: 'admin' });
    assert.equal(badScope.status, 400);
    assert.equal(badScope.body.error, 'invalid_scope');
    for (const [id, secret] of [
      [app.clientId, 'wrong'],
      ['portal-unknown', 'x'],
      [app.clientId, ''],
    ]) {
      const res = await grant({ grant_type: 'client_credentials', client_id: id ?? '', client_secret: secret ?? '' });
      assert.equal(res.status, 401);
      assert.equal(res.body.error, 'invalid_client');
    }
  });

  void test('client credentials of a disabled owner is 400 User is disabled', async () => {
    const admin = await h.login();
    const mia = await h.login('member');
    const app = await application(mia, 'mia app');
    assert.equal(
      (await h.call('PATCH', '/v3/accounts/1/members/member', { token: admin, body: { enabled: false } })).status,
      200,
    );
    try {
      const res = await clientCredentials(app);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'invalid_grant', error_description: 'User is disabled' });
      // Tokens already issued to a disabled user stop working too.
      assertError(await h.call('GET', '/v3/userinfo', { token: mia }), 401, 'unauthorized');
    } finally {
      await h.call('PATCH', '/v3/accounts/1/members/member', { token: admin, body: { enabled: true } });
    }
  });

  void test('refresh grant by POST form body and by GET query keeps the refresh token and issues a new access token', async () => {
    const first = await password('demo', 'demo');
    const posted = await h.call<TokenBody>('POST', '/oauth/token?grant_type=refresh_token&client_id=portal-mobile', {
      rawBody: `refresh_token=${encodeURIComponent(first.body.refresh_token)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(posted.status, 200, posted.text);
    assert.notEqual(posted.body.access_token, first.body.access_token);
    assert.equal(posted.body.refresh_token, first.body.refresh_token);
    const viaGet = await grant({
      grant_type: 'refresh_token',
      client_id: 'portal-mobile',
      refresh_token: first.body.refresh_token,
    });
    assert.equal(viaGet.status, 200);
    assert.equal((await h.call('GET', '/v3/userinfo', { token: viaGet.body.access_token })).status, 200);
  });

  void test('refresh grant errors: unknown token 401 invalid_token, wrong client 400, missing params', async () => {
    const first = await password('demo', 'demo');
    const unknown = await grant({ grant_type: 'refresh_token', client_id: 'portal-mobile', refresh_token: 'nope' });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error, 'invalid_token');
    const token = await h.login();
    const app = await application(token, 'other client');
    const wrongClient = await grant({
      grant_type: 'refresh_token',
      client_id: app.clientId,
      refresh_token: first.body.refresh_token,
    });
    assert.equal(wrongClient.status, 400);
    assert.equal(wrongClient.body.error, 'invalid_grant');
    const noToken = await grant({ grant_type: 'refresh_token', client_id: 'portal-mobile' });
    assert.equal(noToken.body.error, 'invalid_request');
    const noClient = await grant({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    assert.equal(noClient.status, 401);
    assert.equal(noClient.body.error, 'invalid_client');
  });

  void test('refresh of an application token checks the secret when one is sent', async () => {
    const token = await h.login();
    const app = await application(token, 'refresher');
    const cc = await clientCredentials(app);
    const good = await grant({
      grant_type: 'refresh_token',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      refresh_token: cc.body.refresh_token,
    });
    assert.equal(good.status, 200);
    const bad = await grant({
      grant_type: 'refresh_token',
      client_id: app.clientId,
      client_secret: 'wrong',
      refresh_token: cc.body.refresh_token,
    });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.error, 'invalid_client');
  });

  void test('API auth: missing token 401, unknown token 401 with WWW-Authenticate invalid_token', async () => {
    const missing = await h.call('GET', '/v3/userinfo');
    assertError(missing, 401, 'unauthorized');
    const bogus = await h.call('GET', '/v3/userinfo', { token: 'not-a-token' });
    assertError(bogus, 401, 'unauthorized');
    assert.equal(bogus.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    const basic = await h.call('GET', '/v3/userinfo', { headers: { Authorization: 'Basic abc' } });
    assertError(basic, 401, 'unauthorized');
  });

  void test('token requests are counted in stats', async () => {
    h.emu.resetStats();
    await password('demo', 'demo');
    await password('demo', 'wrong');
    const stats = h.emu.stats();
    assert.equal(stats.tokenRequests, 2);
    assert.equal(stats.byRoute['GET /oauth/token'], 2);
  });
});

void describe('token lifetime and service name', () => {
  void test('tokens expire after the configured lifetime; expires_in reports it', async () => {
    const clock = testClock();
    const h = await startHarness({ tokenLifetimeSeconds: 1, clock: clock.now });
    try {
      const res = await h.call<TokenBody>(
        'GET',
        '/oauth/token?grant_type=password&client_id=portal-mobile&username=demo&password=demo',
      );
      assert.equal(res.body.expires_in, 1);
      const userinfo = async () => (await h.call('GET', '/v3/userinfo', { token: res.body.access_token })).status;
      clock.advance(999);
      assert.equal(await userinfo(), 200, 'alive until the second is up');
      clock.advance(1);
      assert.equal(await userinfo(), 401);
      // The refresh token lives ten lifetimes, so it still works.
      const refreshed = await h.call<TokenBody>(
        'GET',
        `/oauth/token?grant_type=refresh_token&client_id=portal-mobile&refresh_token=${res.body.refresh_token}`,
      );
      assert.equal(refreshed.status, 200);
    } finally {
      await h.stop();
    }
  });

  void test('the service name sets the static client id and the user field name', async () => {
    const h = await startHarness({ service: 'acme' });
    try {
      const wrong = await h.call<TokenBody>(
        'GET',
        '/oauth/token?grant_type=password&client_id=portal-mobile&username=demo&password=demo',
      );
      assert.equal(wrong.status, 401);
      const ok = await h.call<TokenBody>(
        'GET',
        '/oauth/token?grant_type=password&client_id=acme-mobile&username=demo&password=demo',
      );
      assert.equal(ok.status, 200);
      const me = await h.call<Record<string, unknown>>('GET', '/v3/userinfo', { token: ok.body.access_token });
      assert.ok(me.body.acme);
      assert.equal(me.body.portal, undefined);
    } finally {
      await h.stop();
    }
  });
});
