// Guest shares, invitations and the sign-in audit: observed endpoints, capability checks, faults, the literal profile
// and the large seed's generated rows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEMO,
  assertError,
  fieldsOf,
  startHarness,
  type Envelope3 as Envelope,
  type Obj,
  demoAndMemberSuite,
} from '../helpers';

interface Share {
  user: Obj | null;
  contentContext: Obj;
  dateCreated: number;
  dateExpire: number | null;
  email: string;
  permission: number;
  passwordEnabled: boolean;
  notifications: boolean;
  component: string;
}
interface Invite {
  id: number;
  targetName: string;
  type: string;
  parameters: string;
  request: { status: string };
  dateCreated: number;
}

const SHARE_FIELDS = [
  'component',
  'contentContext',
  'dateCreated',
  'dateExpire',
  'email',
  'notifications',
  'passwordEnabled',
  'permission',
  'user',
];
const invitesOf = (account: number): string => `/v3/accounts/${account}/invites`;
const inviteBody = (
  targetName: string,
  parameters: unknown = { mask: 1, groups: { [DEMO.engineering]: 4 }, extras: {} },
) => ({
  targetName,
  type: 'ACCEPT_DECLINE',
  parameters: typeof parameters === 'string' ? parameters : JSON.stringify(parameters),
});

