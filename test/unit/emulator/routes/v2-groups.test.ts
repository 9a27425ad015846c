import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEMO,
  assertError,
  fieldsOf,
  startWithDemoAndMember,
  type FilePage,
  type Group2,
  suiteFixture,
} from '../helpers';

const base = `/v2/accounts/${DEMO.acme}/groups`;

void describe('v2 groups', () => {
  const s = suiteFixture(
    async () => {
      const started = await startWithDemoAndMember();
      return { ...started, creator: await started.h.login('demo-2fa', 'demo', '123456') };
    },
    ({ h }) => h.stop(),
  );

  void test('GET groups: a super administrator sees all, a regular member only their groups', async () => {
    const all = await s.h.call<Group2[]>('GET', base, { token: s.demo });
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.map((g) => g.name),
      ['engineering', 'handbook', 'marketing', 'social'],
    );
    const mine = await s.h.call<Group2[]>('GET', base, { token: s.member });
    assert.deepEqual(
      mine.body.map((g) => g.name),
      ['engineering', 'marketing', 'social'],
    );
    const g = all.body[0];
    assert.ok(g);
    assert.equal(g.type, 'group');
    assert.equal(typeof g.members, 'number');
    assert.ok(g.members > 3);
    assert.ok(g.storageConsumed > 0);
    assert.equal((g.account as { name: string }).name, 'acme');
    assert.equal((g.portal as { username: string }).username, 'demo');
    assert.equal(g.mailKey, null);
    assert.deepEqual(
      g.components.map((c) => c.name),
      ['files', 'pages', 'events', 'tasks', 'activity', 'chat', 'discussions'],
    );
    for (const key of [
      'id',
      'comments',
      'attachments',
      'contextKey',
      'master',
      'masterConfiguration',
      'friendlyName',
      'branding',
      'dateCreated',
      'lastModified',
      'order',
      'hash',
      'blind',
      'duplicate',
      'disableChat',
      'disableComments',
      'disableEmailComments',
      'hideMemberDetails',
      'disableAccordionWidgets',
      'watermarkConfiguration',
    ]) {
      assert.ok(key in g, key);
    }
    const page = await s.h.call<Group2[]>('GET', `${base}?page=2&size=3`, { token: s.demo });
    assert.deepEqual(
      page.body.map((x) => x.name),
      ['social'],
    );
  });

  void test('GET one group: storageConsumed is the sum of its file sizes; invisible groups are 404', async () => {
    const res = await s.h.call<Group2>('GET', `${base}/${DEMO.engineering}`, { token: s.member });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, DEMO.engineering);
    const files = await s.h.call<FilePage>('GET', `${base}/${DEMO.engineering}/files?recursive=true&size=100`, {
      token: s.member,
    });
    assert.equal(
      res.body.storageConsumed,
      files.body.page.reduce((s, f) => s + f.size, 0),
    );
    assertError(await s.h.call('GET', `${base}/${DEMO.handbook}`, { token: s.member }), 404, 'not_found');
    assertError(await s.h.call('GET', `${base}/${DEMO.research}`, { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('GET', `${base}/99999`, { token: s.demo }), 404, 'not_found');
  });

  void test('POST creates a group: 200 with id, dates, creator, contextKey and account null; the group then lists', async () => {
    const res = await s.h.call<Group2>('POST', base, {
      token: s.creator,
      body: {
        name: 'design',
        friendlyName: 'Design Studio',
        disableChat: true,
        disableWidgets: true,
        components: ['files', 'tasks'],
        branding: { headerColor: '#123456', alignment: 'left', backgroundPositionX: 10, hideGroupName: true },
      },
    });
    assert.equal(res.status, 200, res.text);
    for (const key of ['id', 'dateCreated', 'lastModified', 'portal', 'contextKey', 'account'])
      assert.equal(res.body[key], null, key);
    assert.equal(res.body.name, 'design');
    assert.equal(res.body.friendlyName, 'Design Studio');
    assert.equal(res.body.disableChat, true);
    assert.deepEqual(
      res.body.components.map((c) => c.name),
      ['files', 'tasks'],
    );
    assert.equal(res.body.branding.headerColor, '#123456');
    assert.equal(res.body.branding.hideGroupName, true);
    const listed = await s.h.call<Group2[]>('GET', base, { token: s.creator });
    const made = listed.body.find((g) => g.name === 'design');
    assert.ok(made, 'the creator sees the new group');
    assert.equal(typeof made.id, 'number');
    assert.ok(made.members >= 1);
    // Members set to join new groups joined it.
    assert.ok(made.members >= 3, `members: ${made.members}`);
  });

  void test('POST refusals: regular member 403, taken 409, reserved 400, bad body 400 with fields', async () => {
    assertError(await s.h.call('POST', base, { token: s.member, body: { name: 'mine' } }), 403, 'forbidden');
    const taken = await s.h.call('POST', base, { token: s.demo, body: { name: 'Engineering' } });
    assertError(taken, 409, 'conflict');
    assert.deepEqual(fieldsOf(taken), ['name']);
    for (const name of ['admin', 'API', 'trash', 'new']) {
      assertError(await s.h.call('POST', base, { token: s.demo, body: { name } }), 400, 'invalid_input');
    }
    const bad = await s.h.call('POST', base, {
      token: s.demo,
      body: {
        name: 'a/b',
        disableChat: 'no',
        components: ['files', 'warp'],
        branding: { logo: 'yes', backgroundPositionY: 'top' },
      },
    });
    assertError(bad, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(bad).sort(), [
      'branding.backgroundPositionY',
      'branding.logo',
      'components',
      'disableChat',
      'name',
    ]);
    assertError(await s.h.call('POST', base, { token: s.demo, body: {} }), 400, 'invalid_input');
    const names = (await s.h.call<Group2[]>('GET', base, { token: s.demo })).body.map((g) => g.name);
    assert.ok(!names.includes('a/b'));
  });

  void test('POST /groups/{group} updates; needs group admin or super administrator', async () => {
    const res = await s.h.call<Group2>('POST', `${base}/${DEMO.social}`, {
      token: s.member,
      body: { friendlyName: 'Social & Sports', disableComments: true, branding: { textColor: '#000000' } },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, DEMO.social);
    assert.equal(res.body.friendlyName, 'Social & Sports');
    assert.equal(res.body.disableComments, true);
    assert.equal(res.body.branding.textColor, '#000000');
    assert.equal(res.body.branding.headerColor, '#0b3d91', 'branding fields not sent are kept');
    assertError(
      await s.h.call('POST', `${base}/${DEMO.engineering}`, { token: s.member, body: { friendlyName: 'Mine now' } }),
      403,
      'forbidden',
    );
    const renamed = await s.h.call<Group2>('POST', `${base}/${DEMO.engineering}`, {
      token: s.demo,
      body: { name: 'eng' },
    });
    assert.equal(renamed.body.name, 'eng');
    assertError(
      await s.h.call('POST', `${base}/${DEMO.engineering}`, { token: s.demo, body: { name: 'marketing' } }),
      409,
      'conflict',
    );
    const same = await s.h.call<Group2>('POST', `${base}/${DEMO.engineering}`, {
      token: s.demo,
      body: { name: 'engineering' },
    });
    assert.equal(same.status, 200, 'renaming back to its own old name is fine');
  });

  void test('GET /groups/{group}/duplicate: 202 no body, the copy appears with members and files; name rules apply', async () => {
    const res = await s.h.call('GET', `${base}/${DEMO.marketing}/duplicate?duplicateName=marketing-2026`, {
      token: s.demo,
    });
    assert.equal(res.status, 202);
    assert.equal(res.text, '');
    const all = await s.h.call<Group2[]>('GET', base, { token: s.demo });
    const original = all.body.find((g) => g.name === 'marketing');
    const copy = all.body.find((g) => g.name === 'marketing-2026');
    assert.ok(original && copy);
    assert.notEqual(copy.id, original.id);
    assert.equal(copy.members, original.members);
    assert.equal(copy.storageConsumed, original.storageConsumed);
    const files = await s.h.call<FilePage>('GET', `${base}/${copy.id}/files?recursive=true&size=100`, {
      token: s.demo,
    });
    const originalFiles = await s.h.call<FilePage>('GET', `${base}/${original.id}/files?recursive=true&size=100`, {
      token: s.demo,
    });
    assert.deepEqual(
      files.body.page.map((f) => f.name),
      originalFiles.body.page.map((f) => f.name),
    );
    assert.ok(
      files.body.page.every((f) => !originalFiles.body.page.some((o) => o.id === f.id)),
      'copies have new ids',
    );
    assertError(
      await s.h.call('GET', `${base}/${DEMO.marketing}/duplicate?duplicateName=handbook`, { token: s.demo }),
      409,
      'conflict',
    );
    assertError(await s.h.call('GET', `${base}/${DEMO.marketing}/duplicate`, { token: s.demo }), 400, 'invalid_input');
    assertError(
      await s.h.call('GET', `${base}/${DEMO.marketing}/duplicate?duplicateName=settings`, { token: s.demo }),
      400,
      'invalid_input',
    );
    assertError(
      await s.h.call('GET', `${base}/${DEMO.marketing}/duplicate?duplicateName=m2`, { token: s.member }),
      403,
      'forbidden',
    );
  });

  void test('DELETE puts the group in trash: 200 empty, gone from list and get, name still taken', async () => {
    await s.h.call('POST', base, { token: s.demo, body: { name: 'temporary' } });
    const id = (await s.h.call<Group2[]>('GET', base, { token: s.demo })).body.find((g) => g.name === 'temporary')?.id;
    assert.ok(id);
    assertError(await s.h.call('DELETE', `${base}/${id}`, { token: s.member }), 404, 'not_found');
    const del = await s.h.call('DELETE', `${base}/${id}`, { token: s.demo });
    assert.equal(del.status, 200);
    assert.equal(del.text, '');
    assertError(await s.h.call('GET', `${base}/${id}`, { token: s.demo }), 404, 'not_found');
    assert.ok(!(await s.h.call<Group2[]>('GET', base, { token: s.demo })).body.some((g) => g.name === 'temporary'));
    assertError(await s.h.call('GET', `${base}/${id}/files`, { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('POST', base, { token: s.demo, body: { name: 'temporary' } }), 409, 'conflict');
    assertError(await s.h.call('DELETE', `${base}/${id}`, { token: s.demo }), 404, 'not_found');
    // A regular member may delete a group they administer, and no other.
    assertError(await s.h.call('DELETE', `${base}/${DEMO.marketing}`, { token: s.member }), 403, 'forbidden');
    assert.equal((await s.h.call('DELETE', `${base}/${DEMO.social}`, { token: s.member })).status, 200);
  });
});
