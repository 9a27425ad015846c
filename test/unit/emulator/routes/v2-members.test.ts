import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, assertError, fieldsOf, type Member2, type Member2Page, demoAndMemberSuite } from '../helpers';

const base = `/v2/accounts/${DEMO.acme}/members`;

void describe('v2 members', () => {
  const s = demoAndMemberSuite();

  void test('GET members: v2 member envelope with totals; entries carry the wide user and accountPermission', async () => {
    const res = await s.h.call<Member2Page>('GET', `${base}?page=2&size=10`, { token: s.member });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [
      'currentPage',
      'nextPage',
      'page',
      'pageSize',
      'previousPage',
      'totalPages',
      'totalResults',
    ]);
    assert.equal(res.body.currentPage, 2);
    assert.equal(res.body.pageSize, 10);
    assert.equal(res.body.totalResults, 36);
    assert.equal(res.body.totalPages, 4);
    assert.equal(res.body.nextPage, true);
    assert.equal(res.body.previousPage, true);
    assert.equal(res.body.page.length, 10);
    const entry = res.body.page[0];
    assert.ok(entry);
    assert.deepEqual(Object.keys(entry).sort(), ['accountPermission', 'user']);
    assert.equal(entry.user.type, 'user');
    assert.ok('contextKey' in entry.user);
    const last = await s.h.call<Member2Page>('GET', `${base}?page=4&size=10`, { token: s.member });
    assert.equal(last.body.page.length, 6);
    assert.equal(last.body.nextPage, false);
    const defaults = await s.h.call<Member2Page>('GET', base, { token: s.member });
    assert.equal(defaults.body.pageSize, 20);
    assertError(await s.h.call('GET', `${base}?size=-5`, { token: s.member }), 400, 'invalid_input');
  });

  void test('GET one member: detail carries groups as group name -> permission', async () => {
    const res = await s.h.call<Member2>('GET', `${base}/member`, { token: s.demo });
    assert.equal(res.status, 200);
    assert.equal(res.body.accountPermission, 1);
    assert.deepEqual(res.body.groups, { engineering: 4, marketing: 1, social: 16 });
    assertError(await s.h.call('GET', `${base}/nobody`, { token: s.demo }), 404, 'not_found');
  });

  void test('POST creates: user fields, accountPermission, groups by name; the user signs in', async () => {
    const res = await s.h.call<Member2>('POST', base, {
      token: s.demo,
      body: {
        user: {
          username: 'v2.user',
          password: 'pw2',
          name: 'Vee Two',
          email: 'v2@acme.example',
          telephone: '123',
          jobTitle: 'Tester',
          enabled: true,
        },
        accountPermission: 4,
        groups: { engineering: 1, Handbook: 16 },
        activationType: 'now',
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.user.username, 'v2.user');
    assert.equal(res.body.user.telephone, '123');
    assert.equal(res.body.user.address, null);
    assert.equal(res.body.accountPermission, 4);
    assert.deepEqual(res.body.groups, { engineering: 1, handbook: 16 });
    assert.equal(typeof (await s.h.login('v2.user', 'pw2')), 'string');
    const scheduled = await s.h.call<Member2>('POST', base, {
      token: s.demo,
      body: {
        user: { username: 'later.user', name: 'Later', email: 'later@acme.example' },
        activationType: 'custom',
        activationDate: 4_102_444_800_000,
        activationMessage: 'Welcome',
      },
    });
    assert.equal(scheduled.status, 200);
    const v3 = await s.h.call<{ activationType: unknown }>('GET', `/v3/accounts/${DEMO.acme}/members/later.user`, {
      token: s.demo,
    });
    assert.equal(v3.body.activationType, 4_102_444_800_000);
  });

  void test('POST refusals: 403, 409, 400 with field errors; nothing is created', async () => {
    const body = { user: { username: 'nope.user', name: 'Nope', email: 'nope@acme.example' } };
    assertError(await s.h.call('POST', base, { token: s.member, body }), 403, 'forbidden');
    assertError(
      await s.h.call('POST', base, { token: s.demo, body: { user: { ...body.user, username: 'demo' } } }),
      409,
      'conflict',
    );
    const bad = await s.h.call('POST', base, {
      token: s.demo,
      body: {
        user: { username: 'nope.user', name: 7, email: 'x' },
        accountPermission: 5,
        groups: { nowhere: 4 },
        activationType: 'custom',
      },
    });
    assertError(bad, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(bad).sort(), [
      'accountPermission',
      'activationDate',
      'groups.nowhere',
      'user.email',
      'user.name',
    ]);
    assertError(await s.h.call('POST', base, { token: s.demo, body: {} }), 400, 'invalid_input');
    assertError(await s.h.call('POST', base, { token: s.demo, body: { user: 'nope' } }), 400, 'invalid_input');
    assertError(await s.h.call('GET', `${base}/nope.user`, { token: s.demo }), 404, 'not_found');
  });

  void test('POST /members/{username} updates profile, permission and the whole group set', async () => {
    await s.h.call('POST', base, {
      token: s.demo,
      body: {
        user: { username: 'up.user', name: 'Up', email: 'up@acme.example', password: 'a' },
        groups: { engineering: 4, marketing: 4 },
      },
    });
    const res = await s.h.call<Member2>('POST', `${base}/up.user`, {
      token: s.demo,
      body: {
        user: { name: 'Up Dated', jobTitle: 'Lead', password: 'b' },
        accountPermission: 16,
        groups: { engineering: 16, social: 1 },
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.user.name, 'Up Dated');
    assert.equal(res.body.user.jobTitle, 'Lead');
    assert.equal(res.body.accountPermission, 16);
    assert.deepEqual(res.body.groups, { engineering: 16, social: 1 });
    assert.equal(typeof (await s.h.login('up.user', 'b')), 'string');
    const keep = await s.h.call<Member2>('POST', `${base}/up.user`, { token: s.demo, body: { accountPermission: 1 } });
    assert.deepEqual(keep.body.groups, { engineering: 16, social: 1 }, 'groups not sent are left alone');
    const ownEmail = await s.h.call<Member2>('POST', `${base}/up.user`, {
      token: s.demo,
      body: { user: { email: 'UP@acme.example', username: 'up.user' } },
    });
    assert.equal(ownEmail.status, 200, 'a user may keep their own e-mail and username');
    const renamed = await s.h.call<Member2>('POST', `${base}/up.user`, {
      token: s.demo,
      body: { user: { username: 'up.renamed' } },
    });
    assert.equal(renamed.body.user.username, 'up.renamed');
    assertError(
      await s.h.call('POST', `${base}/up.renamed`, { token: s.demo, body: { user: { email: 'demo@acme.example' } } }),
      409,
      'conflict',
    );
    assertError(
      await s.h.call('POST', `${base}/up.renamed`, { token: s.member, body: { accountPermission: 16 } }),
      403,
      'forbidden',
    );
    assertError(
      await s.h.call('POST', `${base}/ghost`, { token: s.demo, body: { accountPermission: 1 } }),
      404,
      'not_found',
    );
  });

  void test('DELETE removes the member: 200 empty, 403 for non-admins', async () => {
    await s.h.call('POST', base, {
      token: s.demo,
      body: { user: { username: 'gone.user', name: 'Gone', email: 'gone@acme.example' } },
    });
    assertError(await s.h.call('DELETE', `${base}/gone.user`, { token: s.member }), 403, 'forbidden');
    const res = await s.h.call('DELETE', `${base}/gone.user`, { token: s.demo });
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assertError(await s.h.call('GET', `${base}/gone.user`, { token: s.demo }), 404, 'not_found');
  });
});
