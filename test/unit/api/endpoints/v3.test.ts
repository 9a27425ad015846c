// Every v3 endpoint (spec 4.2) against the demo seed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collect, AccountPermission } from '../../../../src/api';
import { kind, enrolledSuite } from '../helpers';

void describe('v3 endpoints', () => {
  const s = enrolledSuite();

  void test('userinfo: the user from the service-named field, and one entry per organisation', async () => {
    const info = await s.t.client.v3.userinfo();
    assert.equal(info.name, 'demo');
    assert.equal(info.user?.username, 'demo');
    assert.ok(info.authorities.length > 0);
    const acmeEntry = info.accounts.find((a) => a.account.name === 'acme');
    assert.ok(acmeEntry);
    assert.equal(acmeEntry.permission, AccountPermission.SuperAdministrator);
    assert.ok(Array.isArray(acmeEntry.features));
    assert.equal(typeof acmeEntry.subscription.paused, 'boolean');
  });

  void test('applications: create (with secret), list and get (without), update, rotate, delete', async () => {
    const { client } = s.t;
    const created = await client.v3.applications.create({
      name: 'App under test',
      description: 'x',
      platform: 'LINUX',
      deviceType: 'Other',
    });
    assert.ok(created.clientId);
    assert.ok(created.clientSecret, 'creation answers the secret');
    assert.equal(s.t.logs.filter((l) => l.method === 'POST' && l.path === '/v3/applications').at(-1)?.status, 201);
    const list = await client.v3.applications.list();
    const listed = list.find((a) => a.clientId === created.clientId);
    assert.ok(listed);
    assert.equal(listed.clientSecret, undefined);
    const got = await client.v3.applications.get(created.clientId);
    assert.equal(got.name, 'App under test');
    assert.equal(got.clientSecret, undefined);
    const renamed = await client.v3.applications.update(created.clientId, { name: 'Renamed app' });
    assert.equal(renamed.name, 'Renamed app');
    assert.equal(renamed.clientSecret, undefined);
    const rotated = await client.v3.applications.update(created.clientId, { rotateSecret: true });
    assert.ok(rotated.clientSecret);
    assert.notEqual(rotated.clientSecret, created.clientSecret);
    await client.v3.applications.delete(created.clientId);
    await assert.rejects(client.v3.applications.get(created.clientId), kind('not-found'));
  });

  void test('accounts: list (enabledOnly), get, update, subscription, components', async () => {
    const { client } = s.t;
    const all = await client.v3.accounts.list();
    const enabled = await client.v3.accounts.list(true);
    assert.ok(all.length > enabled.length, 'enabledOnly leaves the disabled organisation out');
    assert.ok(enabled.every((a) => a.enabled));
    const a = await client.v3.accounts.get(s.acme);
    assert.equal(a.name, 'acme');
    const updated = await client.v3.accounts.update(s.acme, { friendlyName: 'Acme Renamed' });
    assert.equal(updated.friendlyName, 'Acme Renamed');
    await client.v3.accounts.update(s.acme, { friendlyName: a.friendlyName });
    const sub = await client.v3.accounts.subscription(s.acme);
    assert.ok(sub.accountPackage.code);
    assert.notEqual(sub.accountPackage.trialExpires, null, 'acme is on a trial');
    const components = await client.v3.accounts.components(s.acme);
    assert.ok(components.length > 0);
    assert.ok(components.every((c) => typeof c.name === 'string' && c.name.length > 0));
  });

  void test('members: create, page with query, iterate, get, update, delete', async () => {
    const { client } = s.t;
    const created = await client.v3.members.create(s.acme, {
      name: 'Zed Tester',
      username: 'zed.tester',
      email: 'zed.tester@acme.example',
      tags: ['qa'],
    });
    assert.equal(created.user.username, 'zed.tester');
    assert.deepEqual(created.tags, ['qa']);

    const first = await client.v3.members.page(s.acme, { page: 1, size: 5 });
    assert.equal(first.items.length, 5);
    assert.equal(first.page, 1);
    assert.equal(first.pageSize, 5);
    assert.equal(first.hasNext, true);
    assert.ok((first.totalResults ?? 0) > 5);
    assert.ok((first.totalPages ?? 0) > 1);

    const byName = await client.v3.members.page(s.acme, { name: 'zed.tester@' });
    assert.deepEqual(
      byName.items.map((m) => m.user.username),
      ['zed.tester'],
    );
    const starts = await client.v3.members.page(s.acme, { startsWith: 'Zed' });
    assert.ok(starts.items.some((m) => m.user.username === 'zed.tester'));
    const ordered = await client.v3.members.page(s.acme, { orderBy: 'username', ascending: false, size: 100 });
    const names = ordered.items.map((m) => m.user.username);
    assert.ok(names.length > 1 && names[0]!.localeCompare(names[names.length - 1]!) > 0, 'descending by username');

    const all = await collect(client.v3.members.iterate(s.acme, { size: 7 }));
    assert.equal(all.length, first.totalResults);
    assert.equal(new Set(all.map((m) => m.user.id)).size, all.length, 'no duplicates across pages');

    const got = await client.v3.members.get(s.acme, 'zed.tester');
    assert.equal(got.user.email, 'zed.tester@acme.example');
    const updated = await client.v3.members.update(s.acme, 'zed.tester', {
      tags: ['qa', 'night-shift'],
      permission: AccountPermission.GroupCreator,
    });
    assert.deepEqual([...updated.tags].sort(), ['night-shift', 'qa']);
    assert.equal(updated.permission, AccountPermission.GroupCreator);
    await client.v3.members.delete(s.acme, 'zed.tester');
    await assert.rejects(client.v3.members.get(s.acme, 'zed.tester'), kind('not-found'));
  });

  void test('members: activation and dateFormat ambiguities parse without throwing', async () => {
    const all = await collect(s.t.client.v3.members.iterate(s.acme));
    assert.ok(
      all.some((m) => m.activation.mode === 'custom' && m.activation.date !== null),
      'scheduled activations read as custom + date',
    );
    assert.ok(all.some((m) => m.activation.mode === 'now'));
    const member = all.find((m) => m.user.username === 'member');
    assert.equal(member?.user.dateFormat, null, 'dateFormat false becomes null');
  });

  void test('member tags: list, summary (ordering, filters), members with any of the tags', async () => {
    const { client } = s.t;
    const tags = await client.v3.memberTags.list(s.acme);
    assert.ok(tags.includes('lead'));
    const slice = await client.v3.memberTags.list(s.acme, { page: 1, size: 2 });
    assert.equal(slice.length, 2);
    const tagPage = await client.v3.memberTags.page(s.acme, { page: 1, size: 2 });
    assert.equal(tagPage.hasNext, true);

    const summary = await client.v3.memberTags.summary(s.acme);
    const lead = summary.find((s) => s.name === 'lead');
    assert.ok(lead && lead.members >= 1);
    const byCount = await client.v3.memberTags.summary(s.acme, { orderBy: 'members', ascending: false });
    for (let i = 1; i < byCount.length; i++) assert.ok(byCount[i - 1]!.members >= byCount[i]!.members);
    const filtered = await client.v3.memberTags.summary(s.acme, { startsWith: 'le' });
    assert.ok(filtered.length > 0 && filtered.every((s) => s.name.toLowerCase().startsWith('le')));

    const tagged = await client.v3.memberTags.members(s.acme, ['lead', 'new-hire'], { size: 50 });
    const usernames = tagged.items.map((m) => m.user.username);
    assert.ok(usernames.includes('demo'));
    assert.ok(usernames.includes('member'));
    assert.ok(tagged.items.every((m) => m.tags.includes('lead') || m.tags.includes('new-hire')));
    const iterated = await collect(client.v3.memberTags.iterateMembers(s.acme, ['lead', 'new-hire'], { size: 1 }));
    assert.equal(iterated.length, tagged.totalResults);
  });
});
