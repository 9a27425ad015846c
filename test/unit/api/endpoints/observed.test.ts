// Guest shares, invitations and the sign-in audit through the client, against the emulator on both profiles: parsed
// at the edge, paged within the budget, and 'not-offered' (said once, typed) where a portal refuses them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAuditAnswer, parseGuestShare, parseInvitation, parseSignInPage, type Offered } from '../../../../src/api';
import { accountId, emulator, groupId, passwordClient, signedInSuite } from '../helpers';

function value<T>(o: Offered<T>): T {
  assert.equal(o.kind, 'offered', JSON.stringify(o));
  if (o.kind !== 'offered') throw new Error('not offered');
  return o.value;
}

void describe('observed access endpoints through the client (default profile)', () => {
  const s = signedInSuite(async ({ t }) => ({ globex: await accountId(t.client, 'globex') }));

  void test('guest shares are parsed: e-mail, content mask, dates, password; contentContext kept as sent', async () => {
    const shares = value(await s.t.client.observed.guestShares());
    assert.equal(shares.length, 4);
    const editor = shares.find((s) => s.permission === 4);
    assert.equal(editor?.email, 'contractor@devshop.example');
    assert.equal(editor?.dateExpire, null);
    assert.equal(editor?.passwordEnabled, false);
    assert.ok(shares.some((s) => s.dateExpire !== null && s.dateExpire < Date.now()));
    // The shape of contentContext is not observed: it is text of what was sent, never read further.
    assert.equal(typeof editor?.contentContext, 'string');
    assert.match(editor?.contentContext ?? '', /architecture\.md/);
  });

  void test('invitations: pending from request.status NONE, mask and groups from the parameters text', async () => {
    const invites = value(await s.t.client.observed.invitations(s.acme));
    assert.equal(invites.length, 3);
    const pending = invites.filter((i) => i.pending);
    assert.deepEqual(pending.map((i) => i.targetName).sort(), [
      'board.observer@acme.example',
      'new.starter@acme.example',
    ]);
    const starter = pending.find((i) => i.targetName === 'new.starter@acme.example');
    assert.equal(starter?.parameters?.mask, 1);
    const engineering = await groupId(s.t.client, s.acme, 'engineering');
    assert.deepEqual(starter?.parameters?.groups.find((g) => g.groupId === String(engineering))?.permission, 4);
    assert.equal(invites.find((i) => !i.pending)?.status, 'ACCEPTED');
  });

  void test('invite sends the observed body and the new invitation lists as pending', async () => {
    const engineering = await groupId(s.t.client, s.acme, 'engineering');
    const made = value(
      await s.t.client.observed.invite(s.acme, {
        targetName: 'client.test@acme.example',
        mask: 1,
        groups: { [engineering]: 1 },
      }),
    );
    assert.equal(made.pending, true);
    assert.equal(made.parameters?.mask, 1);
    const listed = value(await s.t.client.observed.invitations(s.acme));
    assert.ok(listed.some((i) => i.targetName === 'client.test@acme.example' && i.pending));
  });

  void test('the audit comes back as entries, each field as sent', async () => {
    const answer = value(await s.t.client.observed.audit(s.acme, '2000-01-01', ['login', 'signup']));
    assert.equal(answer.kind, 'entries');
    if (answer.kind !== 'entries') return;
    assert.ok(answer.entries.length >= 5);
    const names = answer.entries[0]?.fields.map((f) => f.name);
    assert.ok(names?.includes('event'));
  });

  void test("sign-ins: each member's last login or signup from the audit, by username", async () => {
    const signIns = value(await s.t.client.observed.signIns(s.acme, '2000-01-01'));
    assert.equal(signIns.kind, 'sign-ins');
    if (signIns.kind !== 'sign-ins') return;
    assert.equal(signIns.complete, true);
    assert.equal(signIns.pages, 1);
    // The demo seed logs demo in 1 and 3 days ago, member 2 and 40 days ago: the latest of each counts.
    const demo = signIns.last.get('demo') ?? 0;
    const member = signIns.last.get('member') ?? 0;
    assert.ok(demo > member, `${demo} > ${member}`);
    // Member's latest is the login a day before demo's (2 against 1 day ago), not the one 40 days ago.
    assert.equal(demo - member, 86_400_000);
    assert.equal(signIns.last.has('demo-2fa'), false);
    assert.equal((await s.t.client.observed.signIns(s.globex, '2000-01-01')).kind, 'not-offered');
  });

  void test('sign-ins: an audit answer of another shape is "not understood", saying why, and nothing is guessed', async () => {
    s.emu.setFaults([{ kind: 'malformed-json', path: '/v3/audit', count: 1 }]);
    const broken = value(await s.t.client.observed.signIns(s.acme, '2000-01-01'));
    assert.equal(broken.kind, 'not-understood');
    s.emu.clearFaults();
    const now = Date.UTC(2026, 5, 1);
    // Seconds instead of milliseconds, a user without a username, an event of another name: none is read.
    for (const entry of [
      { event: 'login', date: 1_700_000_000, user: { username: 'a' } },
      { event: 'login', date: now - 1000, user: { id: 3 } },
      { event: 'logged-in', date: now - 1000, user: { username: 'a' } },
      'login a',
    ]) {
      const page = parseSignInPage({ items: [{ event: 'login', date: now, username: 'b' }, entry] }, 100, now);
      assert.equal(page.kind, 'not-understood', JSON.stringify(entry));
      if (page.kind === 'not-understood') assert.match(page.why, /^entry 2: /);
    }
    const fine = parseSignInPage({ items: [{ event: 'signup', date: now, username: 'B' }], nextPage: true }, 100, now);
    assert.deepEqual(fine, {
      kind: 'sign-ins',
      signIns: [{ username: 'B', event: 'signup', at: now }],
      hasNext: true,
      entries: 1,
    });
  });

  void test('without the capability each is "not offered" (403), and the rest of the client keeps working', async () => {
    const member = await passwordClient(s.emu, {}, { username: 'member', password: 'demo' });
    try {
      assert.deepEqual(await member.client.observed.guestShares(), {
        kind: 'not-offered',
        reason: 'capability',
        status: 403,
      });
      assert.deepEqual(await member.client.observed.invitations(s.acme), {
        kind: 'not-offered',
        reason: 'capability',
        status: 403,
      });
      assert.equal((await member.client.observed.audit(s.acme, '2025-01-01')).kind, 'not-offered');
      assert.ok((await member.client.v3.userinfo()).accounts.length > 0);
    } finally {
      member.client.close();
    }
    // Globex's package withholds invitations and the audit from its super administrator too.
    assert.equal((await s.t.client.observed.invitations(s.globex)).kind, 'not-offered');
    assert.equal((await s.t.client.observed.audit(s.globex, '2025-01-01')).kind, 'not-offered');
  });

  void test('a 429 on the shares is waited out within the budget; a slow audit read still arrives', async () => {
    s.emu.resetStats();
    s.emu.setFaults([{ kind: 'rate-limit', path: '/v3/shares', count: 1, retryAfterSeconds: 1 }]);
    const shares = value(await s.t.client.observed.guestShares());
    assert.equal(shares.length, 4);
    assert.equal(s.emu.stats().rateLimited, 1);
    s.emu.setFaults([{ kind: 'slow-body', path: '/v3/audit', count: 1, delayMs: 300 }]);
    const answer = value(await s.t.client.observed.audit(s.acme, '2000-01-01'));
    assert.equal(answer.kind, 'entries');
    s.emu.clearFaults();
  });

  void test('an audit answer that is not JSON, or not a list of objects, is "not understood", with what was sent', async () => {
    s.emu.setFaults([{ kind: 'malformed-json', path: '/v3/audit', count: 1 }]);
    const answer = value(await s.t.client.observed.audit(s.acme, '2000-01-01'));
    assert.equal(answer.kind, 'not-understood');
    if (answer.kind === 'not-understood') assert.match(answer.asSent ?? '', /^\)\]\}'/);
    assert.deepEqual(parseAuditAnswer({ total: 3 }), { kind: 'not-understood', asSent: '{"total":3}' });
    assert.equal(parseAuditAnswer([1, 2]).kind, 'not-understood');
    assert.deepEqual(parseAuditAnswer([]), { kind: 'entries', entries: [], morePages: false });
  });
});

