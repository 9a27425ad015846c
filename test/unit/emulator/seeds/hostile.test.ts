import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSeed } from '../../../emulator/seeds';
import {
  CONFLICT_WITH_LINK,
  ERROR_WITH_LINK,
  FORMULA_NAMES,
  GIT_CONFIG_TRAP,
  HOSTILE_NAMES,
  HOSTILE_PAYLOADS,
  LONG_NAME,
  PAYLOAD_KINDS,
  TASKS_TRAP,
  TOOL_FOLDER_GROUP,
  type PayloadKind,
} from '../../../emulator/seeds/hostile-payloads';
import {
  assertError,
  allFiles,
  startHarness,
  type App3,
  type Envelope3,
  type File2,
  type Group2,
  type Harness,
  type Member2,
  type Member3,
} from '../helpers';
import { tempDir } from '../../../support/tempDir';

const MAIN = 1;
const SECOND = 2;
const squeeze = (s: string): string => s.replace(/\s+/g, '');
const kindsIn = (s: string): PayloadKind[] =>
  PAYLOAD_KINDS.filter((k) => s.includes(HOSTILE_PAYLOADS[k]) || squeeze(s).includes(squeeze(HOSTILE_PAYLOADS[k])));
const carries = (s: string): boolean => kindsIn(s).length > 0 || (HOSTILE_NAMES as readonly string[]).includes(s);

function assertEveryKind(what: string, strings: readonly string[]): void {
  const seen = new Set(strings.flatMap(kindsIn));
  assert.deepEqual(
    PAYLOAD_KINDS.filter((k) => !seen.has(k)),
    [],
    `${what} carry every payload kind`,
  );
}

function assertAllCarry(what: string, strings: ReadonlyArray<string | null>): void {
  const bare = strings.filter((s): s is string => s !== null).filter((s) => !carries(s));
  assert.deepEqual(bare, [], `every ${what} carries a payload`);
}

