import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, assertError, fieldsOf, type Account3, type Obj, type User3, demoAndMemberSuite } from '../helpers';

interface UserinfoAccount {
  account: Account3;
  subscription: { code: string; trialExpires: number | null; paused: boolean };
  permission: number;
  memberOfSpaces: number;
  adminInSpaces: number;
  features: string[];
  components: string[] | null;
  capabilities: string[];
  mailDomain: string;
  twoFactorAuthentication: boolean;
  metadata: Record<string, string>;
  admin: boolean;
}
interface Userinfo {
  name: string;
  portal: User3;
  authorities: string[];
  accounts: UserinfoAccount[];
}

void describe('v3 userinfo, accounts, subscription, components', () => {
  const s = demoAndMemberSuite();

  void test('GET /v3/userinfo carries the service-named user and one entry per organisation', async () => {
    const res = await s.h.call<Userinfo>('GET', '/v3/userinfo', { token: s.demo });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/);
    const info = res.body;
    assert.equal(info.name, 'demo');
    assert.equal(info.portal.username, 'demo');
    assert.deepEqual(info.authorities, ['ROLE_USER']);
    assert.deepEqual(
      info.accounts.map((a) => a.account.name),
      ['acme', 'globex', 'initech-archive'],
    );
    const acme = info.accounts[0];
    assert.ok(acme);
    assert.equal(acme.permission, 16);
    assert.equal(acme.admin, true);
    assert.equal(acme.subscription.code, 'business-trial');
    assert.equal(typeof acme.subscription.trialExpires, 'number');
    assert.ok(acme.capabilities.includes('MEMBERS_DELETE'));
    assert.ok(acme.memberOfSpaces >= 2);
    assert.ok(acme.adminInSpaces >= 2);
    assert.equal(acme.mailDomain, 'acme.example');
    assert.ok(Array.isArray(acme.components));
    const globex = info.accounts[1];
    assert.equal(globex?.subscription.paused, true);
    assert.equal(info.accounts[2]?.components, null);
    const mine = await s.h.call<Userinfo>('GET', '/v3/userinfo', { token: s.member });
    assert.equal(mine.body.accounts.length, 1);
    assert.equal(mine.body.accounts[0]?.permission, 1);
    assert.equal(mine.body.accounts[0]?.admin, false);
    assert.ok(!mine.body.accounts[0]?.capabilities.includes('MEMBERS_DELETE'));
  });

  void test("GET /v3/accounts lists the caller's organisations; enabledOnly leaves out disabled ones", async () => {
    const all = await s.h.call<Account3[]>('GET', '/v3/accounts', { token: s.demo });
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.map((a) => [a.name, a.enabled]),
      [
        ['acme', true],
        ['globex', true],
        ['initech-archive', false],
      ],
    );
    for (const key of [
      'id',
      'name',
      'friendlyName',
      'enabled',
      'hash',
      'domain',
      'locale',
      'dateCreated',
      'lastModified',
      'twoFactorModes',
      'twoFactorEnforce',
    ]) {
      assert.ok(key in (all.body[0] ?? {}), key);
    }
    const enabled = await s.h.call<Account3[]>('GET', '/v3/accounts?enabledOnly=true', { token: s.demo });
    assert.deepEqual(
      enabled.body.map((a) => a.name),
      ['acme', 'globex'],
    );
    const explicitFalse = await s.h.call<Account3[]>('GET', '/v3/accounts?enabledOnly=false', { token: s.demo });
    assert.equal(explicitFalse.body.length, 3);
    const paged = await s.h.call<Account3[]>('GET', '/v3/accounts?page=2&size=2', { token: s.demo });
    assert.deepEqual(
      paged.body.map((a) => a.name),
      ['initech-archive'],
    );
    assertError(await s.h.call('GET', '/v3/accounts?enabledOnly=maybe', { token: s.demo }), 400, 'invalid_input');
  });

  void test('GET /v3/accounts/{account}: own organisation 200, another 404', async () => {
    const res = await s.h.call<Account3>('GET', `/v3/accounts/${DEMO.acme}`, { token: s.member });
    assert.equal(res.status, 200);
    assert.equal(res.body.friendlyName, 'Acme Corporation');
    assertError(await s.h.call('GET', `/v3/accounts/${DEMO.globex}`, { token: s.member }), 404, 'not_found');
    assertError(await s.h.call('GET', '/v3/accounts/999', { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('GET', '/v3/accounts/abc', { token: s.demo }), 404, 'not_found');
  });

  void test('PATCH /v3/accounts/{account} updates friendlyName, name and locale for a super administrator', async () => {
    const res = await s.h.call<Account3>('PATCH', `/v3/accounts/${DEMO.globex}`, {
      token: s.demo,
      body: { friendlyName: 'Globex R&D', name: 'globex-rd', locale: 'en_GB' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.friendlyName, 'Globex R&D');
    assert.equal(res.body.name, 'globex-rd');
    assert.equal(res.body.locale, 'en_GB');
    const again = await s.h.call<Account3>('GET', `/v3/accounts/${DEMO.globex}`, { token: s.demo });
    assert.equal(again.body.name, 'globex-rd');
    const cleared = await s.h.call<Account3>('PATCH', `/v3/accounts/${DEMO.globex}`, {
      token: s.demo,
      body: { locale: null, name: 'globex' },
    });
    assert.equal(cleared.body.locale, null);
  });

  void test('PATCH /v3/accounts/{account} refusals: 403 for a member, 409 taken, 400 reserved, bad format, wrong type', async () => {
    assertError(
      await s.h.call('PATCH', `/v3/accounts/${DEMO.acme}`, { token: s.member, body: { friendlyName: 'Mine' } }),
      403,
      'forbidden',
    );
    const taken = await s.h.call('PATCH', `/v3/accounts/${DEMO.acme}`, { token: s.demo, body: { name: 'globex' } });
    assertError(taken, 409, 'conflict');
    assert.deepEqual(fieldsOf(taken), ['name']);
    assertError(
      await s.h.call('PATCH', `/v3/accounts/${DEMO.acme}`, { token: s.demo, body: { name: 'admin' } }),
      400,
      'invalid_input',
    );
    assertError(
      await s.h.call('PATCH', `/v3/accounts/${DEMO.acme}`, { token: s.demo, body: { name: 'Not A Slug!' } }),
      400,
      'invalid_input',
    );
    const types = await s.h.call('PATCH', `/v3/accounts/${DEMO.acme}`, {
      token: s.demo,
      body: { friendlyName: 42, locale: 'english' },
    });
    assertError(types, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(types).sort(), ['friendlyName', 'locale']);
    const unchanged = await s.h.call<Account3>('GET', `/v3/accounts/${DEMO.acme}`, { token: s.demo });
    assert.equal(unchanged.body.friendlyName, 'Acme Corporation');
    assert.equal(unchanged.body.name, 'acme');
  });

  void test('GET /v3/accounts/{account}/subscription: super administrators only, card masked', async () => {
    const res = await s.h.call<{
      accountPackage: Obj & { planDetails: Obj };
      plan: string;
      storageUsed: number;
      membersUsed: number;
      emailsUsed: number;
      billingDetails: Obj & { card: Obj };
    }>('GET', `/v3/accounts/${DEMO.acme}/subscription`, { token: s.demo });
    assert.equal(res.status, 200);
    const pkg = res.body.accountPackage;
    assert.equal(pkg.code, 'business-trial');
    assert.equal(typeof pkg.trialExpires, 'number');
    assert.equal(pkg.paused, false);
    assert.equal(typeof pkg.members, 'number');
    assert.equal(typeof pkg.storage, 'number');
    assert.equal(typeof pkg.emailQuota, 'number');
    assert.equal(pkg.suspended, false);
    assert.deepEqual(Object.keys(pkg.planDetails).sort(), ['currency', 'interval']);
    assert.equal(typeof res.body.plan, 'string');
    assert.ok(res.body.storageUsed > 0);
    assert.ok(res.body.membersUsed >= 30);
    assert.equal(res.body.billingDetails.card.number, '************4242');
    assert.equal(res.body.billingDetails.card.lastFour, '4242');
    const paused = await s.h.call<{ accountPackage: Obj }>('GET', `/v3/accounts/${DEMO.globex}/subscription`, {
      token: s.demo,
    });
    assert.equal(paused.body.accountPackage.paused, true);
    assert.equal(paused.body.accountPackage.pausedBillingCycles, 2);
    assert.equal(paused.body.accountPackage.trialExpires, null);
    assertError(await s.h.call('GET', `/v3/accounts/${DEMO.acme}/subscription`, { token: s.member }), 403, 'forbidden');
  });

  void test("GET /v3/accounts/{account}/components lists the subscription's components", async () => {
    const res = await s.h.call<
      Array<{ name: string; beta: boolean; title: string; description: string; iconName: string }>
    >('GET', `/v3/accounts/${DEMO.acme}/components`, { token: s.member });
    assert.equal(res.status, 200);
    assert.ok(res.body.some((c) => c.name === 'files' && c.beta === false && c.title === 'Files'));
    assert.ok(res.body.some((c) => c.beta));
    const team = await s.h.call<Array<{ name: string }>>('GET', `/v3/accounts/${DEMO.globex}/components`, {
      token: s.demo,
    });
    assert.ok(team.body.length < res.body.length, 'different subscriptions, different lists');
    const page = await s.h.call<Array<{ name: string }>>('GET', `/v3/accounts/${DEMO.acme}/components?page=1&size=2`, {
      token: s.demo,
    });
    assert.equal(page.body.length, 2);
  });
});
