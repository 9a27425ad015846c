import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEMO,
  assertError,
  fieldsOf,
  type Envelope3,
  type Member2,
  type Member3,
  demoAndMemberSuite,
  demoSuite,
} from '../helpers';

const base = `/v3/accounts/${DEMO.acme}`;

void describe('v3 members', () => {
  const s = demoAndMemberSuite();

  const list = (query: string, token = s.demo) =>
    s.h.call<Envelope3<Member3>>('GET', `${base}/members${query}`, { token });

  void test('GET members: v3 envelope, default size 20, any member may read', async () => {
    const res = await list('', s.member);
    assert.equal(res.status, 200);
    const env = res.body;
    assert.deepEqual(Object.keys(env).sort(), [
      'currentPage',
      'items',
      'nextPage',
      'pageSize',
      'previousPage',
      'totalPages',
      'totalResults',
    ]);
    assert.equal(env.currentPage, 1);
    assert.equal(env.pageSize, 20);
    assert.equal(env.items.length, 20);
    assert.equal(env.totalResults, 36);
    assert.equal(env.totalPages, 2);
    assert.equal(env.nextPage, true);
    assert.equal(env.previousPage, false);
    const m = env.items[0];
    assert.ok(m);
    for (const key of [
      'user',
      'permission',
      'assignToNewGroupsPermission',
      'notAssigned',
      'assigningToGroups',
      'dateCreated',
      'memberOfMultipleAccounts',
      'tags',
      'pendingUnlock',
      'activationType',
      'twoFactorAuthentication',
    ]) {
      assert.ok(key in m, key);
    }
    for (const key of [
      'id',
      'username',
      'enabled',
      'locked',
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
      'lastModified',
      'dateFormat',
      'twentyFourHourTimeFormat',
      'twoFactorAuthentication',
      'lastActive',
      'realName',
    ]) {
      assert.ok(key in m.user, `user.${key}`);
    }
  });

  void test('paging: page 2 is the rest, past the end is empty, size is clamped to 100, bad values are 400', async () => {
    const p2 = await list('?page=2&size=20');
    assert.equal(p2.body.items.length, 16);
    assert.equal(p2.body.nextPage, false);
    assert.equal(p2.body.previousPage, true);
    const p1 = await list('?page=1&size=20');
    const ids = new Set([...p1.body.items, ...p2.body.items].map((m) => m.user.id));
    assert.equal(ids.size, 36, 'pages do not overlap');
    const beyond = await list('?page=9');
    assert.deepEqual(beyond.body.items, []);
    assert.equal(beyond.body.nextPage, false);
    const big = await list('?size=500');
    assert.equal(big.body.pageSize, 100);
    assert.equal(big.body.items.length, 36);
    for (const q of ['?size=0', '?page=0', '?size=abc', '?page=-1', '?page=1.5']) {
      assertError(await list(q), 400, 'invalid_input');
    }
  });

  void test('search: name matches name, e-mail or username; startsWith matches name or e-mail prefix', async () => {
    const byName = await list('?name=MIA');
    assert.deepEqual(
      byName.body.items.map((m) => m.user.username),
      ['member'],
    );
    const byEmail = await list('?name=lena.locke@');
    assert.deepEqual(
      byEmail.body.items.map((m) => m.user.username),
      ['lena.locked'],
    );
    const byUsername = await list('?name=victor.h');
    assert.deepEqual(
      byUsername.body.items.map((m) => m.user.username),
      ['victor.hale'],
    );
    const prefix = await list('?startsWith=da&size=100');
    assert.ok(prefix.body.items.length >= 1);
    assert.ok(
      prefix.body.items.every(
        (m) => m.user.name.toLowerCase().startsWith('da') || m.user.email.toLowerCase().startsWith('da'),
      ),
    );
    const byEmailPrefix = await list('?startsWith=LENA.LOCKE');
    assert.deepEqual(
      byEmailPrefix.body.items.map((m) => m.user.username),
      ['lena.locked'],
      'matched on the e-mail, not the name',
    );
    const none = await list('?name=zzzzzz');
    assert.equal(none.body.totalResults, 0);
    assert.equal(none.body.totalPages, 0);
  });

  void test('orderBy name|username|email|dateCreated|lastActive with ascending; unknown orderBy is 400', async () => {
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    const names = (await list('?size=100&orderBy=name')).body.items.map((m) => m.user.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => collator.compare(a, b)),
    );
    const desc = (await list('?size=100&orderBy=name&ascending=false')).body.items.map((m) => m.user.name);
    assert.deepEqual(desc, [...names].reverse());
    const usernames = (await list('?size=100&orderBy=username')).body.items.map((m) => m.user.username);
    assert.deepEqual(
      usernames,
      [...usernames].sort((a, b) => collator.compare(a, b)),
    );
    const emails = (await list('?size=100&orderBy=email')).body.items.map((m) => m.user.email);
    assert.deepEqual(
      emails,
      [...emails].sort((a, b) => collator.compare(a, b)),
    );
    const created = (await list('?size=100&orderBy=dateCreated')).body.items.map((m) => m.dateCreated);
    assert.deepEqual(
      created,
      [...created].sort((a, b) => a - b),
    );
    const active = (await list('?size=100&orderBy=lastActive&ascending=false')).body.items.map(
      (m) => m.user.lastActive ?? -1,
    );
    assert.deepEqual(
      active,
      [...active].sort((a, b) => b - a),
    );
    assertError(await list('?orderBy=shoeSize'), 400, 'invalid_input');
    assertError(await list('?ascending=sideways'), 400, 'invalid_input');
  });

  void test('GET one member by username; unknown 404; members of other organisations 404', async () => {
    const res = await s.h.call<Member3>('GET', `${base}/members/demo-2fa`, { token: s.member });
    assert.equal(res.status, 200);
    assert.equal(res.body.user.name, 'Tomás Twofactor');
    assert.equal(res.body.twoFactorAuthentication, true);
    assert.equal(res.body.permission, 4);
    assert.equal(res.body.memberOfMultipleAccounts, true);
    assertError(await s.h.call('GET', `${base}/members/nobody`, { token: s.demo }), 404, 'not_found');
    assertError(
      await s.h.call('GET', `/v3/accounts/${DEMO.globex}/members/demo`, { token: s.member }),
      404,
      'not_found',
    );
  });

  void test('POST creates a member with groups and tags; the new user can sign in', async () => {
    const res = await s.h.call<Member3>('POST', `${base}/members`, {
      token: s.demo,
      body: {
        name: 'New Person',
        username: 'new.person',
        email: 'new.person@acme.example',
        password: 's3cret',
        phone: '+44 1',
        realName: 'Newton Person',
        tags: ['design', 'design', ' remote '],
        rights: 4,
        assignToNewGroupsPermission: 1,
        assignGroups: { [DEMO.engineering]: 4 },
        assignGroupsAdmin: [DEMO.social],
        unknownField: 'ignored',
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.user.username, 'new.person');
    assert.equal(res.body.user.realName, 'Newton Person');
    assert.equal(res.body.permission, 4);
    assert.deepEqual(res.body.tags, ['design', 'remote']);
    assert.equal(res.body.assignToNewGroupsPermission, 1);
    const v2 = await s.h.call<Member2>('GET', `/v2/accounts/${DEMO.acme}/members/new.person`, { token: s.demo });
    assert.deepEqual(v2.body.groups, { engineering: 4, social: 16 });
    const token = await s.h.login('new.person', 's3cret');
    assert.equal(typeof token, 'string');
    const admin = await s.h.call<Member3>('POST', `${base}/members`, {
      token: s.demo,
      body: {
        name: 'Boss',
        username: 'boss.person',
        email: 'boss@acme.example',
        admin: true,
        assignToAllGroupsWithRights: 1,
      },
    });
    assert.equal(admin.body.permission, 16);
    const bossGroups = await s.h.call<Member2>('GET', `/v2/accounts/${DEMO.acme}/members/boss.person`, {
      token: s.demo,
    });
    assert.deepEqual(Object.values(bossGroups.body.groups ?? {}), [1, 1, 1, 1]);
  });

  void test('POST refusals: 403 for non-admins, 409 for taken username or e-mail, 400 reserved, bad fields, unknown group', async () => {
    const ok = { name: 'X', username: 'x.person', email: 'x@acme.example' };
    assertError(await s.h.call('POST', `${base}/members`, { token: s.member, body: ok }), 403, 'forbidden');
    const taken = await s.h.call('POST', `${base}/members`, { token: s.demo, body: { ...ok, username: 'MEMBER' } });
    assertError(taken, 409, 'conflict');
    assert.deepEqual(fieldsOf(taken), ['username']);
    const email = await s.h.call('POST', `${base}/members`, {
      token: s.demo,
      body: { ...ok, email: 'DEMO@acme.example' },
    });
    assertError(email, 409, 'conflict');
    assert.deepEqual(fieldsOf(email), ['email']);
    assertError(
      await s.h.call('POST', `${base}/members`, { token: s.demo, body: { ...ok, username: 'admin' } }),
      400,
      'invalid_input',
    );
    const bad = await s.h.call('POST', `${base}/members`, {
      token: s.demo,
      body: { name: '', username: 'a b', email: 'nope', tags: 'x', rights: 3, assignGroups: { 999: 4 } },
    });
    assertError(bad, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(bad).sort(), ['assignGroups.999', 'email', 'name', 'rights', 'tags', 'username']);
    const missing = await s.h.call('POST', `${base}/members`, { token: s.demo, body: {} });
    assert.deepEqual(fieldsOf(missing).sort(), ['email', 'name', 'username']);
    const after = await list('?name=x.person');
    assert.equal(after.body.totalResults, 0, 'nothing was created by the failed requests');
  });

  void test('PATCH applies tags, permission, lock, enabled, 2FA, activation and group assignment', async () => {
    await s.h.call('POST', `${base}/members`, {
      token: s.demo,
      body: {
        name: 'Pat Patch',
        username: 'pat.patch',
        email: 'pat@acme.example',
        password: 'pw',
        assignGroups: { [DEMO.engineering]: 1, [DEMO.marketing]: 1 },
      },
    });
    const patched = await s.h.call<Member3>('PATCH', `${base}/members/pat.patch`, {
      token: s.demo,
      body: {
        tags: ['ops'],
        permission: 16,
        assignGroupsRights: { [DEMO.handbook]: 4 },
        assignGroupsAdmin: [DEMO.social],
        removeGroups: [DEMO.marketing],
        assignToNewGroupsRights: 4,
        assignmentNotification: true,
        activation: { date: 4_102_444_800_000, message: 'hi' },
      },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.tags, ['ops']);
    assert.equal(patched.body.permission, 16);
    assert.equal(patched.body.assignToNewGroupsPermission, 4);
    assert.equal(patched.body.activationType, 4_102_444_800_000);
    const groups = await s.h.call<Member2>('GET', `/v2/accounts/${DEMO.acme}/members/pat.patch`, { token: s.demo });
    assert.deepEqual(groups.body.groups, { engineering: 1, handbook: 4, social: 16 });

    const admin = await s.h.call<Member3>('PATCH', `${base}/members/pat.patch`, {
      token: s.demo,
      body: { assignToNewGroupsAdmin: true, rights: 1 },
    });
    assert.equal(admin.body.assignToNewGroupsPermission, 16);
    assert.equal(admin.body.permission, 1);
    const notAdmin = await s.h.call<Member3>('PATCH', `${base}/members/pat.patch`, {
      token: s.demo,
      body: { assignToNewGroupsAdmin: false },
    });
    assert.equal(notAdmin.body.assignToNewGroupsPermission, 0);
    await s.h.call('PATCH', `${base}/members/pat.patch`, { token: s.demo, body: { assignToNewGroupsAdmin: true } });
    const adminToStandard = await s.h.call<Member3>('PATCH', `${base}/members/pat.patch`, {
      token: s.demo,
      body: { assignToNewGroupsAdmin: false, assignToNewGroupsRights: 4 },
    });
    assert.equal(adminToStandard.body.assignToNewGroupsPermission, 4, 'administrator → standard: the new rights win');

    const locked = await s.h.call<Member3>('PATCH', `${base}/members/pat.patch`, {
      token: s.demo,
      body: { lock: true },
    });
    assert.equal(locked.body.user.locked, true);
    const refused = await s.h.call<{ error: string }>(
      'GET',
      '/oauth/token?grant_type=password&client_id=portal-mobile&username=pat.patch&password=pw',
    );
    assert.equal(refused.body.error, 'invalid_grant');
    const unlocked = await s.h.call<Member3>('PATCH', `${base}/members/lena.locked`, {
      token: s.demo,
      body: { lock: false },
    });
    assert.equal(unlocked.body.user.locked, false);
    assert.equal(unlocked.body.pendingUnlock, false);
    assert.equal(typeof (await s.h.login('lena.locked')), 'string');

    const disabled = await s.h.call<Member3>('PATCH', `${base}/members/pat.patch`, {
      token: s.demo,
      body: { enabled: false, lock: false },
    });
    assert.equal(disabled.body.user.enabled, false);
    const pw = await s.h.call<Member3>('PATCH', `${base}/members/pat.patch`, {
      token: s.demo,
      body: { enabled: true, password: 'new-pw' },
    });
    assert.equal(pw.body.user.enabled, true);
    assert.equal(typeof (await s.h.login('pat.patch', 'new-pw')), 'string');

    const no2fa = await s.h.call<Member3>('PATCH', `${base}/members/demo-2fa`, {
      token: s.demo,
      body: { disableTwoFactorAuthentication: true },
    });
    assert.equal(no2fa.body.twoFactorAuthentication, false);
    assert.equal(typeof (await s.h.login('demo-2fa')), 'string');
  });

  void test('PATCH refusals change nothing: 403, 404, 400 with every field error', async () => {
    assertError(
      await s.h.call('PATCH', `${base}/members/demo`, { token: s.member, body: { permission: 1 } }),
      403,
      'forbidden',
    );
    assertError(
      await s.h.call('PATCH', `${base}/members/ghost`, { token: s.demo, body: { permission: 1 } }),
      404,
      'not_found',
    );
    const bad = await s.h.call('PATCH', `${base}/members/member`, {
      token: s.demo,
      body: { tags: ['ok'], permission: 2, lock: 'yes', removeGroups: [12345] },
    });
    assertError(bad, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(bad).sort(), ['lock', 'permission', 'removeGroups']);
    const m = await s.h.call<Member3>('GET', `${base}/members/member`, { token: s.demo });
    assert.deepEqual(m.body.tags, ['new-hire', 'frontend'], 'tags were not half-written');
  });

  void test('DELETE removes the member: 200 empty; 403 for non-admins; 404 afterwards', async () => {
    await s.h.call('POST', `${base}/members`, {
      token: s.demo,
      body: { name: 'Del Me', username: 'del.me', email: 'del@acme.example' },
    });
    assertError(await s.h.call('DELETE', `${base}/members/del.me`, { token: s.member }), 403, 'forbidden');
    const del = await s.h.call('DELETE', `${base}/members/del.me`, { token: s.demo });
    assert.equal(del.status, 200);
    assert.equal(del.text, '');
    assertError(await s.h.call('GET', `${base}/members/del.me`, { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('DELETE', `${base}/members/del.me`, { token: s.demo }), 404, 'not_found');
  });
});

void describe('v3 member tags', () => {
  const s = demoSuite();

  void test('GET member-tags is a sorted array of tag names', async () => {
    const res = await s.h.call<string[]>('GET', `${base}/member-tags`, { token: s.demo });
    assert.equal(res.status, 200);
    assert.ok(res.body.includes('lead'));
    assert.ok(res.body.includes('security'));
    assert.equal(new Set(res.body).size, res.body.length);
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    assert.deepEqual(
      res.body,
      [...res.body].sort((a, b) => collator.compare(a, b)),
    );
    const page = await s.h.call<string[]>('GET', `${base}/member-tags?page=1&size=3`, { token: s.demo });
    assert.deepEqual(page.body, res.body.slice(0, 3));
  });

  void test('GET member-tags?summary counts members per tag, with orderBy, ascending, name and startsWith', async () => {
    const res = await s.h.call<Array<{ name: string; members: number }>>('GET', `${base}/member-tags?summary`, {
      token: s.demo,
    });
    assert.equal(res.status, 200);
    const members = await s.h.call<Envelope3<Member3>>('GET', `${base}/members?size=100`, { token: s.demo });
    for (const row of res.body) {
      assert.equal(row.members, members.body.items.filter((m) => m.tags.includes(row.name)).length, row.name);
    }
    const byCount = await s.h.call<Array<{ name: string; members: number }>>(
      'GET',
      `${base}/member-tags?summary&orderBy=members&ascending=false`,
      { token: s.demo },
    );
    const counts = byCount.body.map((r) => r.members);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
    );
    const named = await s.h.call<Array<{ name: string }>>('GET', `${base}/member-tags?summary=true&name=EN`, {
      token: s.demo,
    });
    assert.ok(named.body.length > 0);
    assert.ok(named.body.every((r) => r.name.toLowerCase().includes('en')));
    const prefix = await s.h.call<Array<{ name: string }>>('GET', `${base}/member-tags?summary&startsWith=l`, {
      token: s.demo,
    });
    assert.ok(prefix.body.every((r) => r.name.startsWith('l')));
    assertError(
      await s.h.call('GET', `${base}/member-tags?summary&orderBy=size`, { token: s.demo }),
      400,
      'invalid_input',
    );
  });

  void test('GET member-tags/{tags} returns the v3 envelope of members with any of the tags', async () => {
    const res = await s.h.call<Envelope3<Member3>>('GET', `${base}/member-tags/lead,new-hire`, { token: s.demo });
    assert.equal(res.status, 200);
    assert.ok(res.body.items.length >= 2);
    assert.ok(res.body.items.every((m) => m.tags.includes('lead') || m.tags.includes('new-hire')));
    assert.ok(res.body.items.some((m) => m.user.username === 'member'));
    const one = await s.h.call<Envelope3<Member3>>('GET', `${base}/member-tags/security`, { token: s.demo });
    assert.deepEqual(
      one.body.items.map((m) => m.user.username),
      ['yara.haddad'],
    );
    const paged = await s.h.call<Envelope3<Member3>>(
      'GET',
      `${base}/member-tags/lead,new-hire?size=1&page=2&orderBy=username`,
      { token: s.demo },
    );
    assert.equal(paged.body.items.length, 1);
    assert.equal(paged.body.pageSize, 1);
    const none = await s.h.call<Envelope3<Member3>>('GET', `${base}/member-tags/no-such-tag`, { token: s.demo });
    assert.equal(none.body.totalResults, 0);
    assertError(await s.h.call('GET', `${base}/member-tags/,`, { token: s.demo }), 400, 'invalid_input');
  });
});