void describe('hostile seed', () => {
  let h: Harness;
  let token: string;
  let groups: Group2[];
  before(async () => {
    h = await startHarness({ seed: 'hostile' });
    token = await h.login();
    groups = (await h.call<Group2[]>('GET', `/v2/accounts/${MAIN}/groups`, { token })).body;
  });
  after(() => h.stop());

  const groupId = (name: string): number => {
    const g = groups.find((x) => x.name === name);
    assert.ok(g?.id, `group ${JSON.stringify(name)}`);
    return g.id;
  };

  void test("is deterministic: two builds are identical, and so are two emulators' answers", async () => {
    assert.equal(JSON.stringify(buildSeed('hostile').snapshot()), JSON.stringify(buildSeed('hostile').snapshot()));
    const other = await startHarness({ seed: 'hostile' });
    try {
      const otherToken = await other.login();
      // Signing in stamps the user's last login and activity with the time: the only difference.
      const timeless = (text: string): string => text.replace(/"last(Login|Active)":\d+/g, '"last$1":0');
      for (const path of [
        `/v3/accounts/${SECOND}/members?size=100`,
        `/v2/accounts/${MAIN}/members?size=100`,
        `/v2/accounts/${MAIN}/groups`,
        '/v3/applications',
        `/v2/accounts/${MAIN}/groups/101/files?recursive=true&size=100`,
      ]) {
        const [a, b] = await Promise.all([
          h.call('GET', path, { token }),
          other.call('GET', path, { token: otherToken }),
        ]);
        assert.equal(a.status, 200);
        assert.ok(timeless(a.text) === timeless(b.text), `${path} answers the same`);
      }
    } finally {
      await other.stop();
    }
  });

  void test('demo/demo signs in and is super administrator of every organisation; the other logins work', async () => {
    const info = await h.call<{
      accounts: Array<{ account: { id: number; name: string }; permission: number; admin: boolean }>;
    }>('GET', '/v3/userinfo', { token });
    assert.deepEqual(
      info.body.accounts.map((a) => [a.account.name, a.permission, a.admin]),
      [
        ['constructor', 16, true],
        ['con', 16, true],
      ],
    );
    assert.ok(await h.login('member'));
    assert.ok(await h.login('demo-2fa', 'demo', '123456'));
  });

  void test('organisations, their components and custom names carry payloads', async () => {
    const accounts = (
      await h.call<Array<{ name: string; friendlyName: string; domain: string }>>('GET', '/v3/accounts', { token })
    ).body;
    assert.deepEqual(
      accounts.map((a) => a.name),
      ['constructor', 'con'],
    );
    assertAllCarry(
      'organisation friendly name and domain',
      accounts.flatMap((a) => [a.friendlyName, a.domain]),
    );
    for (const id of [MAIN, SECOND]) {
      const components = (
        await h.call<Array<{ title: string; description: string }>>('GET', `/v3/accounts/${id}/components`, { token })
      ).body;
      assertAllCarry(
        'component title',
        components.map((c) => c.title),
      );
      assertEveryKind(
        `component titles and descriptions of ${id}`,
        components.flatMap((c) => [c.title, c.description]),
      );
      const custom = (await h.call<Record<string, string>>('GET', `/v2/accounts/${id}/custom`, { token })).body;
      assert.equal(Object.keys(custom).length, 11);
      assertAllCarry('custom component name', Object.values(custom));
      assertEveryKind(`custom names of ${id}`, Object.values(custom));
    }
  });

  void test('members: names, usernames where legal, e-mails, job titles and tags carry every payload', async () => {
    h.emu.clearFaults();
    const v2 = (await h.call<{ page: Member2[] }>('GET', `/v2/accounts/${MAIN}/members?size=100`, { token })).body.page;
    const users = v2.map((m) => m.user as Member2['user'] & Record<string, string | null>);
    assert.equal(users.length, 16 + FORMULA_NAMES.length);
    assertAllCarry(
      'member name',
      users.map((u) => u.name),
    );
    for (const field of ['name', 'email', 'jobTitle', 'organisation', 'address', 'telephone'] as const) {
      assertAllCarry(
        `member ${field}`,
        users.map((u) => u[field] ?? null),
      );
      assertEveryKind(
        `member ${field}s`,
        users.map((u) => u[field] ?? ''),
      );
    }
    for (const kind of PAYLOAD_KINDS)
      assert.ok(
        users.some((u) => u.name.includes(HOSTILE_PAYLOADS[kind])),
        `a member named with ${kind}`,
      );
    const usernames = users.map((u) => u.username);
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'CON'])
      assert.ok(usernames.includes(name), name);
    for (const name of FORMULA_NAMES)
      assert.ok(
        users.some((u) => u.name.startsWith(`${name} `)),
        `a member named ${JSON.stringify(name)}`,
      );
    const tags = (await h.call<string[]>('GET', `/v3/accounts/${MAIN}/member-tags`, { token })).body;
    assertAllCarry('tag', tags);
    assertEveryKind('tags', tags);
  });

  void test('a tag of markup, escaped in the path, finds exactly the members who carry it', async () => {
    h.emu.clearFaults();
    const all = (await h.call<Envelope3<Member3>>('GET', `/v3/accounts/${MAIN}/members?size=100`, { token })).body
      .items;
    for (const tag of [HOSTILE_PAYLOADS.htmlImg, HOSTILE_PAYLOADS.script]) {
      const expected = all.filter((m) => m.tags.includes(tag)).map((m) => m.user.username);
      assert.ok(expected.length > 0, `someone is tagged ${tag}`);
      const found = await h.call<Envelope3<Member3>>(
        'GET',
        `/v3/accounts/${MAIN}/member-tags/${encodeURIComponent(tag)}?size=100`,
        { token },
      );
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(found.body.items.map((m) => m.user.username).sort(), expected.sort(), tag);
    }
    const htmlImg = all.find((m) => m.user.username === 'payload.htmlimg');
    assert.ok(htmlImg, 'the member payload.htmlimg');
    assert.ok(htmlImg.user.name.startsWith(`htmlImg ${HOSTILE_PAYLOADS.htmlImg}`), 'a member named with markup');
    assert.ok(htmlImg.tags.includes(HOSTILE_PAYLOADS.htmlImg), 'and tagged with it');
  });

  void test('groups: `constructor`, `..` and the other hostile names exist; friendly names carry every payload', async () => {
    for (const name of [
      'constructor',
      '..',
      '__proto__',
      'toString',
      '.',
      'CON',
      HOSTILE_PAYLOADS.commandRun,
      HOSTILE_PAYLOADS.icons,
    ])
      groupId(name);
    // The `.git` group's friendly name is its trap: downloaded whole, the group's folder is named by it.
    assertAllCarry(
      'group friendly name',
      groups.filter((g) => g.name !== TOOL_FOLDER_GROUP).map((g) => g.friendlyName),
    );
    assertEveryKind(
      'group friendly names',
      groups.map((g) => g.friendlyName),
    );
    const d = await h.call<Member2>('GET', `/v2/accounts/${MAIN}/members/member`, { token });
    assert.ok(
      Object.hasOwn(d.body.groups ?? {}, '__proto__'),
      'a group named __proto__ is an own key of the groups map',
    );
    assert.ok(Object.hasOwn(d.body.groups ?? {}, 'constructor'));
    const one = await h.call<Group2>('GET', `/v2/accounts/${MAIN}/groups/${groupId('..')}`, { token });
    assert.equal(one.body.name, '..');
  });

  void test('files: a hostile folder tree, every hostile name, payload names, descriptions and tags, small downloadable bytes', async () => {
    const files = await allFiles(h, token, MAIN, groupId('constructor'));
    const names = files.map((f) => f.name);
    assert.deepEqual(
      files.filter((f) => typeof f.contentType !== 'string').map((f) => f.name),
      [],
      'every record has a content type, whatever its name',
    );
    for (const name of HOSTILE_NAMES) assert.ok(names.includes(name), `a record named ${JSON.stringify(name)}`);
    assert.equal(Buffer.byteLength(LONG_NAME, 'utf8'), 300);
    const folders = files.filter((f) => f.contentType === '@folder');
    for (const name of ['..', '.', 'CON', HOSTILE_PAYLOADS.commandRun, HOSTILE_PAYLOADS.htmlImg])
      assert.ok(
        folders.some((f) => f.name === name),
        `folder ${name}`,
      );
    const dot = folders.find((f) => f.name === '.');
    assert.equal(files.find((f) => f.id === dot?.parent)?.name, '..', 'folder . sits inside folder ..');
    assertEveryKind('file names', names);
    assertAllCarry('file name', names);

    let downloaded = 0;
    const details: File2[] = [];
    for (const f of files) {
      const detail = await h.call<File2>('GET', `/v2/accounts/${MAIN}/groups/${groupId('constructor')}/files/${f.id}`, {
        token,
      });
      details.push(detail.body);
      if (f.contentType === '@folder') continue;
      const res = await fetch(`${h.url}/v3/groups/${groupId('constructor')}/files/${f.id}/download`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal(res.status, 200);
      const bytes = Buffer.from(await res.arrayBuffer());
      assert.equal(bytes.length, f.size);
      assert.ok(bytes.length > 0 && bytes.length < 1024, `${f.name}: ${bytes.length} bytes`);
      assert.match(bytes.toString('utf8'), /^Hostile file /);
      downloaded++;
    }
    assert.ok(downloaded >= 15, `${downloaded} files`);
    assertAllCarry(
      'file description',
      details.map((d) => d.description),
    );
    assertEveryKind(
      'file descriptions and tags',
      details.flatMap((d) => [d.description ?? '', d.tags ?? '']),
    );
    const dotDot = await allFiles(h, token, MAIN, groupId('..'));
    assert.deepEqual(dotDot.map((f) => f.name).sort(), ['.', '..', 'constructor']);
  });

  void test('group `.git` is a working Git folder and holds another, a .VSCODE/tasks.json and their look-alikes', async () => {
    const g = groups.find((x) => x.name === TOOL_FOLDER_GROUP);
    assert.equal(g?.friendlyName, TOOL_FOLDER_GROUP);
    const files = await allFiles(h, token, MAIN, groupId(TOOL_FOLDER_GROUP));
    const byId = new Map(files.map((f) => [f.id, f]));
    const pathOf = (f: File2): string => {
      const parent = f.parent ? byId.get(f.parent) : undefined;
      return parent ? `${pathOf(parent)}/${f.name}` : f.name;
    };
    const paths = files.map(pathOf).sort();
    for (const p of [
      'config',
      'HEAD',
      'objects/README',
      'refs/README',
      'project/.git/config',
      'project/.git/HEAD',
      'project/.VSCODE/tasks.json',
      'project/.Git./config',
      'project/.vscode /tasks.json',
      'project/GIT~1/config',
      'project/vscode~2/settings.json',
      'project/linked/.git',
    ])
      assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
    const text = async (p: string): Promise<string> => {
      const f = files.find((x) => pathOf(x) === p);
      const res = await fetch(`${h.url}/v3/groups/${groupId(TOOL_FOLDER_GROUP)}/files/${f?.id}/download`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      return res.text();
    };
    assert.equal(await text('project/.git/config'), GIT_CONFIG_TRAP);
    assert.match(GIT_CONFIG_TRAP, /fsmonitor = /);
    assert.equal(await text('project/.VSCODE/tasks.json'), TASKS_TRAP);
    assert.match(TASKS_TRAP, /"runOn": "folderOpen"/);
  });

  void test('two applications with hostile names and client ids; every field carries a payload', async () => {
    const apps = (await h.call<App3[]>('GET', '/v3/applications', { token })).body;
    assert.equal(apps.length, 2);
    assert.deepEqual(apps.map((a) => a.clientId).sort(), ['__proto__', 'constructor']);
    const fields = apps.flatMap((a) =>
      [a.name, a.description, a.deviceModel, a.deviceOs, a.appVersion, a.bundleId].map(String),
    );
    assertAllCarry('application field', fields);
    assertEveryKind('application fields', fields);
    const one = await h.call<App3>('GET', '/v3/applications/constructor', { token });
    assert.equal(one.status, 200);
    assert.ok(kindsIn(one.body.name).includes('commandRun'));
  });

  void test('errors carry a command link: changing or deleting trap.member, saving the icon group, changing application __proto__', async () => {
    const member = `/accounts/${MAIN}/members/trap.member`;
    for (const [method, path, body] of [
      ['DELETE', `/v3${member}`],
      ['PATCH', `/v3${member}`, { tags: [] }],
      ['DELETE', `/v2${member}`],
      ['POST', `/v2${member}`, {}],
      ['PATCH', '/v3/applications/__proto__', { name: 'x' }],
    ] as const) {
      const res = await h.call<{ message: string }>(method, path, { token, ...(body ? { body } : {}) });
      assertError(res, 403, 'forbidden');
      assert.equal(res.body.message, ERROR_WITH_LINK, `${method} ${path}`);
    }
    const save = await h.call<{ message: string }>(
      'POST',
      `/v2/accounts/${MAIN}/groups/${groupId(HOSTILE_PAYLOADS.icons)}`,
      { token, body: { friendlyName: 'x' } },
    );
    assertError(save, 409, 'conflict');
    assert.equal(save.body.message, CONFLICT_WITH_LINK);
    assert.equal(
      (await h.call('GET', `/v3${member}`, { token })).status,
      200,
      'nothing changed: the member is still there',
    );
    assert.equal(
      (
        await h.call('POST', `/v2/accounts/${MAIN}/groups/${groupId('constructor')}`, {
          token,
          body: { friendlyName: 'Saved' },
        })
      ).status,
      200,
      'other saves work',
    );
    assert.equal(
      (await h.call('PATCH', '/v3/applications/constructor', { token, body: { description: 'changed' } })).status,
      200,
    );
    const forbidden = await h.call<{ message: string }>('PATCH', `/v3/accounts/${MAIN}`, {
      token: await h.login('member'),
      body: { friendlyName: 'x' },
    });
    assertError(forbidden, 403, 'forbidden');
    assert.match(forbidden.body.message, /of constructor/, 'ordinary errors name hostile things too');
  });

  void test('the members list of the second organisation answers ten times the rows asked for; the first does not', async () => {
    const big = await h.call<Envelope3<Member3>>('GET', `/v3/accounts/${SECOND}/members?size=5`, { token });
    assert.equal(big.body.items.length, 50);
    assert.equal(big.body.pageSize, 5);
    assert.equal(new Set(big.body.items.map((m) => m.user.id)).size, 50);
    const whole = await h.call<Envelope3<Member3>>('GET', `/v3/accounts/${SECOND}/members`, { token });
    assert.equal(whole.body.items.length, 200, 'the default size of 20, ten times');
    const normal = await h.call<Envelope3<Member3>>('GET', `/v3/accounts/${MAIN}/members?size=2`, { token });
    assert.equal(normal.body.items.length, 2);
  });
});

