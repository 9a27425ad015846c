import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RouteId } from '../../emulator';
import { assertError, DEMO, startHarness, type App3, type FilePage, type Harness, type Res } from './helpers';
import { testClock } from '../../support/clock';

const tokenQuery = (q: Record<string, string>): string => `/oauth/token?${new URLSearchParams(q)}`;
const password = (username = 'demo'): Record<string, string> => ({
  grant_type: 'password',
  client_id: 'portal-mobile',
  username,
  password: 'demo',
});

function assertShape(res: Res<unknown>, status: number, shape: 'empty' | 'text' | 'html' | 'json'): void {
  assert.equal(res.status, status, res.text);
  const type = res.headers.get('content-type');
  switch (shape) {
    case 'empty':
      assert.equal(res.text, '');
      assert.equal(type, null);
      break;
    case 'text':
      assert.match(type ?? '', /^text\/plain/);
      assert.ok(res.text.length > 0);
      assert.equal(res.body, undefined, 'not JSON');
      break;
    case 'html':
      assert.match(type ?? '', /^text\/html/);
      assert.match(res.text, /<title>[^<]+<\/title>/);
      break;
    case 'json':
      assert.match(type ?? '', /^application\/json/);
      assert.equal(typeof (res.body as { message?: unknown }).message, 'string');
  }
}

