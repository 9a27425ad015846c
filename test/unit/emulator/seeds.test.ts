import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSeed } from '../../emulator/seeds';
import {
  DEMO,
  allFiles,
  startHarness,
  type App3,
  type Envelope3,
  type File2,
  type Group2,
  type Member2,
  type Member3,
} from './helpers';

void describe('demo seed', () => {
  void test('has what the UI must show: organisations, subscriptions, members of every kind, files of several types', async () => {
    const h = await startHarness();
    try {
      const token = await h.login();
      const accounts = await h.call<Array<{ id: number; name: string; enabled: boolean }>>('GET', '/v3/accounts', {
        token,
      });
      assert.deepEqual(
        accounts.body.map((a) => [a.name, a.enabled]),
        [
          ['acme', true],
          ['globex', true],
          ['initech-archive', false],
        ],
      );
      const subs = await Promise.all(
        [DEMO.acme, DEMO.globex].map((id) =>
          h.call<{ accountPackage: { trialExpires: number | null; paused: boolean } }>(
            'GET',
            `/v3/accounts/${id}/subscription`,
            { token },
          ),
        ),
      );
      assert.equal(typeof subs[0]?.body.accountPackage.trialExpires, 'number', 'a trial subscription');
      assert.equal(subs[1]?.body.accountPackage.paused, true, 'a paused subscription');
      const custom = await h.call<Record<string, string>>('GET', `/v2/accounts/${DEMO.globex}/custom`, { token });
      assert.ok(Object.keys(custom.body).length > 0, 'custom component names in one organisation');

      const members = (await h.call<Envelope3<Member3>>('GET', `/v3/accounts/${DEMO.acme}/members?size=100`, { token }))
        .body.items;
      const globexMembers = (
        await h.call<Envelope3<Member3>>('GET', `/v3/accounts/${DEMO.globex}/members?size=100`, { token })
      ).body.items;
      const users = new Map([...members, ...globexMembers].map((m) => [m.user.username, m]));
      assert.ok(users.size >= 40, `about 40 members: ${users.size}`);
      assert.ok(members.filter((m) => m.tags.length > 0).length > 10, 'members have tags');
      assert.deepEqual(
        [...new Set(members.map((m) => m.permission))].sort((a, b) => a - b),
        [1, 4, 16],
      );
      assert.equal(users.get('victor.hale')?.user.enabled, false);
      assert.equal(users.get('lena.locked')?.user.locked, true);
      assert.equal(users.get('lena.locked')?.pendingUnlock, true);
      assert.equal(users.get('demo-2fa')?.twoFactorAuthentication, true);
      const formats = new Set([...users.values()].map((m) => JSON.stringify(m.user.dateFormat)));
      for (const f of ['"DMY"', 'null', 'false']) assert.ok(formats.has(f), `dateFormat ${f}`);
      const activation = new Set([...users.values()].map((m) => typeof m.activationType));
      assert.deepEqual([...activation].sort(), ['number', 'string']);
      assert.ok([...users.values()].some((m) => m.memberOfMultipleAccounts));

      const groupPerms = new Set<number>();
      for (const username of ['member', 'demo', 'demo-2fa', 'yara.haddad']) {
        const d = await h.call<Member2>('GET', `/v2/accounts/${DEMO.acme}/members/${username}`, { token });
        for (const p of Object.values(d.body.groups ?? {})) groupPerms.add(p);
      }
      assert.deepEqual(
        [...groupPerms].sort((a, b) => a - b),
        [1, 4, 16],
      );

      const groups = [
        ...(await h.call<Group2[]>('GET', `/v2/accounts/${DEMO.acme}/groups`, { token })).body.map(
          (g) => [DEMO.acme, g] as const,
        ),
        ...(await h.call<Group2[]>('GET', `/v2/accounts/${DEMO.globex}/groups`, { token })).body.map(
          (g) => [DEMO.globex, g] as const,
        ),
      ];
      assert.equal(groups.length, 6, 'about six groups');
      const files: File2[] = [];
      for (const [account, g] of groups) files.push(...(await allFiles(h, token, account, g.id ?? 0)));
      const types = new Set(files.map((f) => f.contentType));
      for (const t of [
        '@folder',
        'text/markdown',
        'application/json',
        'text/csv',
        'text/plain',
        'text/typescript',
        'image/png',
        'application/pdf',
      ])
        assert.ok(types.has(t), t);
      assert.deepEqual(
        [...new Set(files.map((f) => Number(f.memberPermission)))].sort((a, b) => a - b),
        [1, 2, 4, 8, 16],
      );
      const folderIds = new Set(files.filter((f) => f.contentType === '@folder').map((f) => f.id));
      assert.ok(
        files.some((f) => f.contentType === '@folder' && f.parent !== null && folderIds.has(f.parent)),
        'nested folders',
      );

      const apps = await h.call<App3[]>('GET', '/v3/applications', { token });
      assert.ok(apps.body.length >= 1);
    } finally {
      await h.stop();
    }
  });

  void test('reads like a real organisation: no markup, link, icon syntax, bidi control or injection in any text', () => {
    const data = buildSeed('demo').snapshot();
    // Everything a person may read, file contents aside (code and CSV use brackets and angle brackets honestly).
    const texts: Array<[string, string]> = [];
    const collect = (where: string, value: unknown): void => {
      if (typeof value === 'string') texts.push([where, value]);
      else if (Array.isArray(value)) value.forEach((v, i) => collect(`${where}[${i}]`, v));
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value))
          if (!['text', 'passwordHash', 'clientSecret', 'twoFactorCode'].includes(k)) collect(`${where}.${k}`, v);
    };
    collect('seed', { ...data, quirks: undefined });
    assert.ok(texts.length > 500, `${texts.length} strings`);
    const fixture = /[<>]|\]\(|\$\(|[\u202a-\u202e\u2066-\u2069]|onerror|drop table|;--|xss|hostile|payload/i;
    assert.deepEqual(
      texts.filter(([, t]) => fixture.test(t)),
      [],
    );
    const contents = data.files.flatMap((f) => (f.text === undefined ? [] : [[f.name, f.text] as const]));
    assert.ok(contents.length > 10);
    assert.deepEqual(
      contents.filter(([, t]) => /onerror|<script|\]\(command:|drop table/i.test(t)),
      [],
    );
    // A person's name: capitalised words, as a newcomer expects to read them in the Members view.
    const person = /^\p{Lu}[\p{L}'’-]*( \p{Lu}[\p{L}'’-]*)+$/u;
    assert.deepEqual(
      data.users.map((u) => u.name).filter((n) => !person.test(n)),
      [],
    );
    assert.deepEqual(
      data.memberships.flatMap((m) => m.tags).filter((t) => !/^[a-z0-9][a-z0-9-]*$/.test(t)),
      [],
      'tags are plain lower-case words',
    );
  });

  void test('is deterministic', () => {
    assert.equal(
      JSON.stringify(buildSeed('demo').snapshot(), mapReplacer),
      JSON.stringify(buildSeed('demo').snapshot(), mapReplacer),
    );
    assert.equal(
      JSON.stringify(buildSeed('large', { members: 200, files: 500, groups: 5 }).snapshot(), mapReplacer),
      JSON.stringify(buildSeed('large', { members: 200, files: 500, groups: 5 }).snapshot(), mapReplacer),
    );
  });
});

