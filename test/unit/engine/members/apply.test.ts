// Applying a plan against the real emulator: one request per member (a member's tag, enabled, lock, permission and
// group changes in one PATCH), the portal changed as planned, a report row per member, conflicts left out unless
// chosen, and the journal written before each member's requests.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPlan, countPlan } from '../../../../src/engine/members/apply';
import { readJournal } from '../../../../src/engine/members/index';
import { parseMembersFile } from '../../../../src/features/members/plan/core/file/membersFile';
import type { Plan } from '../../../../src/features/members/plan/core/model';
import { makePlan } from '../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../src/features/members/plan/core/portalState';
import { groupIdOf } from '../../features/helpers';
import {
  apiRequests,
  exportText,
  Table,
  withPortal,
  withStorage,
  type Portal,
} from '../../features/members/plan/core/helpers';

const WRITES = /^(PATCH|POST|DELETE) \/v[23]\/accounts\/:account\/members/;

async function planOf(p: Portal, text: string): Promise<Plan> {
  const file = parseMembersFile(text);
  return makePlan(file, await readPortalState(p.client, p.acme, file));
}

for (const profile of ['default', 'literal'] as const) {
  void describe(`apply (${profile} profile)`, () => {
    void test('one PATCH per member carries its tags, enabled, lock, permission and groups; the portal has them all', async () => {
      await withPortal(
        async (p) =>
          withStorage(async (storage) => {
            const engineering = await groupIdOf(p.client, p.acme, 'engineering');
            const social = await groupIdOf(p.client, p.acme, 'social');
            const table = new Table(await exportText(p));
            table
              .set('alice.muller', 'Tags', 'a, b')
              .set('alice.muller', 'Locked', 'true')
              .set('alice.muller', 'Account permission', 'Group creator')
              .set('alice.muller', 'group:engineering', 'Administrator')
              .set('alice.muller', 'group:social', 'Basic')
              .set('bruno.dubois', 'Enabled', 'false');
            const plan = await planOf(p, table.text());
            assert.deepEqual(countPlan(plan), {
              members: 2,
              create: 0,
              update: 1,
              disable: 1,
              remove: 0,
              permanent: 0,
              conflictsChosen: 0,
            });
            p.emu.resetStats();
            const result = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test' });
            assert.equal(apiRequests(p.emu, WRITES), 2, 'one request per member');
            assert.equal(apiRequests(p.emu), 2, 'and nothing else');
            assert.deepEqual(
              result.rows.map((r) => [r.username, r.action, r.result]),
              [
                ['alice.muller', 'update', 'done'],
                ['bruno.dubois', 'disable', 'done'],
              ],
            );
            const alice = await p.client.v3.members.get(p.acme, 'alice.muller');
            assert.deepEqual(alice.tags, ['a', 'b']);
            assert.equal(alice.user.locked, true);
            assert.equal(alice.permission, 4);
            const groups = (await p.client.v2.members.get(p.acme, 'alice.muller')).groups ?? {};
            assert.equal(groups.engineering, 16);
            assert.equal(groups.social, 1);
            assert.equal((await p.client.v3.members.get(p.acme, 'bruno.dubois')).user.enabled, false);
            const journal = await readJournal(result.journalFile);
            assert.equal(journal.unfinished, false);
            const intent = [...journal.intents.values()].find((i) => i.before?.username === 'alice.muller');
            assert.ok(intent, 'the journal has the intent with the previous values');
            assert.ok(String(engineering) in (intent.before?.groups ?? {}));
            assert.ok(String(social) in (intent.before?.groups ?? {}));
          }),
        { profile },
      );
    });

    void test('a new member (v3 POST with groups and tags) and a name change (the v2 update v3 cannot do)', async () => {
      await withPortal(
        async (p) =>
          withStorage(async (storage) => {
            const table = new Table(await exportText(p));
            table.set('chloe.kowalski', 'Name', 'Chloe Kowalska');
            table.add({
              Username: 'new.starter',
              Name: 'New Starter',
              'E-mail': 'new.starter@acme.example',
              Tags: 'hr, 2026',
              'group:marketing': 'Standard',
            });
            table.add({
              Username: 'later.starter',
              Name: 'Later Starter',
              'E-mail': 'later@acme.example',
              'Job title': 'Designer',
              Tags: 'hr',
              'group:engineering': 'Basic',
            });
            const plan = await planOf(p, table.text());
            p.emu.resetStats();
            const result = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test' });
            assert.deepEqual(
              result.rows.map((r) => [r.username, r.result, r.message]),
              [
                ['new.starter', 'done', ''],
                ['later.starter', 'done', ''],
                ['chloe.kowalski', 'done', ''],
              ],
            );
            // new.starter: one v3 POST; later.starter: v2 POST (job title) + PATCH (tags, groups); chloe: one v2 update.
            assert.equal(apiRequests(p.emu, WRITES), 4);
            const created = await p.client.v3.members.get(p.acme, 'new.starter');
            assert.deepEqual(created.tags, ['hr', '2026']);
            assert.equal((await p.client.v2.members.get(p.acme, 'new.starter')).groups?.marketing, 4);
            const later = await p.client.v2.members.get(p.acme, 'later.starter');
            assert.equal(later.user.jobTitle, 'Designer');
            assert.equal(later.groups?.engineering, 1);
            assert.deepEqual((await p.client.v3.members.get(p.acme, 'later.starter')).tags, ['hr']);
            assert.equal((await p.client.v3.members.get(p.acme, 'chloe.kowalski')).user.name, 'Chloe Kowalska');
          }),
        { profile },
      );
    });
  });
}

void describe('apply: conflicts and failures', () => {
  void test('a conflict is left unchanged unless chosen', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const table = new Table(await exportText(p));
        await p.client.v3.members.update(p.acme, 'dmitri.brown', { tags: ['elsewhere'] });
        table.set('dmitri.brown', 'Name', 'D. Brown');
        const plan = await planOf(p, table.text());
        const first = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test' });
        assert.deepEqual(first.rows, []);
        let dmitri = await p.client.v3.members.get(p.acme, 'dmitri.brown');
        assert.notEqual(dmitri.user.name, 'D. Brown');
        assert.deepEqual(dmitri.tags, ['elsewhere']);
        // Chosen: only the name, not the stale tags.
        const chosen = await applyPlan(p.client, plan, {
          journalFolder: storage,
          portalId: 'test',
          leftOut: new Set(['dmitri.brown#field:tags']),
        });
        assert.deepEqual(
          chosen.rows.map((r) => r.result),
          ['done'],
        );
        dmitri = await p.client.v3.members.get(p.acme, 'dmitri.brown');
        assert.equal(dmitri.user.name, 'D. Brown');
        assert.deepEqual(dmitri.tags, ['elsewhere']);
      }),
    );
  });

  void test("a member the portal refuses fails with the portal's message; the others are done", async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const table = new Table(await exportText(p));
        table.set('alice.muller', 'E-mail', 'bruno.dubois@acme.example'); // taken: 409
        table.set('bruno.dubois', 'Tags', 'ok');
        const plan = await planOf(p, table.text());
        const result = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test' });
        const byName = new Map(result.rows.map((r) => [r.username, r]));
        assert.equal(byName.get('alice.muller')?.result, 'failed');
        assert.match(byName.get('alice.muller')?.message ?? '', /taken/);
        assert.equal(byName.get('bruno.dubois')?.result, 'done');
      }),
    );
  });
});