void describe('literal profile', () => {
  let lit: Harness;
  let def: Harness;
  let token: string;
  let defToken: string;
  before(async () => {
    [lit, def] = await Promise.all([startHarness({ profile: 'literal' }), startHarness()]);
    [token, defToken] = await Promise.all([lit.login(), def.login()]);
  });
  after(() => Promise.all([lit.stop(), def.stop()]));

  void test('the profile is readable in-process and through the control endpoint', async () => {
    assert.equal(lit.emu.profile, 'literal');
    assert.equal(def.emu.profile, 'default');
    assert.deepEqual(lit.emu.missingReads, ['v3.application.get', 'v2.file.get']);
    assert.deepEqual(def.emu.missingReads, []);
    const res = await lit.control<{ profile: string; missingReads: string[]; seed: string }>('GET', '/profile');
    assert.deepEqual(res.body, {
      profile: 'literal',
      missingReads: ['v3.application.get', 'v2.file.get'],
      seed: 'demo',
    });
  });

  void test('lists the spec gives as plain arrays ignore page and size and return everything', async () => {
    const lists = [
      '/v3/applications',
      '/v3/accounts',
      `/v3/accounts/${DEMO.acme}/components`,
      `/v3/accounts/${DEMO.acme}/member-tags`,
      `/v3/accounts/${DEMO.acme}/member-tags?summary`,
      '/v2/accounts',
      `/v2/accounts/${DEMO.acme}/groups`,
    ];
    for (const path of lists) {
      const sep = path.includes('?') ? '&' : '?';
      const whole = await lit.call<unknown[]>('GET', path, { token });
      assert.ok(whole.body.length >= 2, `${path} has at least two rows`);
      const paged = await lit.call<unknown[]>('GET', `${path}${sep}page=2&size=1`, { token });
      assert.deepEqual(paged.body, whole.body, `${path} ignores page and size`);
      const nonsense = await lit.call<unknown[]>('GET', `${path}${sep}page=0&size=x`, { token });
      assert.deepEqual(nonsense.body, whole.body, `${path} does not even read them`);
      const sliced = await def.call<unknown[]>('GET', `${path}${sep}page=2&size=1`, { token: defToken });
      assert.equal(sliced.body.length, 1, `the default profile slices ${path}`);
    }
  });

  void test('the token endpoint takes GET only: POST is 405 with an empty body', async () => {
    const form = new URLSearchParams(password()).toString();
    const post = await lit.call('POST', '/oauth/token', {
      rawBody: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assertShape(post, 405, 'empty');
    assert.equal(post.headers.get('allow'), 'GET');
    const postQuery = await lit.call('POST', tokenQuery(password()));
    assert.equal(postQuery.status, 405, 'not even with the parameters in the query');
    const viaDefault = await def.call('POST', '/oauth/token', {
      rawBody: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(viaDefault.status, 200, 'the default profile still takes POST');
  });

  void test('password, client-credentials and refresh grants all work through GET', async () => {
    const pw = await lit.call<{ access_token: string; refresh_token: string }>('GET', tokenQuery(password()));
    assert.equal(pw.status, 200);
    const refreshed = await lit.call<{ access_token: string }>(
      'GET',
      tokenQuery({ grant_type: 'refresh_token', client_id: 'portal-mobile', refresh_token: pw.body.refresh_token }),
    );
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal((await lit.call('GET', '/v3/userinfo', { token: refreshed.body.access_token })).status, 200);
    const app = await lit.call<App3>('POST', '/v3/applications', { token, body: { name: 'literal client' } });
    assert.equal(app.status, 201);
    const cc = await lit.call<{ access_token: string; refresh_token: string }>(
      'GET',
      tokenQuery({
        grant_type: 'client_credentials',
        client_id: app.body.clientId,
        client_secret: app.body.clientSecret ?? '',
        scope: 'read write',
      }),
    );
    assert.equal(cc.status, 200, cc.text);
    const ccRefresh = await lit.call(
      'GET',
      tokenQuery({
        grant_type: 'refresh_token',
        client_id: app.body.clientId,
        client_secret: app.body.clientSecret ?? '',
        refresh_token: cc.body.refresh_token,
      }),
    );
    assert.equal(ccRefresh.status, 200, ccRefresh.text);
  });

  void test('the token endpoint keeps its OAuth JSON errors, so a client can ask for a two-factor code', async () => {
    const bad = await lit.call<{ error: string }>('GET', tokenQuery({ ...password(), password: 'wrong' }));
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'invalid_grant');
    const twoFa = await lit.call<{ error: string }>('GET', tokenQuery(password('demo-2fa')));
    assert.equal(twoFa.status, 400);
    assert.deepEqual(twoFa.body, { error: 'missing_2fa' });
  });

  void test('API errors come in fixed open shapes per status: 400 JSON, 401 empty, 403 text, 404 HTML, 409 text, 413 HTML', async () => {
    const invalid = await lit.call('POST', '/v3/applications', { token, body: { platform: 'AMIGA' } });
    assertShape(invalid, 400, 'json');
    assert.ok(
      ((invalid.body as { fieldErrors?: unknown[] }).fieldErrors ?? []).length > 0,
      '400 keeps its field errors',
    );

    const unauthorised = await lit.call('GET', '/v3/userinfo', { token: 'nonsense' });
    assertShape(unauthorised, 401, 'empty');
    assert.match(unauthorised.headers.get('www-authenticate') ?? '', /^Bearer/);

    const member = await lit.login('member');
    const forbidden = await lit.call('PATCH', `/v3/accounts/${DEMO.acme}/members/demo`, {
      token: member,
      body: { tags: [] },
    });
    assertShape(forbidden, 403, 'text');
    assert.match(forbidden.text, /super administrator/, 'the text carries the message');

    assertShape(await lit.call('GET', `/v2/accounts/${DEMO.acme}/groups/999`, { token }), 404, 'html');
    assertShape(await lit.call('GET', '/v3/no-such-route', { token }), 404, 'html');
    assertShape(
      await lit.call('POST', `/v2/accounts/${DEMO.acme}/groups`, { token, body: { name: 'engineering' } }),
      409,
      'text',
    );
    assertShape(
      await lit.call('POST', '/v3/applications', {
        token,
        rawBody: 'x'.repeat(1024 * 1024 + 1),
        headers: { 'Content-Type': 'application/json' },
      }),
      413,
      'html',
    );
  });

  void test('injected 500 is empty, 503 an HTML page, 429 plain text; the default profile keeps JSON', async () => {
    lit.emu.setFaults([
      { kind: 'status', status: 500, count: 1 },
      { kind: 'status', status: 503, retryAfterSeconds: 3, count: 1 },
      { kind: 'rate-limit', count: 1 },
    ]);
    assertShape(await lit.call('GET', '/v3/userinfo', { token }), 500, 'empty');
    const unavailable = await lit.call('GET', '/v3/userinfo', { token });
    assertShape(unavailable, 503, 'html');
    assert.equal(unavailable.headers.get('retry-after'), '3');
    const limited = await lit.call('GET', '/v3/userinfo', { token });
    assertShape(limited, 429, 'text');
    assert.equal(limited.headers.get('retry-after'), '1');
    def.emu.setFaults([{ kind: 'status', status: 500, count: 1 }]);
    assertError(await def.call('GET', '/v3/userinfo', { token: defToken }), 500, 'internal_error');
  });

  void test('recursive and the file-list parameters the spec does not name are ignored', async () => {
    const base = `/v2/accounts/${DEMO.acme}/groups/${DEMO.engineering}/files`;
    const root = await lit.call<FilePage>('GET', `${base}?size=100`, { token });
    for (const extra of [
      'recursive=true',
      'name=zzz-nothing',
      'orderBy=size&ascending=false',
      'foldersOnly=true',
      'modifiedAfter=99999999999999',
      'orderBy=bogus&ascending=maybe',
      'invented=1',
    ]) {
      const res = await lit.call<FilePage>('GET', `${base}?size=100&${extra}`, { token });
      assert.equal(res.status, 200, `${extra}: ${res.text}`);
      assert.deepEqual(
        res.body.page.map((f) => f.id),
        root.body.page.map((f) => f.id),
        `${extra} is ignored`,
      );
    }
    const recursive = await def.call<FilePage>('GET', `${base}?size=100&recursive=true`, { token: defToken });
    assert.ok(recursive.body.page.length > root.body.page.length, 'the default profile honours recursive');
    const paged = await lit.call<FilePage>('GET', `${base}?size=1&page=2`, { token });
    assert.deepEqual(
      paged.body.page.map((f) => f.id),
      [root.body.page[1]?.id],
      'page and size are named by the spec, and honoured',
    );
  });

  void test('the single application read and the single file record path are absent (404 HTML); the rest stays', async () => {
    const apps = await lit.call<App3[]>('GET', '/v3/applications', { token });
    const app = apps.body[0];
    assert.ok(app);
    assertShape(await lit.call('GET', `/v3/applications/${app.clientId}`, { token }), 404, 'html');
    const patched = await lit.call<App3>('PATCH', `/v3/applications/${app.clientId}`, {
      token,
      body: { description: 'still patchable' },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.description, 'still patchable');

    const files = await lit.call<FilePage>('GET', `/v2/accounts/${DEMO.acme}/groups/${DEMO.engineering}/files`, {
      token,
    });
    const file = files.body.page.find((f) => f.contentType !== '@folder');
    const folder = files.body.page.find((f) => f.contentType === '@folder');
    assert.ok(file && folder);
    assertShape(
      await lit.call('GET', `/v2/accounts/${DEMO.acme}/groups/${DEMO.engineering}/files/${file.id}`, { token }),
      404,
      'html',
    );
    assert.equal(
      (
        await lit.call('GET', `/v2/accounts/${DEMO.acme}/groups/${DEMO.engineering}/files/${folder.id}/children`, {
          token,
        })
      ).status,
      200,
    );
    const download = await lit.call('GET', `/v3/groups/${DEMO.engineering}/files/${file.id}/download`, { token });
    assert.equal(download.status, 200, 'the observed download route stays');
    assert.equal(
      (await def.call('GET', `/v3/applications/${app.clientId}`, { token: defToken })).status,
      200,
      'the default profile has the read (same seed, same id)',
    );
  });

  void test('a missing read counts as an unmatched request in the stats', async () => {
    lit.emu.resetStats();
    await lit.call('GET', `/v2/accounts/${DEMO.acme}/groups/${DEMO.engineering}/files/100001`, { token });
    const stats = lit.emu.stats();
    assert.equal(stats.byRoute['GET (unmatched)'], 1);
    assert.equal(stats.byRoute['GET /v2/accounts/:account/groups/:group/files/:file'], undefined);
  });
});

void describe('expires_in in minutes (literal profile)', () => {
  void test('expires_in is the lifetime in whole minutes, rounded up; the default gives seconds', async () => {
    for (const [seconds, minutes] of [
      [1800, 30],
      [90, 2],
      [20, 1],
    ] as const) {
      const lit = await startHarness({ profile: 'literal', tokenLifetimeSeconds: seconds });
      const def = await startHarness({ tokenLifetimeSeconds: seconds });
      try {
        const a = await lit.call<{ expires_in: number }>('GET', tokenQuery(password()));
        assert.equal(a.body.expires_in, minutes, `${seconds} s`);
        const b = await def.call<{ expires_in: number }>('GET', tokenQuery(password()));
        assert.equal(b.body.expires_in, seconds);
      } finally {
        await Promise.all([lit.stop(), def.stop()]);
      }
    }
  });

  void test('the token still lives tokenLifetimeSeconds, not expires_in minutes', async () => {
    const clock = testClock();
    const lit = await startHarness({ profile: 'literal', tokenLifetimeSeconds: 1, clock: clock.now });
    try {
      const res = await lit.call<{ access_token: string; expires_in: number }>('GET', tokenQuery(password()));
      assert.equal(res.body.expires_in, 1, 'one minute, says the answer');
      assert.equal((await lit.call('GET', '/v3/userinfo', { token: res.body.access_token })).status, 200);
      clock.advance(1000);
      assert.equal(
        (await lit.call('GET', '/v3/userinfo', { token: res.body.access_token })).status,
        401,
        'dead after one second',
      );
    } finally {
      await lit.stop();
    }
  });
});

void describe('missingReads (any profile)', () => {
  const reads: Array<[RouteId, (h: { acme: number; group: number; file: number; app: string }) => string]> = [
    ['v3.account.get', (x) => `/v3/accounts/${x.acme}`],
    ['v2.member.get', (x) => `/v2/accounts/${x.acme}/members/member`],
    ['v3.application.get', (x) => `/v3/applications/${x.app}`],
    ['v2.file.get', (x) => `/v2/accounts/${x.acme}/groups/${x.group}/files/${x.file}`],
    ['v2.organisation.get', (x) => `/v2/accounts/${x.acme}`],
    ['v2.custom', (x) => `/v2/accounts/${x.acme}/custom`],
  ];

  void test('each named read answers 404 like an unknown path; everything else still answers', async () => {
    const h = await startHarness({ missingReads: reads.map(([id]) => id) });
    try {
      const token = await h.login();
      const app = (await h.call<App3[]>('GET', '/v3/applications', { token })).body[0]?.clientId ?? '';
      const ids = { acme: DEMO.acme, group: DEMO.engineering, file: 100001, app };
      for (const [, path] of reads) assertError(await h.call('GET', path(ids), { token }), 404, 'not_found');
      assert.deepEqual([...h.emu.missingReads].sort(), reads.map(([id]) => id).sort());
      for (const path of [
        '/v3/accounts',
        `/v3/accounts/${DEMO.acme}/members/member`,
        `/v2/accounts/${DEMO.acme}/groups/${DEMO.engineering}`,
        `/v2/accounts/${DEMO.acme}/members`,
      ]) {
        assert.equal((await h.call('GET', path, { token })).status, 200, path);
      }
      assert.equal(
        (await h.call('PATCH', `/v3/accounts/${DEMO.acme}`, { token, body: { friendlyName: 'Acme' } })).status,
        200,
        'the update of a missing read stays',
      );
    } finally {
      await h.stop();
    }
  });

  void test('with the literal profile they add to its own, and answer in its 404 shape', async () => {
    const h = await startHarness({ profile: 'literal', missingReads: ['v2.member.get'] });
    try {
      const token = await h.login();
      assert.deepEqual(h.emu.missingReads, ['v3.application.get', 'v2.member.get', 'v2.file.get']);
      assertShape(await h.call('GET', `/v2/accounts/${DEMO.acme}/members/member`, { token }), 404, 'html');
    } finally {
      await h.stop();
    }
  });

  void test('an unknown route id or profile is refused at start', async () => {
    await assert.rejects(startEmulator({ quiet: true, missingReads: ['v9.nothing' as RouteId] }), /v9\.nothing/);
    await assert.rejects(startEmulator({ quiet: true, profile: 'strict' as 'literal' }), /profile/);
  });
});

void describe('ignore-writes fault: accepted but not applied', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness();
    token = await h.login();
  });
  after(() => h.stop());

  void test('a PATCH answers 200 with the old object and changes nothing', async () => {
    h.emu.setFaults([{ kind: 'ignore-writes', path: `/v3/accounts/${DEMO.acme}`, method: 'PATCH' }]);
    const res = await h.call<{ friendlyName: string }>('PATCH', `/v3/accounts/${DEMO.acme}`, {
      token,
      body: { friendlyName: 'Renamed' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.friendlyName, 'Acme Corporation');
    const tags = await h.call<{ tags: string[] }>('PATCH', `/v3/accounts/${DEMO.acme}/members/member`, {
      token,
      body: { tags: ['ignored'] },
    });
    assert.equal(tags.status, 200);
    assert.deepEqual(tags.body.tags, ['new-hire', 'frontend']);
    h.emu.clearFaults();
    assert.equal(
      (await h.call<{ friendlyName: string }>('GET', `/v3/accounts/${DEMO.acme}`, { token })).body.friendlyName,
      'Acme Corporation',
    );
    assert.deepEqual(
      (await h.call<{ tags: string[] }>('GET', `/v3/accounts/${DEMO.acme}/members/member`, { token })).body.tags,
      ['new-hire', 'frontend'],
    );
  });

  void test('a v2 group save (POST) and a DELETE are ignored too; reads are untouched and do not use up the count', async () => {
    h.emu.setFaults([{ kind: 'ignore-writes', path: `/v2/accounts/${DEMO.acme}/`, count: 2 }]);
    const group = await h.call<{ friendlyName: string }>('GET', `/v2/accounts/${DEMO.acme}/groups/${DEMO.marketing}`, {
      token,
    });
    assert.equal(group.status, 200);
    const saved = await h.call<{ friendlyName: string; id: number }>(
      'POST',
      `/v2/accounts/${DEMO.acme}/groups/${DEMO.marketing}`,
      { token, body: { friendlyName: 'Not applied' } },
    );
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body, group.body, 'the answer is the old group');
    const removed = await h.call<{ user: { username: string } }>('DELETE', `/v2/accounts/${DEMO.acme}/members/member`, {
      token,
    });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.user.username, 'member', 'the old member comes back');
    assert.equal(
      (await h.call('GET', `/v2/accounts/${DEMO.acme}/members/member`, { token })).status,
      200,
      'still a member',
    );
    assert.deepEqual(h.emu.stats().byRoute['GET /v2/accounts/:account/groups/:group'], 1);
    const renamed = await h.call<{ friendlyName: string }>(
      'POST',
      `/v2/accounts/${DEMO.acme}/groups/${DEMO.marketing}`,
      { token, body: { friendlyName: 'Applied' } },
    );
    assert.equal(renamed.body.friendlyName, 'Applied', 'count 2 was used up by the two writes');
  });
});