function mapReplacer(_key: string, value: unknown): unknown {
  return value instanceof Map ? [...value] : value;
}

void describe('large seed', () => {
  void test('sizes come from options; listings page through every record', async () => {
    const h = await startHarness({ seed: 'large', large: { members: 50, files: 300, groups: 7, folderDepth: 3 } });
    try {
      const token = await h.login();
      const members = await h.call<Envelope3<Member3>>('GET', '/v3/accounts/1/members?size=10', { token });
      assert.equal(members.body.totalResults, 53);
      const groups = await h.call<Group2[]>('GET', '/v2/accounts/1/groups', { token });
      assert.equal(groups.body.length, 7);
      const bulk = groups.body.find((g) => g.name === 'bulk');
      assert.ok(bulk?.id);
      const root = await allFiles(h, token, 1, bulk.id, 'orderBy=name');
      assert.equal(root.length, 302, '300 files and 2 top folders');
      assert.equal(new Set(root.map((f) => f.id)).size, 302);
      const all = await allFiles(h, token, 1, bulk.id);
      assert.equal(all.length, 300 + 14 + 28, 'files, 2+4+8 folders, two files in each');
      const deepest = all.filter((f) => f.contentType === '@folder');
      let depth = 0;
      const byId = new Map(all.map((f) => [f.id, f]));
      for (const f of deepest) {
        let d = 1;
        for (let p = f.parent; p !== null && d < 100; p = byId.get(p)?.parent ?? null) d++;
        depth = Math.max(depth, d);
      }
      assert.equal(depth, 3);
      const sample = root.find((f) => f.contentType === 'text/csv');
      assert.ok(sample);
      const res = await fetch(`${h.url}/v3/groups/${bulk.id}/files/${sample.id}/download`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal((await res.arrayBuffer()).byteLength, sample.size, 'generated content has the recorded size');
    } finally {
      await h.stop();
    }
  });

  void test('default sizes: 20,000 members, 50,000 files in one group plus a 5-level tree, 500 groups', () => {
    const store = buildSeed('large');
    assert.equal(store.users.size, 20_003);
    assert.equal(store.groupsOf(1).length, 500);
    const bulk = store.groupsOf(1).find((g) => g.name === 'bulk');
    assert.ok(bulk);
    const files = store.filesOf(bulk.id);
    assert.equal(files.filter((f) => f.parentId === 0 && f.contentType !== '@folder').length, 50_000);
    assert.equal(files.filter((f) => f.contentType === '@folder').length, 62);
    assert.equal(store.membersOf(1).length, 20_003);
  });
});

void describe('empty seed', () => {
  void test('one organisation with the documented logins and nothing else', async () => {
    const h = await startHarness({ seed: 'empty' });
    try {
      const token = await h.login();
      const accounts = await h.call<Array<{ id: number; name: string }>>('GET', '/v3/accounts', { token });
      assert.deepEqual(
        accounts.body.map((a) => a.name),
        ['empty'],
      );
      const groups = await h.call<Group2[]>('GET', `/v2/accounts/${accounts.body[0]?.id}/groups`, { token });
      assert.deepEqual(groups.body, []);
      assert.deepEqual((await h.call('GET', '/v3/applications', { token })).body, []);
      assert.equal(typeof (await h.login('member')), 'string');
      assert.equal(typeof (await h.login('demo-2fa', 'demo', '123456')), 'string');
    } finally {
      await h.stop();
    }
  });
});
