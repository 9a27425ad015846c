import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, assertError, fieldsOf, type Obj, demoAndMemberSuite } from '../helpers';

interface App2 {
  id: null;
  clientId: string;
  clientSecret: string;
  scope: string[];
  authorities: Array<{ authority: string }>;
  registeredRedirectUri: unknown[];
  deviceToken: string | null;
  description: string | null;
  portal: Obj;
  [k: string]: unknown;
}
interface Org2 {
  id: number;
  name: string;
  friendlyName: string;
  contextKey: { id: number; objectType: string; objectId: number };
  creator: Obj | null;
  enabled: boolean;
  type: string;
  branding: Obj;
  mobileSchema: null;
  [k: string]: unknown;
}

void describe('v2 applications, organisations, custom names', () => {
  const s = demoAndMemberSuite();

  void test('POST /v2/applications answers 200 with clientId, clientSecret, scope and authorities; the v2 flow signs in', async () => {
    const res = await s.h.call<App2>('POST', '/v2/applications', {
      token: s.demo,
      body: {
        deviceType: 'Other',
        platform: 'OTHER',
        deviceOs: 'Linux',
        deviceModel: 'PC',
        appVersion: '1.0',
        bundleId: 'x',
        name: 'v2 app',
        description: '',
        deviceToken: '7d3c9d1e-8f5b-4e51-9a36-0c5f1b2a3c4d',
      },
      headers: { 'User-Agent': 'portal-vscode/0.1.0' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, null);
    assert.equal(typeof res.body.clientId, 'string');
    assert.equal(typeof res.body.clientSecret, 'string');
    assert.deepEqual(res.body.scope, ['read', 'write']);
    assert.deepEqual(
      res.body.authorities.map((a) => a.authority),
      ['ROLE_CLIENT', 'READ', 'WRITE'],
    );
    assert.deepEqual(res.body.registeredRedirectUri, []);
    assert.equal(res.body.deviceToken, '7d3c9d1e-8f5b-4e51-9a36-0c5f1b2a3c4d');
    assert.equal(res.body.description, null, 'v2 sends blank fields as null');
    assert.equal(res.body.portal.type, 'user');
    assert.ok('contextKey' in res.body.portal);
    const cc = await s.h.call(
      'GET',
      `/oauth/token?grant_type=client_credentials&client_id=${res.body.clientId}&client_secret=${res.body.clientSecret}&scope=read%20write`,
    );
    assert.equal(cc.status, 200);
    const bad = await s.h.call('POST', '/v2/applications', {
      token: s.demo,
      body: { name: 'x', deviceType: 'Toaster' },
    });
    assertError(bad, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(bad), ['deviceType']);
  });

  void test('GET /v2/accounts lists organisations with the wide shape; blank fields are null', async () => {
    const res = await s.h.call<Org2[]>('GET', '/v2/accounts', { token: s.demo });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((o) => o.name),
      ['acme', 'globex', 'initech-archive'],
    );
    const acme = res.body[0];
    assert.ok(acme);
    assert.equal(acme.type, 'account');
    assert.equal(acme.mobileSchema, null);
    assert.equal(acme.contextKey.objectId, acme.id);
    assert.match(acme.contextKey.objectType, /^com\.portal\.model\.Organisation$/);
    assert.equal((acme.creator as Obj).username, 'demo');
    for (const key of [
      'backgroundColor',
      'textColor',
      'logo',
      'logoLarge',
      'logoMedium',
      'background',
      'favicon',
      'textLogo',
      'gradient',
      'gradientWidth',
    ]) {
      assert.ok(key in acme.branding, key);
    }
    const creator = acme.creator as Obj;
    for (const key of [
      'id',
      'comments',
      'attachments',
      'contextKey',
      'username',
      'enabled',
      'locked',
      'twoFactorAuthentication',
      'lastModified',
      'lastLogin',
      'lastActive',
      'dateCreated',
      'dateActivated',
      'name',
      'jobTitle',
      'organisation',
      'email',
      'address',
      'telephone',
      'other',
      'logo',
      'timeZone',
      'locale',
      'verifiedEmail',
      'twoFactorMode',
      'timeZoneOffset',
      'type',
    ]) {
      assert.ok(key in creator, `user.${key}`);
    }
    assert.equal(creator.address, null);
    const mine = await s.h.call<Org2[]>('GET', '/v2/accounts', { token: s.member });
    assert.deepEqual(
      mine.body.map((o) => o.name),
      ['acme'],
    );
    const paged = await s.h.call<Org2[]>('GET', '/v2/accounts?size=1&page=3', { token: s.demo });
    assert.deepEqual(
      paged.body.map((o) => o.name),
      ['initech-archive'],
    );
  });

  void test('GET /v2/accounts/{account}: 200 for members, 404 otherwise', async () => {
    const res = await s.h.call<Org2>('GET', `/v2/accounts/${DEMO.globex}`, { token: s.demo });
    assert.equal(res.status, 200);
    assert.equal(res.body.friendlyName, 'Globex Research');
    assertError(await s.h.call('GET', `/v2/accounts/${DEMO.globex}`, { token: s.member }), 404, 'not_found');
  });

  void test('GET /v2/accounts/{account}/custom: names in the customising organisation, {} elsewhere', async () => {
    const custom = await s.h.call<Record<string, string>>('GET', `/v2/accounts/${DEMO.globex}/custom`, {
      token: s.demo,
    });
    assert.equal(custom.status, 200);
    assert.deepEqual(Object.keys(custom.body).sort(), [
      'discussion',
      'discussions',
      'event',
      'events',
      'file',
      'files',
      'note',
      'notes',
      'shortcuts',
      'task',
      'tasks',
    ]);
    assert.equal(custom.body.files, 'Documents');
    assert.equal(custom.body.file, 'Document');
    const none = await s.h.call<Record<string, string>>('GET', `/v2/accounts/${DEMO.acme}/custom`, { token: s.member });
    assert.deepEqual(none.body, {});
    assertError(await s.h.call('GET', `/v2/accounts/${DEMO.globex}/custom`, { token: s.member }), 404, 'not_found');
  });
});
