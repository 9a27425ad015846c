// Spec section 3, one test per transition row.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, assertError, startWithDemo, type App3, type Group2, type Harness, type Member2 } from './helpers';

interface Tokens {
  access_token: string;
  refresh_token: string;
  error?: string;
}

void describe('state transitions (spec 3)', () => {
  let h: Harness;
  let demo: string;
  before(async () => {
    ({ h, demo } = await startWithDemo());
  });
  after(() => h.stop());

  const clientCredentials = (id: string, secret: string) =>
    h.call<Tokens>(
      'GET',
      `/oauth/token?grant_type=client_credentials&client_id=${id}&client_secret=${secret}&scope=read%20write`,
    );
  const refresh = (id: string, token: string) =>
    h.call<Tokens>('POST', `/oauth/token?grant_type=refresh_token&client_id=${id}`, {
      rawBody: `refresh_token=${token}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });

  void test('application deleted: its client credentials stop working', async () => {
    const app = await h.call<App3>('POST', '/v3/applications', { token: demo, body: { name: 'to delete' } });
    const secret = app.body.clientSecret ?? '';
    assert.equal((await clientCredentials(app.body.clientId, secret)).status, 200);
    assert.equal((await h.call('DELETE', `/v3/applications/${app.body.clientId}`, { token: demo })).status, 200);
    const after = await clientCredentials(app.body.clientId, secret);
    assert.equal(after.status, 401);
    assert.equal(after.body.error, 'invalid_client');
  });

  void test('access token expired (expire-tokens): 401 everywhere, refresh dead too; a new token from the same id and secret works', async () => {
    const app = await h.call<App3>('POST', '/v3/applications', { token: demo, body: { name: 'expiring' } });
    const secret = app.body.clientSecret ?? '';
    const cc = await clientCredentials(app.body.clientId, secret);
    const mobile = await h.call<Tokens>(
      'GET',
      '/oauth/token?grant_type=password&client_id=portal-mobile&username=member&password=demo',
    );
    const expire = await h.control('POST', '/expire-tokens');
    assert.equal(expire.status, 200);
    for (const token of [cc.body.access_token, mobile.body.access_token, demo]) {
      const res = await h.call('GET', '/v3/userinfo', { token });
      assertError(res, 401, 'unauthorized');
      assert.equal(res.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    }
    assertError(
      await h.call('GET', `/v3/accounts/${DEMO.acme}/members`, { token: cc.body.access_token }),
      401,
      'unauthorized',
    );
    assert.equal((await refresh(app.body.clientId, cc.body.refresh_token)).status, 401);
    assert.equal((await refresh('portal-mobile', mobile.body.refresh_token)).body.error, 'invalid_token');
    const again = await clientCredentials(app.body.clientId, secret);
    assert.equal(again.status, 200);
    assert.equal((await h.call('GET', '/v3/userinfo', { token: again.body.access_token })).status, 200);
    demo = await h.login();
  });

  void test('user revokes the application: its tokens and refresh are rejected with 401; the user is signed out of it', async () => {
    const app = await h.call<App3>('POST', '/v3/applications', { token: demo, body: { name: 'revoked' } });
    const cc = await clientCredentials(app.body.clientId, app.body.clientSecret ?? '');
    assert.equal((await h.control('POST', '/revoke', { clientId: app.body.clientId })).status, 200);
    assertError(await h.call('GET', '/v3/userinfo', { token: cc.body.access_token }), 401, 'unauthorized');
    const r = await refresh(app.body.clientId, cc.body.refresh_token);
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'invalid_token');
    assert.equal((await clientCredentials(app.body.clientId, app.body.clientSecret ?? '')).status, 401);
    assert.equal((await h.call('GET', '/v3/userinfo', { token: demo })).status, 200, 'other sessions are untouched');
    assertError(await h.control('POST', '/revoke', { clientId: 'portal-nope' }), 404, 'not_found');
  });

  void test('revoking the static mobile client signs every password-grant session out; signing in again works', async () => {
    const member = await h.login('member');
    h.emu.revokeApplication('portal-mobile');
    assert.equal((await h.call('GET', '/v3/userinfo', { token: member })).status, 401);
    assert.equal((await h.call('GET', '/v3/userinfo', { token: demo })).status, 401);
    demo = await h.login();
    assert.equal((await h.call('GET', '/v3/userinfo', { token: demo })).status, 200);
  });

  void test('group deleted: it goes to trash (gone from lists and gets, name kept), not erased', async () => {
    const base = `/v2/accounts/${DEMO.globex}/groups`;
    type Info = { accounts: Array<{ account: { name: string }; memberOfSpaces: number }> };
    const spaces = async (): Promise<number | undefined> =>
      (await h.call<Info>('GET', '/v3/userinfo', { token: demo })).body.accounts.find(
        (a) => a.account.name === 'globex',
      )?.memberOfSpaces;
    const usernames = (
      await h.call<{ items: Array<{ user: { username: string } }> }>(
        'GET',
        `/v3/accounts/${DEMO.globex}/members?size=100`,
        { token: demo },
      )
    ).body.items.map((m) => m.user.username);
    const inOperations: string[] = [];
    for (const u of usernames) {
      const d = await h.call<Member2>('GET', `/v2/accounts/${DEMO.globex}/members/${u}`, { token: demo });
      if (d.body.groups && 'operations' in d.body.groups) inOperations.push(u);
    }
    assert.ok(inOperations.length > 0);
    const demoSpaces = await spaces();
    const del = await h.call('DELETE', `${base}/${DEMO.operations}`, { token: demo });
    assert.equal(del.status, 200);
    const list = await h.call<Group2[]>('GET', base, { token: demo });
    assert.deepEqual(
      list.body.map((g) => g.name),
      ['research'],
    );
    assertError(await h.call('GET', `${base}/${DEMO.operations}`, { token: demo }), 404, 'not_found');
    assertError(await h.call('POST', base, { token: demo, body: { name: 'operations' } }), 409, 'conflict');
    // Trashed groups no longer count anywhere: member group maps, userinfo counts.
    for (const u of inOperations) {
      const d = await h.call<Member2>('GET', `/v2/accounts/${DEMO.globex}/members/${u}`, { token: demo });
      assert.ok(!('operations' in (d.body.groups ?? {})), u);
    }
    assert.equal(await spaces(), demoSpaces, 'demo was not in operations');
    const research = await h.call('DELETE', `${base}/${DEMO.research}`, { token: demo });
    assert.equal(research.status, 200);
    assert.equal(await spaces(), (demoSpaces ?? 0) - 1);
  });

  void test('member removed from one of two organisations stays a user; removed from the last one, the user is deleted', async () => {
    // demo-2fa is in acme and globex.
    const token = await h.login('demo-2fa', 'demo', '123456');
    const app = await h.call<App3>('POST', '/v3/applications', { token, body: { name: '2fa app' } });
    assert.equal((await h.call('DELETE', `/v3/accounts/${DEMO.globex}/members/demo-2fa`, { token: demo })).status, 200);
    assert.equal((await h.call('GET', '/v3/userinfo', { token })).status, 200, 'still a user: acme is left');
    assertError(await h.call('GET', `/v3/accounts/${DEMO.globex}`, { token }), 404, 'not_found');
    const cc = await clientCredentials(app.body.clientId, app.body.clientSecret ?? '');
    assert.equal(cc.status, 200);

    assert.equal((await h.call('DELETE', `/v2/accounts/${DEMO.acme}/members/demo-2fa`, { token: demo })).status, 200);
    assertError(await h.call('GET', '/v3/userinfo', { token }), 401, 'unauthorized');
    assertError(await h.call('GET', '/v3/userinfo', { token: cc.body.access_token }), 401, 'unauthorized');
    const signIn = await h.call<Tokens>(
      'GET',
      '/oauth/token?grant_type=password&client_id=portal-mobile&username=demo-2fa&password=demo&code=123456',
    );
    assert.equal(signIn.status, 400);
    assert.equal(signIn.body.error, 'invalid_grant');
    assert.equal(
      (await clientCredentials(app.body.clientId, app.body.clientSecret ?? '')).status,
      401,
      'their applications died with them',
    );
    // The username is free again: the user is gone from the system.
    const recreated = await h.call('POST', `/v3/accounts/${DEMO.acme}/members`, {
      token: demo,
      body: { name: 'Again', username: 'demo-2fa', email: 'demo-2fa@acme.example' },
    });
    assert.equal(recreated.status, 200, recreated.text);
  });

  void test('a user may remove themselves from their last organisation, which deletes them', async () => {
    await h.call('POST', `/v3/accounts/${DEMO.acme}/members`, {
      token: demo,
      body: { name: 'Self', username: 'self.remover', email: 'self@acme.example', password: 'pw', admin: true },
    });
    const self = await h.login('self.remover', 'pw');
    assert.equal(
      (await h.call('DELETE', `/v3/accounts/${DEMO.acme}/members/self.remover`, { token: self })).status,
      200,
    );
    assertError(await h.call('GET', '/v3/userinfo', { token: self }), 401, 'unauthorized');
  });
});