void describe('observed access endpoints: guest shares, invitations, audit', () => {
  const s = demoAndMemberSuite();

  void test('GET /v3/shares answers the observed fields in a v3 envelope: no expiry, expired, no password, one that edits', async () => {
    const res = await s.h.call<Envelope<Share>>('GET', '/v3/shares', { token: s.demo });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.totalResults, 4);
    assert.equal(res.body.nextPage, false);
    for (const s of res.body.items) assert.deepEqual(Object.keys(s).sort(), SHARE_FIELDS);
    const shares = res.body.items;
    assert.ok(
      shares.some((s) => s.dateExpire === null),
      'one never expires',
    );
    assert.ok(
      shares.some((s) => s.dateExpire !== null && s.dateExpire < Date.now()),
      'one has expired',
    );
    assert.ok(
      shares.some((s) => s.dateExpire !== null && s.dateExpire > Date.now()),
      'one expires later',
    );
    assert.ok(
      shares.some((s) => !s.passwordEnabled),
      'one has no password',
    );
    assert.equal(shares.filter((s) => s.permission === 4).length, 1, 'exactly one can edit');
    assert.equal(shares[0]?.component, 'files');
  });

  void test('GET /v3/shares pages by page and size', async () => {
    const first = await s.h.call<Envelope<Share>>('GET', '/v3/shares?page=1&size=3', { token: s.demo });
    const second = await s.h.call<Envelope<Share>>('GET', '/v3/shares?page=2&size=3', { token: s.demo });
    assert.equal(first.body.items.length, 3);
    assert.equal(first.body.nextPage, true);
    assert.equal(second.body.items.length, 1);
    assert.equal(second.body.nextPage, false);
  });

  void test('shares, invitations and the audit answer 403 without the capability', async () => {
    // A regular member holds none of GUESTS, INVITES or AUDIT.
    assertError(await s.h.call('GET', '/v3/shares', { token: s.member }), 403, 'forbidden');
    assertError(await s.h.call('GET', invitesOf(DEMO.acme), { token: s.member }), 403, 'forbidden');
    assertError(
      await s.h.call('POST', invitesOf(DEMO.acme), { token: s.member, body: inviteBody('x@acme.example') }),
      403,
      'forbidden',
    );
    assertError(
      await s.h.call('GET', `/v3/audit?account=${DEMO.acme}&dateStart=2020-01-01&events=login,signup`, {
        token: s.member,
      }),
      403,
      'forbidden',
    );
    // Globex's package withholds them from everyone, its super administrator too, and userinfo says so.
    assertError(await s.h.call('GET', invitesOf(DEMO.globex), { token: s.demo }), 403, 'forbidden');
    assertError(
      await s.h.call('GET', `/v3/audit?account=${DEMO.globex}&dateStart=2020-01-01&events=login`, { token: s.demo }),
      403,
      'forbidden',
    );
    const info = await s.h.call<{ accounts: Array<{ account: { id: number }; capabilities: string[] }> }>(
      'GET',
      '/v3/userinfo',
      { token: s.demo },
    );
    const caps = (id: number) => info.body.accounts.find((a) => a.account.id === id)?.capabilities ?? [];
    assert.ok(caps(DEMO.acme).includes('GUESTS') && caps(DEMO.acme).includes('AUDIT'));
    assert.ok(!caps(DEMO.globex).includes('INVITES') && !caps(DEMO.globex).includes('AUDIT'));
    assert.ok(caps(DEMO.globex).includes('MEMBERS'));
  });

  void test('GET invites lists pending (request.status NONE) and answered invitations with their parameters text', async () => {
    const res = await s.h.call<Envelope<Invite>>('GET', invitesOf(DEMO.acme), { token: s.demo });
    assert.equal(res.status, 200, res.text);
    const pending = res.body.items.filter((i) => i.request.status === 'NONE');
    assert.equal(pending.length, 2);
    assert.equal(res.body.items.length, 3);
    const first = pending[0];
    assert.ok(first);
    assert.equal(first.type, 'ACCEPT_DECLINE');
    const params = JSON.parse(first.parameters) as { mask: number; groups: Record<string, number>; extras: Obj };
    assert.equal(params.mask, 1);
    assert.equal(params.groups[String(DEMO.engineering)], 4);
    assert.deepEqual(params.extras, {});
  });

  void test('POST invites makes a pending invitation; a second to the same address is 409, bad parameters 400', async () => {
    const made = await s.h.call<Invite>('POST', invitesOf(DEMO.acme), {
      token: s.demo,
      body: inviteBody('Fresh@Acme.example'),
    });
    assert.equal(made.status, 200, made.text);
    assert.equal(made.body.request.status, 'NONE');
    assert.equal(made.body.targetName, 'Fresh@Acme.example');
    const listed = await s.h.call<Envelope<Invite>>('GET', invitesOf(DEMO.acme), { token: s.demo });
    assert.ok(listed.body.items.some((i) => i.id === made.body.id));
    assertError(
      await s.h.call('POST', invitesOf(DEMO.acme), { token: s.demo, body: inviteBody('fresh@acme.example') }),
      409,
      'conflict',
    );
    const bad = await s.h.call('POST', invitesOf(DEMO.acme), {
      token: s.demo,
      body: inviteBody('other@acme.example', { mask: 3, groups: { [DEMO.research]: 4 } }),
    });
    assertError(bad, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(bad).sort(), [`parameters.groups.${DEMO.research}`, 'parameters.mask']);
    const notJson = await s.h.call('POST', invitesOf(DEMO.acme), {
      token: s.demo,
      body: inviteBody('o@acme.example', '{'),
    });
    assertError(notJson, 400, 'invalid_input');
    assert.deepEqual(fieldsOf(notJson), ['parameters']);
  });

  void test('GET /v3/audit answers events of the organisation from dateStart, newest first, filtered by events', async () => {
    const all = await s.h.call<Envelope<{ event: string; date: number }>>(
      'GET',
      `/v3/audit?account=${DEMO.acme}&dateStart=2000-01-01&events=login,signup&size=100`,
      { token: s.demo },
    );
    assert.equal(all.status, 200, all.text);
    const events = all.body.items;
    assert.ok(events.length >= 5);
    assert.ok(events.some((e) => e.event === 'signup'));
    assert.deepEqual(
      events.map((e) => e.date),
      [...events.map((e) => e.date)].sort((a, b) => b - a),
    );
    const logins = await s.h.call<Envelope<{ event: string }>>(
      'GET',
      `/v3/audit?account=${DEMO.acme}&dateStart=2000-01-01&events=login&size=100`,
      { token: s.demo },
    );
    assert.ok(logins.body.items.length > 0 && logins.body.items.every((e) => e.event === 'login'));
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const none = await s.h.call<Envelope<unknown>>('GET', `/v3/audit?account=${DEMO.acme}&dateStart=${tomorrow}`, {
      token: s.demo,
    });
    assert.equal(none.body.items.length, 0);
    assertError(
      await s.h.call('GET', `/v3/audit?account=${DEMO.acme}&dateStart=15/01/2025`, { token: s.demo }),
      400,
      'invalid_input',
    );
    assertError(await s.h.call('GET', `/v3/audit?dateStart=2025-01-01`, { token: s.demo }), 400, 'invalid_input');
    assertError(
      await s.h.call('GET', `/v3/audit?account=999&dateStart=2025-01-01`, { token: s.demo }),
      404,
      'not_found',
    );
  });

  void test('faults: a 429 and a slow audit read come from the fault rules, scoped by path', async () => {
    await s.h.control('POST', '/faults', {
      rules: [{ kind: 'rate-limit', path: '/v3/shares', count: 1, retryAfterSeconds: 2 }],
    });
    const limited = await s.h.call('GET', '/v3/shares', { token: s.demo });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '2');
    assert.equal((await s.h.call('GET', '/v3/shares', { token: s.demo })).status, 200);
    // A slow audit read: the answer's body is spread over the delay, and still arrives whole.
    await s.h.control('POST', '/faults', { rules: [{ kind: 'slow-body', path: '/v3/audit', count: 1, delayMs: 200 }] });
    const slow = await s.h.call<Envelope<unknown>>('GET', `/v3/audit?account=${DEMO.acme}&dateStart=2000-01-01`, {
      token: s.demo,
    });
    assert.equal(slow.status, 200);
    assert.ok(slow.body.items.length > 0);
    const left = await s.h.control<{ rules: unknown[] }>('GET', '/faults');
    assert.deepEqual(left.body.rules, [], 'the slow read fired on the audit path');
  });
});