void describe('observed access endpoints through the client: paging and the literal profile', () => {
  void test('5,000 guest shares and 500 invitations are walked at 100 a page, one request a page', async () => {
    const emu = await emulator({
      seed: 'large',
      large: { members: 10, files: 100, groups: 5, folderDepth: 1, guestShares: 5000, invites: 500 },
    });
    const t = await passwordClient(emu);
    try {
      const bigcorp = await accountId(t.client, 'bigcorp');
      emu.resetStats();
      const shares = value(await t.client.observed.guestShares());
      assert.equal(shares.length, 5000);
      assert.equal(new Set(shares.map((s) => s.email)).size, 5000);
      assert.equal(emu.stats().byRoute['GET /v3/shares'], 50);
      const invites = value(await t.client.observed.invitations(bigcorp));
      assert.equal(invites.length, 500);
      assert.equal(emu.stats().byRoute['GET /v3/accounts/:account/invites'], 5);
      const limited = value(await t.client.observed.guestShares({ limit: 150 }));
      assert.equal(limited.length, 150);
    } finally {
      t.client.close();
      await emu.stop();
    }
  });

  void test('sign-ins of many members are walked at 100 a page, one request a page', async () => {
    const emu = await emulator({
      seed: 'large',
      large: { members: 300, files: 10, groups: 5, folderDepth: 1, signIns: 450 },
    });
    const t = await passwordClient(emu);
    try {
      const bigcorp = await accountId(t.client, 'bigcorp');
      emu.resetStats();
      const signIns = value(await t.client.observed.signIns(bigcorp, '2000-01-01'));
      assert.equal(signIns.kind, 'sign-ins');
      if (signIns.kind !== 'sign-ins') return;
      assert.equal(signIns.events, 450);
      assert.equal(signIns.last.size, 300);
      assert.equal(emu.stats().byRoute['GET /v3/audit'], 5);
      const bounded = value(await t.client.observed.signIns(bigcorp, '2000-01-01', { maxPages: 2 }));
      assert.equal(bounded.kind === 'sign-ins' && bounded.complete, false);
    } finally {
      t.client.close();
      await emu.stop();
    }
  });

  void test('a literal portal: each is "not offered" (absent, 404) and nothing else breaks', async () => {
    const emu = await emulator({ profile: 'literal' });
    const t = await passwordClient(emu);
    try {
      const acme = await accountId(t.client, 'acme');
      const absent = { kind: 'not-offered', reason: 'absent', status: 404 };
      assert.deepEqual(await t.client.observed.guestShares(), absent);
      assert.deepEqual(await t.client.observed.invitations(acme), absent);
      assert.deepEqual(
        await t.client.observed.invite(acme, { targetName: 'a@b.example', mask: 1, groups: {} }),
        absent,
      );
      assert.deepEqual(await t.client.observed.audit(acme, '2025-01-01'), absent);
      assert.deepEqual(await t.client.observed.signIns(acme, '2025-01-01'), absent);
      assert.ok((await t.client.v2.groups.list(acme)).length > 0);
    } finally {
      t.client.close();
      await emu.stop();
    }
  });
});

void describe('observed access models tolerate what a portal may send', () => {
  void test('nulls, wrong types and unknown fields never throw', () => {
    const s = parseGuestShare({
      email: null,
      permission: 'x',
      dateExpire: null,
      extra: { a: 1 },
      contentContext: 'x'.repeat(2000),
    });
    assert.equal(s.email, null);
    assert.equal(s.permission, null);
    assert.equal(s.contentContext?.length, 500);
    assert.deepEqual(parseGuestShare(null).email, null);
    const i = parseInvitation({ targetName: 'a@b.example', parameters: 'not json', request: null });
    assert.equal(i.parameters, null);
    assert.equal(i.parametersAsSent, 'not json');
    assert.equal(i.pending, false);
    assert.equal(i.status, null);
    const p = parseInvitation({ parameters: { mask: 4, groups: { 7: 'x' } }, request: { status: 'NONE' } });
    assert.deepEqual(p.parameters, { mask: 4, groups: [{ groupId: '7', permission: null }] });
    assert.equal(p.pending, true);
  });
});
