import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, fieldsOf, type App3, demoAndMemberSuite } from '../helpers';

void describe('v3 applications', () => {
  const s = demoAndMemberSuite();

  const body = {
    name: 'VS Code',
    description: 'Portal for VS Code',
    platform: 'LINUX',
    deviceType: 'Other',
    deviceModel: 'PC',
    deviceOs: 'Linux',
    appVersion: '0.1.0',
    bundleId: 'portal-vscode',
  };

  void test('POST creates: 201 with clientSecret and the trimmed creator under the service name', async () => {
    const res = await s.h.call<App3>('POST', '/v3/applications', { token: s.demo, body });
    assert.equal(res.status, 201, res.text);
    assert.equal(typeof res.body.clientId, 'string');
    assert.equal(typeof res.body.clientSecret, 'string');
    assert.equal(res.body.name, 'VS Code');
    assert.equal(res.body.platform, 'LINUX');
    assert.equal(res.body.deviceType, 'Other');
    assert.equal(res.body.bundleId, 'portal-vscode');
    assert.equal(res.body.ip, '127.0.0.1');
    assert.equal(res.body.lastActivity, null);
    const creator = res.body.portal as Record<string, unknown>;
    assert.deepEqual(Object.keys(creator).sort(), [
      'id',
      'jobTitle',
      'lastModified',
      'logo',
      'name',
      'twoFactorAuthentication',
      'username',
    ]);
    assert.equal(creator.username, 'demo');
  });

  void test('POST validation: name required, platform and deviceType enums, with fieldErrors', async () => {
    const res = await s.h.call('POST', '/v3/applications', {
      token: s.demo,
      body: { platform: 'BEOS', deviceType: 'Fridge', appVersion: 3 },
    });
    assertError(res, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(res).sort(), ['appVersion', 'deviceType', 'name', 'platform']);
    const minimal = await s.h.call<App3>('POST', '/v3/applications', { token: s.demo, body: { name: 'Minimal' } });
    assert.equal(minimal.status, 201);
    assert.equal(minimal.body.platform, 'OTHER');
    assert.equal(minimal.body.deviceType, 'Other');
  });

  void test("GET list and GET one never carry clientSecret; another user's application is 404", async () => {
    const created = await s.h.call<App3>('POST', '/v3/applications', {
      token: s.demo,
      body: { ...body, name: 'Listed' },
    });
    const list = await s.h.call<App3[]>('GET', '/v3/applications', { token: s.demo });
    assert.equal(list.status, 200);
    assert.ok(list.body.some((a) => a.clientId === created.body.clientId));
    assert.ok(list.body.length >= 3, 'the seeded applications are listed too');
    assert.ok(list.body.every((a) => !('clientSecret' in a)));
    const one = await s.h.call<App3>('GET', `/v3/applications/${created.body.clientId}`, { token: s.demo });
    assert.equal(one.status, 200);
    assert.equal(one.body.name, 'Listed');
    assert.ok(!('clientSecret' in one.body));
    assertError(
      await s.h.call('GET', `/v3/applications/${created.body.clientId}`, { token: s.member }),
      404,
      'not_found',
    );
    const theirs = await s.h.call<App3[]>('GET', '/v3/applications', { token: s.member });
    assert.ok(theirs.body.every((a) => a.clientId !== created.body.clientId));
    const page = await s.h.call<App3[]>('GET', '/v3/applications?page=1&size=1', { token: s.demo });
    assert.equal(page.body.length, 1);
  });

  void test('PATCH updates fields; rotateSecret returns a new secret, the old stops working, issued tokens live on', async () => {
    const created = await s.h.call<App3>('POST', '/v3/applications', { token: s.demo, body: { name: 'Rotating' } });
    const id = created.body.clientId;
    const oldSecret = created.body.clientSecret ?? '';
    const cc = (secret: string) =>
      s.h.call<{ access_token: string }>(
        'GET',
        `/oauth/token?grant_type=client_credentials&client_id=${id}&client_secret=${secret}`,
      );
    const before = await cc(oldSecret);
    assert.equal(before.status, 200);

    const plain = await s.h.call<App3>('PATCH', `/v3/applications/${id}`, {
      token: s.demo,
      body: { description: 'now described', platform: 'WINDOWS' },
    });
    assert.equal(plain.status, 200);
    assert.equal(plain.body.description, 'now described');
    assert.equal(plain.body.platform, 'WINDOWS');
    assert.ok(!('clientSecret' in plain.body));

    const rotated = await s.h.call<App3>('PATCH', `/v3/applications/${id}`, {
      token: s.demo,
      body: { rotateSecret: true },
    });
    assert.equal(rotated.status, 200);
    assert.equal(typeof rotated.body.clientSecret, 'string');
    assert.notEqual(rotated.body.clientSecret, oldSecret);
    assert.equal((await cc(oldSecret)).status, 401);
    assert.equal((await cc(rotated.body.clientSecret ?? '')).status, 200);
    assert.equal((await s.h.call('GET', '/v3/userinfo', { token: before.body.access_token })).status, 200);

    assertError(
      await s.h.call('PATCH', `/v3/applications/${id}`, { token: s.demo, body: { platform: 'nope' } }),
      400,
      'invalid_input',
    );
    assertError(
      await s.h.call('PATCH', `/v3/applications/${id}`, { token: s.member, body: { name: 'stolen' } }),
      404,
      'not_found',
    );
  });

  void test('DELETE answers 200 with an empty body; its tokens and refresh tokens die', async () => {
    const created = await s.h.call<App3>('POST', '/v3/applications', { token: s.demo, body: { name: 'Doomed' } });
    const id = created.body.clientId;
    const cc = await s.h.call<{ access_token: string; refresh_token: string }>(
      'GET',
      `/oauth/token?grant_type=client_credentials&client_id=${id}&client_secret=${created.body.clientSecret}`,
    );
    assertError(await s.h.call('DELETE', `/v3/applications/${id}`, { token: s.member }), 404, 'not_found');
    const del = await s.h.call('DELETE', `/v3/applications/${id}`, { token: s.demo });
    assert.equal(del.status, 200);
    assert.equal(del.text, '');
    assert.equal((await s.h.call('GET', '/v3/userinfo', { token: cc.body.access_token })).status, 401);
    const refresh = await s.h.call<{ error: string }>(
      'GET',
      `/oauth/token?grant_type=refresh_token&client_id=${id}&refresh_token=${cc.body.refresh_token}`,
    );
    assert.equal(refresh.status, 401);
    assert.equal(refresh.body.error, 'invalid_token');
    assertError(await s.h.call('GET', `/v3/applications/${id}`, { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('DELETE', `/v3/applications/${id}`, { token: s.demo }), 404, 'not_found');
  });

  void test("lastActivity is set when the application's token is used", async () => {
    const created = await s.h.call<App3>('POST', '/v3/applications', { token: s.demo, body: { name: 'Active' } });
    const cc = await s.h.call<{ access_token: string }>(
      'GET',
      `/oauth/token?grant_type=client_credentials&client_id=${created.body.clientId}&client_secret=${created.body.clientSecret}`,
    );
    await s.h.call('GET', '/v3/userinfo', { token: cc.body.access_token });
    const one = await s.h.call<App3>('GET', `/v3/applications/${created.body.clientId}`, { token: s.demo });
    assert.equal(typeof one.body.lastActivity, 'number');
  });
});
