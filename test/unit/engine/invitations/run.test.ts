// Invitations as a kind of the engine's work, against the emulator: the plan leaves out what it must (an address
// pending already, one given twice, one that is no address) and reads the portal's refusal once; each invitation is
// journaled before it is sent; a run cut off is resumed without inviting anyone twice; no undo is offered; and on a
// literal portal, or without the capability, nothing is sent.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  invitationRuns,
  invitationsFolderOf,
  readInvitePlan,
  resumeInvitations,
  runInvitations,
  unfinishedInvitations,
  type InvitePlan,
  type InvitePlanRead,
} from '../../../../src/engine/invitations/index';
import { InviteKind } from '../../../../src/engine/invitations/kind';
import { inviteJournal } from '../../../../src/engine/invitations/journalSchema';
import { Journal, readJournal } from '../../../../src/engine/journalFile';
import { suiteFixture } from '../../suiteFixture';
import {
  accountId,
  emulator,
  groupId,
  passwordClient,
  type TestClient,
  signedInSuite,
  stopEnrolled,
} from '../../api/helpers';
import { tempDir } from '../../../support/tempDir';

const POST_INVITES = 'POST /v3/accounts/:account/invites';

function planned(read: InvitePlanRead): InvitePlan {
  assert.equal(read.kind, 'planned', JSON.stringify(read));
  if (read.kind !== 'planned') throw new Error('not planned');
  return read.plan;
}

async function pendingNow(t: TestClient, account: number): Promise<string[]> {
  const read = await t.client.observed.invitations(account);
  assert.equal(read.kind, 'offered');
  return read.kind === 'offered' ? read.value.filter((i) => i.pending).map((i) => i.targetName ?? '') : [];
}

