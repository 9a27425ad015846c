// A snapshot is a file in a folder the user chose and may come from anywhere: it says which portal and organisation
// it was taken on, it is readable by the user alone, a re-create matches groups by name in the target organisation
// (an id from elsewhere can be any group there), and every value is checked before a plan is made of it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { collect } from '../../../../src/api';
import { applyPlan } from '../../../../src/engine/members/apply';
import { parseMembersFile } from '../../../../src/features/members/plan/core/file/membersFile';
import type { MemberSnapshot } from '../../../../src/features/members/plan/core/model';
import { makePlan } from '../../../../src/features/members/plan/core/planner';
import { readGroups, readPortalState } from '../../../../src/features/members/plan/core/portalState';
import * as snapshots from '../../../../src/engine/members/snapshot';
import { exportText, Table, withPortal, withStorage } from '../../features/members/plan/core/helpers';

const { listSnapshots, readSnapshot, recreatePlan } = snapshots;

function base(over: Partial<MemberSnapshot> = {}): MemberSnapshot {
  return {
    version: 2,
    takenAt: 1_700_000_000_000,
    portal: 'https://portal.example',
    accountId: 7,
    username: 'sam.starter',
    name: 'Sam Starter',
    email: 'sam@example.org',
    jobTitle: null,
    telephone: null,
    address: null,
    organisation: null,
    enabled: true,
    accountPermission: 1,
    tags: ['a'],
    groups: [],
    ...over,
  };
}

void describe('snapshots: where from, private, checked', () => {
  void test("a snapshot records the portal and the organisation, and is the user's alone", async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const all = await collect(p.client.v3.members.iterate(p.acme));
        const target = all.find((m) => !m.memberOfMultipleAccounts && m.user.username.includes('.'));
        assert.ok(target);
        const file = parseMembersFile(new Table(await exportText(p, false)).remove(target.user.username).text());
        const plan = makePlan(file, await readPortalState(p.client, p.acme, file), { absent: 'remove' });
        const folder = join(storage, 'kept');
        await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test', snapshotFolder: folder });
        const [kept] = await listSnapshots(folder);
        assert.ok(kept);
        assert.equal(kept.snapshot.portal, new URL(p.emu.url).origin);
        assert.equal(kept.snapshot.accountId, p.acme);
        assert.equal((await stat(kept.file)).mode & 0o777, 0o600);
        assert.equal((await stat(folder)).mode & 0o777, 0o700, 'a folder it made itself');
      }),
    );
  });

  void test('re-create matches groups by name in the target organisation, never by id', async () => {
    await withPortal(async (p) => {
      const groups = await readGroups(p.client, p.acme);
      const [first, second] = groups;
      assert.ok(first && second);
      // Taken elsewhere: there, the group named like acme's second one had the id of acme's first.
      const snapshot = base({ groups: [{ id: first.id, name: second.name, level: 16 }] });
      const plan = recreatePlan(snapshot, groups, 0, p.acme);
      const member = plan.newMembers[0];
      assert.ok(member && member.kind === 'restore');
      assert.deepEqual([...member.member.groups], [[second.id, 16]]);
      assert.equal(plan.accountId, p.acme, "the target organisation, not the snapshot's");
      const unknown = base({ groups: [{ id: first.id, name: 'payroll-elsewhere', level: 16 }] });
      const none = recreatePlan(unknown, groups, 0, p.acme).newMembers[0];
      assert.ok(none && none.kind === 'restore');
      assert.equal(none.member.groups.size, 0, 'a group with no namesake is left out, whatever its id');
    });
  });

  void test('a snapshot from another portal or organisation, or one that does not say, is not re-created silently', () => {
    const mismatch = (snapshots as Record<string, unknown>).snapshotMismatch as
      ((s: MemberSnapshot, t: { baseUrl: string; accountId: number }) => unknown) | undefined;
    assert.equal(typeof mismatch, 'function', 'the snapshot is compared with the target');
    if (!mismatch) return;
    assert.equal(mismatch(base(), { baseUrl: 'https://portal.example/api', accountId: 7 }), undefined);
    assert.ok(mismatch(base(), { baseUrl: 'https://other.example', accountId: 7 }));
    assert.ok(mismatch(base(), { baseUrl: 'https://portal.example', accountId: 8 }));
    assert.ok(mismatch(base({ portal: undefined }), { baseUrl: 'https://portal.example', accountId: 7 }));
  });

  void test('every value of a snapshot file is checked', async () => {
    await withStorage(async (folder) => {
      // An older snapshot's shape, which a reader must still take when its values are good.
      const sample = (): MemberSnapshot => ({ ...base(), version: 1, portal: undefined });
      const bad: Array<[string, unknown]> = [
        ['a permission that is none', { ...sample(), accountPermission: 99 }],
        ['a group level that is none', { ...sample(), groups: [{ id: 1, name: 'g', level: 7 }] }],
        ['an e-mail with a line break', { ...sample(), email: 'sam@example.org\nBcc: x@evil.example' }],
        ['a password', { ...sample(), password: 'hunter2' }],
        ['a username that is a path', { ...sample(), username: '../../x' }],
        ['a portal that is not an origin', { ...sample(), portal: 'javascript:alert(1)' }],
      ];
      for (const [why, value] of bad) {
        const file = join(folder, 'x.json');
        await writeFile(file, JSON.stringify(value));
        await assert.rejects(readSnapshot(file), Error, why);
      }
      const good = join(folder, 'good.json');
      await writeFile(good, JSON.stringify(sample()));
      assert.equal((await readSnapshot(good)).username, 'sam.starter');
    });
  });
});
