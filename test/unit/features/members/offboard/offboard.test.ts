// Offboarding through the engine, and Undo person by person: three members disabled and taken out of every group on
// the real emulator, one put back, the change then "undone for 1 of 3" and still undoable for the other two, whose
// undo finishes it. Also the words a change is named with, and which column of a list of leavers names people.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPlan } from '../../../../../src/engine/members/apply';
import {
  changeHistory,
  groupLevelsOf,
  portalMemberOf,
  readGroups,
  remainingUndoPlan,
} from '../../../../../src/engine/members/index';
import { allChanges } from '../../../../../src/engine/members/model';
import { leaverTag, offboardPlan } from '../../../../../src/features/members/offboard/offboardPlan';
import { leaversIn } from '../../../../../src/features/members/offboard/leavers';
import {
  fileTitle,
  membersWord,
  offboardTitle,
  planTitle,
  undoneWords,
  undoTitle,
  whatChanges,
} from '../../../../../src/features/members/plan/changeNames';
import { withPortal, withStorage, type Portal } from '../plan/core/helpers';

const LEAVERS = ['chloe.okafor', 'yara.haddad', 'bruno.dubois'];

/** A member as an undo must bring them back: everything but when the portal last changed them. */
async function whole(p: Portal, usernames: readonly string[]) {
  const groups = await readGroups(p.client, p.acme);
  const members = [];
  for (const u of usernames) {
    const v3 = await p.client.v3.members.get(p.acme, u);
    const v2 = await p.client.v2.members.get(p.acme, u);
    members.push({ ...portalMemberOf(v3), lastModified: null, groups: groupLevelsOf(v2.groups, groups) });
  }
  return { groups, members };
}

void describe('offboarding', () => {
  void test('three offboarded, one put back, then the other two: each undo only for whom it is', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const start = await whole(p, LEAVERS);
        const places = start.members.reduce((n, m) => n + [...(m.groups?.values() ?? [])].filter((l) => l).length, 0);
        assert.ok(places > 0, 'the leavers are in some groups');
        const plan = offboardPlan(p.acme, start.groups, start.members, { lock: false, remove: false }, Date.now());
        const chosen = allChanges(plan);
        const title = planTitle(plan.naming ?? { kind: 'offboard' }, chosen);
        assert.equal(title, `Offboard 3: disable, remove from ${places} group places`);
        assert.equal(whatChanges(chosen), `Disable 3, remove from ${places} group places.`);
        const run = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test', title });
        assert.deepEqual(
          run.rows.map((r) => r.result),
          ['done', 'done', 'done'],
        );
        for (const m of (await whole(p, LEAVERS)).members) {
          assert.equal(m.enabled, false, `${m.username} disabled`);
          assert.equal(m.groups?.size, 0, `${m.username} in no group`);
        }

        let past = (await changeHistory(storage)).find((c) => c.record.applyId === run.applyId);
        assert.ok(past?.undoable);
        assert.equal(past.record.begin.title, title);
        const one = remainingUndoPlan(past, ['yara.haddad']);
        assert.deepEqual([...new Set(allChanges(one).map((c) => c.username))], ['yara.haddad']);
        await applyPlan(p.client, one, { journalFolder: storage, portalId: 'test' });
        const yara = (await whole(p, ['yara.haddad'])).members[0];
        assert.deepEqual(yara, start.members[1], 'yara is back as she was, every group included');

        past = (await changeHistory(storage)).find((c) => c.record.applyId === run.applyId);
        assert.ok(past?.undoable, 'still undoable for the other two');
        assert.equal(past.undone, false);
        assert.deepEqual(past.undoneMembers, ['yara.haddad']);
        assert.equal(undoneWords(past.undoneMembers.length, past.members.length), 'undone for 1 of 3');
        const rest = remainingUndoPlan(past);
        assert.deepEqual(
          [...new Set(allChanges(rest).map((c) => c.username))].sort(),
          ['bruno.dubois', 'chloe.okafor'],
          'yara is never offered again',
        );
        await applyPlan(p.client, rest, { journalFolder: storage, portalId: 'test' });
        assert.deepEqual((await whole(p, LEAVERS)).members, start.members, 'everyone is back');
        past = (await changeHistory(storage)).find((c) => c.record.applyId === run.applyId);
        assert.equal(past?.undoable, false);
        assert.equal(past?.undone, true);
      }),
    );
  });

  void test('a failed undo leaves its member to undo', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const start = await whole(p, ['chloe.okafor']);
        const plan = offboardPlan(p.acme, start.groups, start.members, { lock: true, remove: false }, Date.now());
        const run = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test', title: 'x' });
        let past = (await changeHistory(storage)).find((c) => c.record.applyId === run.applyId);
        assert.ok(past);
        // The undo is cut short before its member: not sent, so not put back.
        const abort = new AbortController();
        abort.abort();
        await applyPlan(p.client, remainingUndoPlan(past), {
          journalFolder: storage,
          portalId: 'test',
          signal: abort.signal,
        });
        past = (await changeHistory(storage)).find((c) => c.record.applyId === run.applyId);
        assert.deepEqual(past?.undoneMembers, []);
        assert.equal(past?.undoable, true);
      }),
    );
  });
});

