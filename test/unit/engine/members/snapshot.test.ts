// A removal that deletes a user for good keeps a snapshot first; Re-create Member brings back everything but the
// password: profile, tags, account permission and group permissions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { collect, type Member } from '../../../../src/api';
import { applyPlan } from '../../../../src/engine/members/apply';
import { parseMembersFile } from '../../../../src/features/members/plan/core/file/membersFile';
import { makePlan } from '../../../../src/features/members/plan/core/planner';
import { readGroups, readPortalState } from '../../../../src/features/members/plan/core/portalState';
import {
  listSnapshots,
  readSnapshot,
  recreatePlan,
  snapshotFrom,
  writeSnapshot,
} from '../../../../src/engine/members/snapshot';
import { runBulk } from '../../../../src/features/members/bulk/bulkRun';
import { bulkMemberOf } from '../../../../src/features/members/bulk/bulkChange';
import { exportText, Table, withPortal, type Portal } from '../../features/members/plan/core/helpers';
import { tempDir } from '../../../support/tempDir';

/** A portal, and a storage folder of the test's own, removed after it. */
async function withStorage(run: (p: Portal, storage: string) => Promise<void>): Promise<void> {
  await withPortal(async (p) => {
    const storage = tempDir('portal-snap-');
    try {
      await run(p, storage);
    } finally {
      await rm(storage, { recursive: true, force: true });
    }
  });
}

/** withStorage, and a member of acme alone whose removal deletes the user for good (one that `fits`, if given). */
function withRemovable(
  run: (p: Portal, storage: string, target: Member) => Promise<void>,
  fits: (m: Member) => boolean = () => true,
): Promise<void> {
  return withStorage(async (p, storage) => {
    const all = await collect(p.client.v3.members.iterate(p.acme));
    const target = all.find((m) => !m.memberOfMultipleAccounts && m.user.username.includes('.') && fits(m));
    assert.ok(target, 'a member of acme alone');
    await run(p, storage, target);
  });
}

void describe('snapshots and re-create', () => {
  void test('a permanent removal is named, snapshotted first, and re-created with everything but the password', async () => {
    await withRemovable(
      async (p, storage, target) => {
        const username = target.user.username;
        const groupsBefore = (await p.client.v2.members.get(p.acme, username)).groups;
        const file = parseMembersFile(new Table(await exportText(p, false)).remove(username).text());
        const plan = makePlan(file, await readPortalState(p.client, p.acme, file), {
          absent: 'remove',
          keep: new Set(['demo']),
        });
        assert.deepEqual(plan.permanentDeletions, [`${username}#absent`]);
        const snapshots = join(storage, 'snapshots');
        const removed = await applyPlan(p.client, plan, {
          journalFolder: storage,
          portalId: 'test',
          snapshotFolder: snapshots,
        });
        assert.deepEqual(
          removed.rows.map((r) => [r.username, r.action, r.result]),
          [[username, 'remove', 'done']],
        );
        await assert.rejects(p.client.v3.members.get(p.acme, username));

        const [kept] = await listSnapshots(snapshots);
        assert.ok(kept);
        const snapshot = await readSnapshot(kept.file);
        assert.equal(snapshot.username, username);
        assert.deepEqual(snapshot.tags, target.tags);
        const again = recreatePlan(snapshot, await readGroups(p.client, p.acme));
        const created = await applyPlan(p.client, again, { journalFolder: storage, portalId: 'test' });
        assert.deepEqual(
          created.rows.map((r) => r.result),
          ['done'],
        );
        const back = await p.client.v3.members.get(p.acme, username);
        assert.deepEqual(
          [back.user.name, back.user.email, back.user.jobTitle, back.tags, back.permission],
          [target.user.name, target.user.email, target.user.jobTitle, target.tags, target.permission],
        );
        assert.deepEqual((await p.client.v2.members.get(p.acme, username)).groups, groupsBefore);
      },
      (m) => m.tags.length > 0 && !!m.user.jobTitle,
    );
  });

  void test('without a snapshot folder chosen, a permanent removal keeps its snapshot beside the journal first', async () => {
    await withRemovable(async (p, storage, target) => {
      const file = parseMembersFile(new Table(await exportText(p, false)).remove(target.user.username).text());
      const plan = makePlan(file, await readPortalState(p.client, p.acme, file), { absent: 'remove' });
      const result = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test' });
      assert.equal(result.rows[0]?.result, 'done');
      const [kept] = await listSnapshots(join(storage, 'snapshots'));
      assert.equal(kept?.snapshot.username, target.user.username);
    });
  });

  void test('a removal skipped at the moment of sending (it would now delete the user for good) writes no snapshot', async () => {
    await withRemovable(async (p, storage, target) => {
      // Selected while they still belonged to another organisation: the removal was not planned as a deletion.
      const selected = { ...bulkMemberOf(target), deletesUser: false };
      const snapshots = join(storage, 'chosen');
      const summary = await runBulk(p.client, p.acme, { kind: 'delete' }, [selected], {
        journal: { storageFolder: storage, portalId: 'test' },
        snapshotFolder: snapshots,
      });
      assert.deepEqual(
        summary.skipped.map((x) => [x.member.username, x.reason]),
        [[target.user.username, 'now-deleted-for-good']],
      );
      assert.ok(await p.client.v3.members.get(p.acme, target.user.username), 'left as they are');
      assert.deepEqual(await listSnapshots(snapshots), [], 'no copy of their details kept for a removal not sent');
      assert.deepEqual(await listSnapshots(join(storage, 'snapshots')), []);
    });
  });

  void test('a snapshot folder or file that is a planted link is refused, and what it points to is untouched', async () => {
    await withStorage(async (p, storage) => {
      const member = await p.client.v3.members.get(p.acme, 'alice.muller');
      const v2 = await p.client.v2.members.get(p.acme, 'alice.muller');
      const snapshot = snapshotFrom(p.acme, member, v2, [], 1_700_000_000_000, p.emu.url);
      const elsewhere = join(storage, 'elsewhere');
      await mkdir(elsewhere);
      await symlink(elsewhere, join(storage, 'snapshots'));
      await assert.rejects(writeSnapshot(join(storage, 'snapshots'), snapshot), { name: 'UnsafePathError' });
      assert.deepEqual(await readdir(elsewhere), [], 'nothing written through the folder link');
      const real = join(storage, 'real');
      const written = await writeSnapshot(real, snapshot);
      await rm(written);
      await symlink(join(elsewhere, 'victim.json'), written);
      await assert.rejects(writeSnapshot(real, snapshot), { name: 'UnsafePathError' });
      assert.deepEqual(await readdir(elsewhere), [], 'nothing written through the file link');
    });
  });
});
