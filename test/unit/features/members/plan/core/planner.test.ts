// File + portal → plan, against the real emulator (demo seed, acme): the export reads back as "no change", each
// edit becomes exactly one change, a row changed on the portal since the export is a conflict left out by default,
// and members absent from the file are left alone unless the caller chooses to disable or remove them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMembersFile } from '../../../../../../src/features/members/plan/core/file/membersFile';
import { allChanges, groupChangeKind, type Plan } from '../../../../../../src/features/members/plan/core/model';
import { makePlan } from '../../../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../../../src/features/members/plan/core/portalState';
import { groupIdOf } from '../../../helpers';
import { exportText, Table, withPortal, type Portal } from './helpers';

async function planOf(p: Portal, text: string, absent: 'leave' | 'disable' | 'remove' = 'leave'): Promise<Plan> {
  const file = parseMembersFile(text);
  const state = await readPortalState(p.client, p.acme, file);
  return makePlan(file, state, { absent });
}

const summary = (plan: Plan) =>
  allChanges(plan)
    .map((c) => c.id)
    .sort();

for (const profile of ['default', 'literal'] as const) {
  void describe(`plan (${profile} profile)`, () => {
    void test('the export planned against the portal it came from changes nothing', async () => {
      await withPortal(
        async (p) => {
          const plan = await planOf(p, await exportText(p));
          assert.deepEqual(summary(plan), []);
          assert.deepEqual(plan.conflicts, []);
          assert.equal(plan.conflictsChecked, true);
        },
        { profile },
      );
    });

    void test('one new member, one tag and one group: exactly three changes, before → after', async () => {
      await withPortal(
        async (p) => {
          const engineering = await groupIdOf(p.client, p.acme, 'engineering');
          const table = new Table(await exportText(p));
          const tags = table.get('alice.muller', 'Tags');
          table.set('alice.muller', 'Tags', tags ? `${tags}, onboarding` : 'onboarding');
          const was = table.get('bruno.dubois', 'group:engineering');
          table.set('bruno.dubois', 'group:engineering', was === 'Administrator' ? 'Basic' : 'Administrator');
          table.add({
            Username: 'new.starter',
            Name: 'New Starter',
            'E-mail': 'new.starter@acme.example',
            Tags: 'hr',
            'group:marketing': 'Standard',
          });
          const plan = await planOf(p, table.text());
          assert.deepEqual(summary(plan), [
            'alice.muller#field:tags',
            `bruno.dubois#group:${engineering}`,
            'new.starter#create',
          ]);
          const tag = plan.fieldChanges[0];
          assert.ok(tag?.field === 'tags');
          assert.deepEqual(tag.after, [...(tags ? tags.split(', ') : []), 'onboarding']);
          const group = plan.groupChanges[0];
          assert.ok(group);
          assert.equal(group.after, was === 'Administrator' ? 1 : 16);
          assert.equal(groupChangeKind(group), was === '' ? 'added' : 'changed');
          assert.deepEqual(plan.before.get('bruno.dubois')?.groups, { [String(engineering)]: group.before });
          const created = plan.newMembers[0];
          assert.ok(created?.kind === 'create');
          assert.equal(created.member.email, 'new.starter@acme.example');
          assert.deepEqual([...created.member.groups.values()], [4]);
          assert.deepEqual(plan.leftOutByDefault, []);
        },
        { profile },
      );
    });
  });
}

void describe('plan: conflicts and absent members', () => {
  void test('a row changed on the portal after the export is a conflict, left out unless chosen', async () => {
    await withPortal(async (p) => {
      const table = new Table(await exportText(p));
      // Someone else changes the member after the export...
      await p.client.v3.members.update(p.acme, 'chloe.kowalski', { tags: ['changed-elsewhere'] });
      // ...and the file changes the same member and another one.
      table.set('chloe.kowalski', 'Name', 'Chloe K.');
      table.set('dmitri.brown', 'Name', 'Dmitri B.');
      const plan = await planOf(p, table.text());
      // The row's stale tags would undo the other change: that is listed too, inside the conflict.
      const ids = ['chloe.kowalski#field:name', 'chloe.kowalski#field:tags'];
      assert.deepEqual(
        plan.conflicts.map((c) => [c.username, c.changeIds]),
        [['chloe.kowalski', ids]],
      );
      assert.deepEqual(plan.leftOutByDefault, ids);
      assert.ok((plan.conflicts[0]?.portal ?? 0) > (plan.conflicts[0]?.exported ?? 0));
      assert.deepEqual(summary(plan), [...ids, 'dmitri.brown#field:name']);
    });
  });

  void test('a group change on the portal after the export is a conflict too', async () => {
    await withPortal(async (p) => {
      const marketing = await groupIdOf(p.client, p.acme, 'marketing');
      const table = new Table(await exportText(p));
      await p.client.v3.members.update(p.acme, 'dmitri.brown', { assignGroupsRights: { [String(marketing)]: 4 } });
      table.set('dmitri.brown', 'Job title', 'Analyst');
      const plan = await planOf(p, table.text());
      assert.deepEqual(
        plan.conflicts.map((c) => c.username),
        ['dmitri.brown'],
      );
    });
  });

  void test('members absent from the file are left alone unless the caller chooses to disable or remove them', async () => {
    await withPortal(async (p) => {
      const table = new Table(await exportText(p)).remove('alice.muller').remove('victor.hale');
      const text = table.text();
      assert.deepEqual(summary(await planOf(p, text)), []);
      const disable = await planOf(p, text, 'disable');
      // victor.hale is disabled already: nothing to do for him.
      assert.deepEqual(
        disable.absent.map((a) => [a.username, a.kind === 'absent' && a.action]),
        [['alice.muller', 'disable']],
      );
      const remove = await planOf(p, text, 'remove');
      assert.deepEqual(remove.absent.map((a) => a.username).sort(), ['alice.muller', 'victor.hale']);
      const alice = await p.client.v3.members.get(p.acme, 'alice.muller');
      const permanent = remove.absent.filter((a) => a.kind === 'absent' && a.permanent).map((a) => a.username);
      assert.equal(permanent.includes('alice.muller'), !alice.memberOfMultipleAccounts);
      assert.deepEqual(
        remove.permanentDeletions,
        remove.absent.filter((a) => a.kind === 'absent' && a.permanent).map((a) => a.id),
      );
    });
  });

  void test('rows with errors and repeated usernames are not planned', async () => {
    await withPortal(async (p) => {
      const table = new Table(await exportText(p));
      table.set('alice.muller', 'group:engineering', 'Owner');
      table.set('alice.muller', 'Name', 'Alice M.');
      table.add({ Username: 'bruno.dubois', Name: 'Twice' });
      table.set('bruno.dubois', 'Name', 'Bruno D.');
      assert.deepEqual(summary(await planOf(p, table.text())), []);
    });
  });
});