void describe('change names', () => {
  const field = (username: string, f: 'enabled' | 'locked', after: boolean) =>
    ({
      kind: 'field',
      id: `${username}#field:${f}`,
      username,
      row: undefined,
      field: f,
      before: !after,
      after,
    }) as const;
  const group = (username: string, groupId: number) =>
    ({
      kind: 'group',
      id: `${username}#group:${groupId}`,
      username,
      row: undefined,
      groupId,
      groupName: 'g',
      before: 4,
      after: 0,
    }) as const;
  const create = (username: string) =>
    ({
      kind: 'create',
      id: `${username}#create`,
      username,
      row: 1,
      member: {
        username,
        name: username,
        email: `${username}@x.example`,
        jobTitle: null,
        enabled: true,
        accountPermission: 1,
        tags: [],
        groups: new Map(),
        activationDate: undefined,
        locked: false,
      },
    }) as const;

  void test('plural-correct, never "1 members"', () => {
    assert.equal(membersWord(1), '1 member');
    assert.equal(membersWord(27), '27 members');
    assert.equal(
      offboardTitle([field('a', 'enabled', false), group('a', 1)]),
      'Offboard 1: disable, remove from 1 group place',
    );
    assert.equal(fileTitle([field('a', 'locked', true)], 'leavers.csv'), 'Changes to 1 member from leavers.csv');
    assert.equal(
      fileTitle([field('a', 'locked', true), field('b', 'locked', true), group('c', 2)], 'leavers.csv'),
      'Changes to 3 members from leavers.csv',
    );
    assert.equal(undoneWords(1, 3), 'undone for 1 of 3');
    assert.equal(undoneWords(3, 3), 'undone');
  });

  void test('a file that only adds people is an onboarding, named after its sheet', () => {
    const seven = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(create);
    assert.equal(fileTitle(seven, 'starters-2027Q1.xlsx'), 'Onboard 7 from starters-2027Q1.xlsx');
    assert.equal(whatChanges(seven), 'Create 7.');
  });

  void test('an offboarding with a lock and a tag names both', () => {
    const tags = {
      kind: 'field',
      id: 'a#field:tags',
      username: 'a',
      row: undefined,
      field: 'tags',
      before: [],
      after: ['left-2027-01'],
    } as const;
    const changes = [field('a', 'enabled', false), field('a', 'locked', true), tags];
    assert.equal(offboardTitle(changes, 'left-2027-01'), 'Offboard 1: disable, lock, tag "left-2027-01"');
    assert.equal(whatChanges(changes, 'left-2027-01'), 'Disable 1, lock 1, tag 1 "left-2027-01".');
  });

  void test('an undo is named after the change, and for whom when not for all', () => {
    assert.equal(undoTitle('"Offboard 3" (10:59)', ['a', 'b', 'c'], 3), 'Undo "Offboard 3" (10:59)');
    assert.equal(undoTitle('"Offboard 3" (10:59)', ['yara'], 3), 'Undo "Offboard 3" (10:59) for yara');
    assert.equal(undoTitle('"Offboard 3" (10:59)', ['a', 'b'], 3), 'Undo "Offboard 3" (10:59) for 2 of 3 members');
  });

  void test('the default tag comes from the clock given', () => {
    assert.equal(leaverTag(new Date(2027, 0, 31, 23, 0)), 'left-2027-01');
    assert.equal(leaverTag(new Date(2027, 11, 1)), 'left-2027-12');
  });

  void test('a list of leavers names people by username, else by e-mail; the rest are named as not found', () => {
    const members = [
      { username: 'ana.lopez', email: 'Ana.Lopez@acme.example' },
      { username: 'bo', email: 'bo@acme.example' },
    ];
    assert.deepEqual(
      leaversIn(
        {
          headers: ['Name', 'E-mail'],
          rows: [
            ['Ana', 'ana.lopez@acme.example'],
            ['Zed', 'zed@x'],
            ['Ana', 'ANA.LOPEZ@acme.example'],
          ],
        },
        members,
      ),
      { usernames: ['ana.lopez'], notFound: ['zed@x'] },
    );
    assert.deepEqual(leaversIn({ headers: ['User name', 'Email'], rows: [['BO', 'x']] }, members), {
      usernames: ['bo'],
      notFound: [],
    });
    assert.deepEqual(leaversIn({ headers: ['Name'], rows: [] }, members), { problem: 'no-column' });
  });
});