void describe('hostile seed with the literal profile, after a reset', () => {
  void test('a reset to the hostile seed restores it; a trapped error comes as plain text carrying the link', async () => {
    const h = await startHarness({ profile: 'literal' });
    try {
      assert.equal((await h.control('POST', '/reset', { seed: 'hostile' })).status, 200);
      const token = await h.login();
      const res = await h.call('DELETE', `/v3/accounts/${MAIN}/members/trap.member`, { token });
      assert.equal(res.status, 403);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      assert.ok(res.text.includes(ERROR_WITH_LINK));
      const deleted = await h.call('DELETE', `/v3/accounts/${MAIN}/members/payload.icons`, { token });
      assert.equal(deleted.status, 200, 'members without a trap can be deleted');
    } finally {
      await h.stop();
    }
  });
});

void describe('hostile seed in a data file', () => {
  void test('its traps and oversized list survive a restart from the file', async () => {
    const dir = tempDir('emu-hostile-');
    try {
      const dataFile = join(dir, 'state.json');
      const first = await startHarness({ seed: 'hostile', dataFile });
      await first.stop();
      const again = await startHarness({ seed: 'demo', dataFile });
      try {
        const token = await again.login();
        const res = await again.call<{ message: string }>('DELETE', `/v3/accounts/${MAIN}/members/trap.member`, {
          token,
        });
        assertError(res, 403, 'forbidden');
        assert.equal(res.body.message, ERROR_WITH_LINK);
        const big = await again.call<Envelope3<Member3>>('GET', `/v3/accounts/${SECOND}/members?size=2`, { token });
        assert.equal(big.body.items.length, 20);
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
