// Every v2 endpoint (spec 4.4) and the file download, against the demo seed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collect, GroupPermission } from '../../../../src/api';
import { accountId, groupId, kind, enrolledSuite } from '../helpers';

void describe('v2 endpoints', () => {
  const s = enrolledSuite(async ({ t, acme }) => ({
    globex: await accountId(t.client, 'globex'),
    engineering: await groupId(t.client, acme, 'engineering'),
  }));

  void test('applications: v2 create answers client id and secret that work', async () => {
    const app = await s.t.client.v2.applications.create({
      name: 'v2 app',
      platform: 'OTHER',
      deviceType: 'Other',
      deviceToken: '0b6f2c1e-0000-4000-8000-000000000000',
    });
    assert.ok(app.clientId);
    assert.ok(app.clientSecret);
    await s.t.client.v3.applications.delete(app.clientId);
  });

  void test('accounts: list, get, custom names (customised and not)', async () => {
    const orgs = await s.t.client.v2.accounts.list();
    assert.ok(orgs.some((o) => o.name === 'acme'));
    const org = await s.t.client.v2.accounts.get(s.globex);
    assert.equal(org.name, 'globex');
    assert.equal(org.type, 'account');
    const custom = await s.t.client.v2.accounts.custom(s.globex);
    assert.ok(Object.keys(custom).length > 0);
    assert.ok(Object.values(custom).includes('Documents'));
    assert.deepEqual({ ...(await s.t.client.v2.accounts.custom(s.acme)) }, {});
  });

  void test('groups: list, page, iterate, get, create, update, duplicate, delete', async () => {
    const { client } = s.t;
    const groups = await client.v2.groups.list(s.acme);
    assert.ok(groups.length >= 4);
    const g = await client.v2.groups.get(s.acme, s.engineering);
    assert.equal(g.name, 'engineering');
    assert.ok(g.members > 0);
    assert.ok(g.components.length > 0);

    const first = await client.v2.groups.page(s.acme, { page: 1, size: 2 });
    assert.equal(first.items.length, 2);
    assert.equal(first.hasNext, true);
    const iterated = await collect(client.v2.groups.iterate(s.acme, { size: 3 }));
    assert.deepEqual(
      iterated.map((x) => x.id),
      groups.map((x) => x.id),
    );

    const created = await client.v2.groups.create(s.acme, {
      name: 'unit-test-group',
      friendlyName: 'Unit test group',
      components: ['files', 'pages'],
      disableChat: true,
    });
    assert.equal(created.name, 'unit-test-group');
    const createdId = created.id ?? (await groupId(client, s.acme, 'unit-test-group'));
    const updated = await client.v2.groups.update(s.acme, createdId, {
      friendlyName: 'Renamed group',
      branding: { headerColor: '#112233' },
    });
    assert.equal(updated.friendlyName, 'Renamed group');
    assert.equal(updated.branding?.headerColor, '#112233');
    await client.v2.groups.duplicate(s.acme, createdId, 'unit-test-group-copy');
    assert.equal(s.t.logs.filter((l) => l.path.includes('/duplicate?')).at(-1)?.status, 202);
    const copyId = await groupId(client, s.acme, 'unit-test-group-copy');
    await client.v2.groups.delete(s.acme, copyId);
    await client.v2.groups.delete(s.acme, createdId);
    await assert.rejects(client.v2.groups.get(s.acme, createdId), kind('not-found'));
    await assert.rejects(client.v2.groups.create(s.acme, { name: 'engineering' }), kind('conflict'));
  });

  void test('members: page, iterate, get (with groups), create, update, delete', async () => {
    const { client } = s.t;
    const first = await client.v2.members.page(s.acme, { page: 1, size: 4 });
    assert.equal(first.items.length, 4);
    assert.equal(first.hasNext, true);
    assert.ok((first.totalResults ?? 0) > 4);
    const all = await collect(client.v2.members.iterate(s.acme, { size: 9 }));
    assert.equal(all.length, first.totalResults);

    const demo = await client.v2.members.get(s.acme, 'demo');
    assert.equal(demo.user.username, 'demo');
    assert.equal(demo.groups?.engineering, GroupPermission.Administrator);

    const created = await client.v2.members.create(s.acme, {
      user: { username: 'v2.tester', name: 'V2 Tester', email: 'v2.tester@acme.example' },
      accountPermission: 1,
      groups: { engineering: GroupPermission.Standard },
      activationType: 'now',
    });
    assert.equal(created.user.username, 'v2.tester');
    assert.equal(created.groups?.engineering, GroupPermission.Standard);
    const updated = await client.v2.members.update(s.acme, 'v2.tester', {
      user: { jobTitle: 'Tester' },
      groups: { marketing: GroupPermission.Basic },
    });
    assert.equal(updated.user.jobTitle, 'Tester');
    assert.equal(updated.groups?.marketing, GroupPermission.Basic);
    await client.v2.members.delete(s.acme, 'v2.tester');
    await assert.rejects(client.v2.members.get(s.acme, 'v2.tester'), kind('not-found'));
  });

  void test('files: root page, folders only, children, single record, recursive walk, ordering and filters', async () => {
    const { client } = s.t;
    const root = await client.v2.files.page(s.acme, s.engineering, { size: 100 });
    assert.ok(root.items.length > 0);
    const folders = await client.v2.files.page(s.acme, s.engineering, { foldersOnly: true, size: 100 });
    assert.ok(folders.items.length > 0 && folders.items.every((f) => f.isFolder));
    const folder = folders.items[0]!;
    const children = await client.v2.files.children(s.acme, s.engineering, folder.id, { size: 100 });
    assert.ok(children.items.length > 0);
    const kids = await collect(client.v2.files.iterateChildren(s.acme, s.engineering, folder.id, { size: 1 }));
    assert.deepEqual(
      kids.map((k) => k.id),
      children.items.map((k) => k.id),
    );

    const file = root.items.find((f) => !f.isFolder) ?? children.items.find((f) => !f.isFolder);
    assert.ok(file, 'some file in the tree');
    const single = await client.v2.files.get(s.acme, s.engineering, file.id);
    assert.equal(single.id, file.id);
    assert.equal(single.name, file.name);

    const everything = await collect(client.v2.files.iterate(s.acme, s.engineering, { recursive: true, size: 3 }));
    assert.ok(everything.length > root.items.length, 'recursive reaches into folders');
    assert.equal(new Set(everything.map((f) => f.id)).size, everything.length);

    const bySize = await client.v2.files.page(s.acme, s.engineering, {
      recursive: true,
      orderBy: 'size',
      ascending: false,
      size: 100,
    });
    const sizes = bySize.items.filter((f) => !f.isFolder).map((f) => f.size);
    for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i - 1]! >= sizes[i]!, 'ordered by size, descending');
    const named = await client.v2.files.page(s.acme, s.engineering, { recursive: true, name: file.name.slice(0, 4) });
    assert.ok(named.items.some((f) => f.id === file.id));
    const future = await client.v2.files.page(s.acme, s.engineering, {
      recursive: true,
      modifiedAfter: Date.now() + 86_400_000,
    });
    assert.equal(future.items.length, 0);
  });

  void test('files: download gives bytes, type, name and length; abortable', async () => {
    const { client } = s.t;
    const all = await collect(client.v2.files.iterate(s.acme, s.engineering, { recursive: true }));
    const file = all.find((f) => !f.isFolder && (f.size ?? 0) > 0);
    assert.ok(file);
    const d = await client.v2.files.download(s.engineering, file.id);
    const chunks: Buffer[] = [];
    for await (const c of d.body as AsyncIterable<Buffer>) chunks.push(c);
    const bytes = Buffer.concat(chunks);
    assert.ok(bytes.length > 0);
    if (d.length !== undefined) assert.equal(bytes.length, d.length);
    assert.ok(d.contentType.length > 0);
    assert.ok(d.filename, 'Content-Disposition names the file');

    const web = await client.v2.files.download(s.engineering, file.id);
    let webBytes = 0;
    for await (const c of web.toWeb()) webBytes += c.byteLength;
    assert.equal(webBytes, bytes.length);

    const ac = new AbortController();
    ac.abort();
    await assert.rejects(client.v2.files.download(s.engineering, file.id, { signal: ac.signal }), kind('cancelled'));
    await assert.rejects(client.v2.files.download(s.engineering, 999_999_999), kind('not-found'));
  });
});