void describe('invitations through the engine (default profile)', () => {
  const s = signedInSuite(async ({ t, acme }) => ({
    engineering: await groupId(t.client, acme, 'engineering'),
    storage: tempDir('invite-engine-'),
  }));
  after(() => fs.rmSync(s.storage, { recursive: true, force: true }));

  const posts = () => s.emu.stats().byRoute[POST_INVITES] ?? 0;
  const run = (plan: InvitePlan) =>
    runInvitations(s.t.client, plan.units, {
      storageFolder: s.storage,
      portalId: 'p',
      accountId: s.acme,
      origin: 'invite',
      title: 'Invite',
    });

  void test('the plan leaves out a pending address, a repeated one and one that is no address', async () => {
    const plan = planned(
      await readInvitePlan(s.t.client, s.acme, [
        { email: 'plan.one@acme.example', mask: 1, groups: { [s.engineering]: 4 } },
        { email: 'NEW.STARTER@acme.example', mask: 1, groups: {} },
        { email: 'Plan.One@acme.example', mask: 1, groups: {} },
        { email: 'not an address', mask: 1, groups: {} },
      ]),
    );
    assert.deepEqual(
      plan.units.map((u) => u.email),
      ['plan.one@acme.example'],
    );
    assert.deepEqual(
      plan.leftOut.map((l) => [l.email, l.reason]),
      [
        ['NEW.STARTER@acme.example', 'pending'],
        ['Plan.One@acme.example', 'twice'],
        ['not an address', 'bad-address'],
      ],
    );
  });

  void test('each invitation is journaled (intent before it is sent, outcome after) and lands once; no undo', async () => {
    const before = posts();
    const plan = planned(
      await readInvitePlan(s.t.client, s.acme, [
        { email: 'run.one@acme.example', mask: 1, groups: { [s.engineering]: 16 } },
        { email: 'run.two@acme.example', mask: 4, groups: {} },
      ]),
    );
    const result = await run(plan);
    assert.deepEqual(
      [...result.outcomes.values()].map((o) => o.result),
      ['done', 'done'],
    );
    assert.equal(posts() - before, 2);
    const pending = await pendingNow(s.t, s.acme);
    assert.ok(pending.includes('run.one@acme.example') && pending.includes('run.two@acme.example'));
    const file = path.join(invitationsFolderOf(s.storage), 'journal', `${result.applyId}.jsonl`);
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; seq?: number });
    assert.equal(lines[0]?.type, 'begin');
    assert.equal(lines.at(-1)?.type, 'end');
    for (const seq of [0, 1]) {
      const intent = lines.findIndex((l) => l.type === 'intent' && l.seq === seq);
      const outcome = lines.findIndex((l) => l.type === 'outcome' && l.seq === seq);
      assert.ok(intent > 0 && outcome > intent, `unit ${seq}: intent, then outcome`);
    }
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const record = await readJournal(inviteJournal, file);
    assert.equal(record.unfinished, false);
    assert.deepEqual(record.begin.work[0]?.groups, { [s.engineering]: 16 });
    const offer = new InviteKind(s.t.client, s.acme).undo(record);
    assert.ok('notOffered' in offer && /cannot be undone/.test(offer.notOffered));
    assert.equal((await invitationRuns(s.storage))[0]?.applyId, result.applyId);
  });

  void test('a run cut off mid-way resumes: what landed is not sent again, the rest is', async () => {
    const plan = planned(
      await readInvitePlan(s.t.client, s.acme, [
        { email: 'cut.landed@acme.example', mask: 1, groups: {} },
        { email: 'cut.lost@acme.example', mask: 1, groups: { [s.engineering]: 1 } },
        { email: 'cut.never@acme.example', mask: 1, groups: {} },
      ]),
    );
    // What a reload leaves: the first invitation sent and landed, its outcome never written; the second's intent
    // written but its request never sent; the third not reached. No end line.
    const journal = await Journal.create(inviteJournal, invitationsFolderOf(s.storage), {
      accountId: s.acme,
      portalId: 'p',
      origin: 'import',
      startedAt: Date.now(),
      title: 'Invite 3',
      work: plan.units,
    });
    for (const u of plan.units.slice(0, 2))
      await journal.append({ type: 'intent', seq: u.seq, before: null, requests: [{ targetName: u.email }] });
    await s.t.client.observed.invite(s.acme, { targetName: 'cut.landed@acme.example', mask: 1, groups: {} });
    await journal.close();

    const [stale] = await unfinishedInvitations(s.storage);
    assert.equal(stale?.applyId, journal.applyId);
    const before = posts();
    const result = await resumeInvitations(s.t.client, stale);
    assert.deepEqual(
      plan.units.map((u) => [u.email, result.outcomes.get(u.seq)?.result]),
      [
        ['cut.landed@acme.example', 'done'],
        ['cut.lost@acme.example', 'done'],
        ['cut.never@acme.example', 'done'],
      ],
    );
    assert.match(result.outcomes.get(0)?.message ?? '', /before the interruption/);
    assert.equal(posts() - before, 2, 'the one that landed is not sent again');
    const pending = await pendingNow(s.t, s.acme);
    assert.equal(pending.filter((a) => a === 'cut.landed@acme.example').length, 1);
    assert.deepEqual(await unfinishedInvitations(s.storage), []);
  });

  void test('a 429 on the invitation is waited out: it lands once', async () => {
    const before = posts();
    s.emu.setFaults([{ kind: 'rate-limit', method: 'POST', path: `/v3/accounts/${s.acme}/invites`, count: 1 }]);
    const plan = planned(
      await readInvitePlan(s.t.client, s.acme, [{ email: 'limited@acme.example', mask: 1, groups: {} }]),
    );
    const result = await run(plan);
    s.emu.clearFaults();
    assert.equal(result.outcomes.get(0)?.result, 'done', JSON.stringify([...result.outcomes]));
    assert.ok(posts() - before >= 1);
    assert.equal((await pendingNow(s.t, s.acme)).filter((a) => a === 'limited@acme.example').length, 1);
  });

  void test('without the capability (an organisation whose package withholds invitations) the plan says so and nothing is sent', async () => {
    const globex = await accountId(s.t.client, 'globex');
    const read = await readInvitePlan(s.t.client, globex, [{ email: 'g@globex.example', mask: 1, groups: {} }]);
    assert.deepEqual(read, { kind: 'not-offered', reason: 'capability' });
  });
});

void describe('invitations through the engine (literal profile)', () => {
  const s = suiteFixture(
    async () => {
      const emu = await emulator({ profile: 'literal' });
      return { emu, t: await passwordClient(emu), storage: tempDir('invite-literal-') };
    },
    ({ emu, t }) => stopEnrolled(emu, t),
  );
  after(() => fs.rmSync(s.storage, { recursive: true, force: true }));

  void test('the plan reads that the portal has no invitations; a run sent anyway fails each unit with one request', async () => {
    const acme = await accountId(s.t.client, 'acme');
    const unmatched = () => s.emu.stats().byRoute['POST (unmatched)'] ?? 0;
    const read = await readInvitePlan(s.t.client, acme, [{ email: 'x@acme.example', mask: 1, groups: {} }]);
    assert.deepEqual(read, { kind: 'not-offered', reason: 'absent' });
    const before = unmatched();
    const result = await runInvitations(
      s.t.client,
      [
        { seq: 0, email: 'x@acme.example', mask: 1, groups: {} },
        { seq: 1, email: 'y@acme.example', mask: 1, groups: {} },
      ],
      { storageFolder: s.storage, portalId: 'p', accountId: acme, origin: 'invite', title: 'Invite 2' },
    );
    assert.deepEqual(
      [...result.outcomes.values()].map((o) => o.result),
      ['failed', 'failed'],
    );
    assert.match(result.outcomes.get(1)?.message ?? '', /does not offer invitations/);
    assert.equal(unmatched() - before, 1, 'the second is not sent once the portal refused the first');
  });
});
