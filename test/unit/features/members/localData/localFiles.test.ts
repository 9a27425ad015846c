// What the extension keeps about a portal's people is the user's alone, can be listed and removed per portal, and is
// pruned after `portal.history.keepDays`: journals, action reports, the access matrix's store and snapshots.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { applyPlan } from '../../../../../src/engine/members/apply';
import { parseMembersFile } from '../../../../../src/features/members/plan/core/file/membersFile';
import { makePlan } from '../../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../../src/features/members/plan/core/portalState';
import { writeReport } from '../../../../../src/features/members/plan/core/report';
import { journalPath, MatrixJournal } from '../../../../../src/features/members/access/matrixJournal';
import { tightenTree } from '../../../../../src/node/privateFiles';
import * as local from '../../../../../src/features/members/localData/localFiles';
import { exportText, Table, withPortal, withStorage, type Portal } from '../plan/core/helpers';

const DAY = 86_400_000;
const mode = async (f: string) => (await stat(f)).mode & 0o777;

/** One apply for `portalId` (a tag on one member), its report, and an access store line. */
async function keepSome(p: Portal, storage: string, portalId: string, tag: string) {
  const table = new Table(await exportText(p, false)).set('alice.muller', 'Tags', tag);
  const file = parseMembersFile(table.text());
  const plan = makePlan(file, await readPortalState(p.client, p.acme, file));
  const result = await applyPlan(p.client, plan, { journalFolder: storage, portalId });
  const report = join(storage, 'reports', `report-${result.applyId}.csv`);
  await mkdir(join(storage, 'reports'), { recursive: true });
  await writeReport(report, result.rows);
  const access = new MatrixJournal(journalPath(join(storage, 'access'), portalId, p.acme));
  const member = {
    username: 'alice.muller',
    name: 'Alice',
    email: 'a@x.org',
    tags: [],
    permission: 1,
    lastActive: null,
    flags: 0,
  };
  access.read(member, { '1': 4 }, 1);
  return { journal: result.journalFile, report, access: access.file };
}

void describe('local data: private, listed, removable, pruned', () => {
  void test("an older version's files are tightened: 0644 files and 0755 folders become 0600 and 0700", async () => {
    await withStorage(async (storage) => {
      const folder = join(storage, 'journal');
      await mkdir(folder, { recursive: true });
      await chmod(folder, 0o755);
      await writeFile(join(folder, 'old.jsonl'), '{}\n', { mode: 0o644 });
      await chmod(join(folder, 'old.jsonl'), 0o644);
      await tightenTree(storage);
      assert.equal(await mode(folder), 0o700);
      assert.equal(await mode(join(folder, 'old.jsonl')), 0o600);
      assert.equal(await mode(storage), 0o700);
    });
  });

  void test("a portal's files are listed and removed, and no other portal's", async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const mine = await keepSome(p, storage, 'portal-a', 'one');
        const theirs = await keepSome(p, storage, 'portal-b', 'two');
        const listed = await local.localDataOf(storage, { portalId: 'portal-a', baseUrl: p.emu.url });
        assert.deepEqual(listed.map((f) => f.file).sort(), [mine.journal, mine.report, mine.access].sort());
        assert.equal(await local.removeLocalData(listed), 3);
        for (const f of [mine.journal, mine.report, mine.access]) await assert.rejects(stat(f));
        for (const f of [theirs.journal, theirs.report, theirs.access]) assert.ok(await stat(f));
      }),
    );
  });

  void test('pruning removes what is older than keepDays, and keeps the recent and the unfinished', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const now = Date.now();
        const old = await keepSome(p, storage, 'portal-a', 'old');
        const recent = await keepSome(p, storage, 'portal-a', 'recent');
        const stuck = await keepSome(p, storage, 'portal-a', 'stuck');
        // An apply that never finished: its end line gone.
        const { readFile } = await import('node:fs/promises');
        const text = await readFile(stuck.journal, 'utf8');
        await writeFile(
          stuck.journal,
          text
            .split('\n')
            .filter((l) => !l.includes('"type":"end"'))
            .join('\n'),
        );
        const aged = new Date(now - 100 * DAY);
        for (const f of [old.journal, old.report, old.access, stuck.journal, stuck.report]) await utimes(f, aged, aged);
        await local.pruneLocalData(storage, 90, now);
        for (const f of [old.journal, old.report]) await assert.rejects(stat(f), `${f} pruned`);
        for (const f of [recent.journal, recent.report, stuck.journal, stuck.report])
          assert.ok(await stat(f), `${f} kept`);
      }),
    );
  });
});