void describe('observed access endpoints on the literal profile and the large seed', () => {
  void test('a literal portal answers all four 404, like any unknown path', async () => {
    const h = await startHarness({ profile: 'literal' });
    try {
      const demo = await h.login();
      for (const [method, path] of [
        ['GET', '/v3/shares'],
        ['GET', invitesOf(DEMO.acme)],
        ['POST', invitesOf(DEMO.acme)],
        ['GET', `/v3/audit?account=${DEMO.acme}&dateStart=2025-01-01&events=login,signup`],
      ] as const) {
        const res = await h.call(method, path, {
          token: demo,
          ...(method === 'POST' ? { body: inviteBody('a@b.example') } : {}),
        });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      }
    } finally {
      await h.stop();
    }
  });

  void test('the large seed takes 5,000 guest shares and 500 invitations, the same on every build', async () => {
    const large = { members: 10, files: 50, groups: 5, folderDepth: 1, guestShares: 5000, invites: 500 };
    const totals = async (): Promise<[number, number, string]> => {
      const h = await startHarness({ seed: 'large', large, rateLimit: { count: 0, windowSeconds: 300 } });
      try {
        const demo = await h.login();
        const shares = await h.call<Envelope<Share>>('GET', '/v3/shares?size=100&page=37', { token: demo });
        const invites = await h.call<Envelope<Invite>>('GET', `${invitesOf(1)}?size=100`, { token: demo });
        return [shares.body.totalResults, invites.body.totalResults, JSON.stringify(shares.body.items)];
      } finally {
        await h.stop();
      }
    };
    const [shares, invites, page] = await totals();
    assert.equal(shares, 5000);
    assert.equal(invites, 500);
    const [, , again] = await totals();
    assert.equal(again, page, 'deterministic');
  });

  void test('the large seed has no guest shares or invitations unless asked', async () => {
    const h = await startHarness({ seed: 'large', large: { members: 5, files: 5, groups: 2, folderDepth: 1 } });
    try {
      const demo = await h.login();
      const shares = await h.call<Envelope<Share>>('GET', '/v3/shares', { token: demo });
      assert.equal(shares.body.totalResults, 0);
    } finally {
      await h.stop();
    }
  });
});
