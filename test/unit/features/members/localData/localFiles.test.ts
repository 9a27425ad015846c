// What the extension keeps about a portal's people is the user's alone, can be listed and removed per portal, and is
// pruned after `portal.history.keepDays`: journals (of applies and uploads), action reports, the access matrix's
// store, snapshots, staged drops and chat's call log. A link planted for any of them never leads a removal elsewhere.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, cp, mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Journal } from '../../../../../src/engine/journalFile';
import { discardJournal, unfinishedJournals } from '../../../../../src/engine/members/journal';
import { uploadJournal } from '../../../../../src/engine/uploads/journalSchema';
import { ToolCallLog } from '../../../../../src/engine/readLog';
import { snapshotFrom, writeSnapshot } from '../../../../../src/engine/members/snapshot';
import { unfinishedUploads } from '../../../../../src/engine/uploads/run';
import { tryLock } from '../../../../../src/node/fileLock';
import { stageDropped } from '../../../../../src/features/records/upload/dropped';
import { applyPlan } from '../../../../../src/engine/members/apply';
import { parseMembersFile } from '../../../../../src/features/members/plan/core/file/membersFile';
import { makePlan } from '../../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../../src/features/members/plan/core/portalState';
import { writeReport } from '../../../../../src/features/members/plan/core/report';
import { AccessStoreFile, storeFilePath } from '../../../../../src/features/members/access/store/accessStoreFile';
import { tightenTree } from '../../../../../src/node/privateFiles';
import * as local from '../../../../../src/features/members/localData/localFiles';
import { exportText, Table, withPortal, withStorage, type Portal } from '../plan/core/helpers';
import { Review, REVIEW_VERSION } from '../../../../../src/features/review/core/model';
import { evidenceNames, ReviewFiles } from '../../../../../src/features/review/core/reviewFiles';
import { tempDir } from '../../../../support/tempDir';

/** A finished access review of `portalId`, with a decision kept beside it and its evidence: every file it makes. */
async function keepReview(storage: string, portalId: string): Promise<string[]> {
  const files = new ReviewFiles(storage);
  const head = { version: REVIEW_VERSION, id: `1-${portalId.length}-0001`, portalId, portalLabel: portalId } as const;
  const review = new Review(
    { ...head, accountId: 1, accountLabel: 'Acme', reviewer: 'demo', startedAt: 1, refused: {}, groups: [] },
    [{ key: 'm:a', kind: 'member', identity: 'a', name: 'A', access: '', detail: '', readAt: 1, levels: {} }],
  );
  await files.save(review);
  await files.writeEvidence(review);
  await files.append(review, review.decide(['m:a'], { kind: 'keep', reason: '' }, 'demo', 2));
  const folder = files.folderOf(review.head);
  const names = evidenceNames(review.head.id);
  return [`${review.head.id}.json`, `${review.head.id}.decisions.jsonl`, names.csv, names.summary, names.manifest].map(
    (n) => join(folder, n),
  );
}

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
  const access = new AccessStoreFile(storeFilePath(join(storage, 'access'), portalId, p.acme));
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

  void test("chat's call log, the storage's own snapshots, staged drops and upload journals are listed and removed; a running upload's are not", async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const kept = await keepSome(p, storage, 'portal-a', 'one');
        const more = await keepMore(p, storage);
        const listed = await local.localDataOf(storage, { portalId: 'portal-a', baseUrl: p.emu.url });
        const expected = [kept.journal, kept.report, kept.access, ...more.mine, ...more.shared];
        assert.deepEqual(listed.map((f) => f.file).sort(), expected.sort());
        assert.deepEqual(
          listed
            .filter((f) => f.shared)
            .map((f) => f.file)
            .sort(),
          [...more.shared].sort(),
          "chat's call log and a drop no upload names are the extension's own, marked so",
        );
        assert.equal(await local.removeLocalData(listed), expected.length);
        for (const f of expected) await assert.rejects(stat(f), `${f} removed`);
        for (const f of more.others) assert.ok(await stat(f), `${f} kept`);
      }),
    );
  });

  void test("pruning removes old upload journals, own snapshots, drops and chat's call log; an unfinished upload keeps its drop", async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const now = Date.now();
        const more = await keepMore(p, storage);
        const aged = new Date(now - 100 * DAY);
        for (const f of [...more.mine, ...more.shared, ...more.others]) await utimes(f, aged, aged);
        await local.pruneLocalData(storage, 90, now);
        // The finished upload's journal and its drop, the orphan drop, the storage's own snapshots (of every portal)
        // and chat's call log go; the unfinished upload of portal-b and the running one keep their journals and drops.
        const [otherPortalSnapshot, ...needed] = more.others;
        for (const f of [...more.mine, ...more.shared, otherPortalSnapshot ?? ''])
          await assert.rejects(stat(f), `${f} pruned`);
        for (const f of needed) assert.ok(await stat(f), `${f} kept`);
      }),
    );
  });
});

/**
 * Beside an apply: chat's call log, a snapshot in the storage's own folder, upload journals (portal-a's finished one, portal-b's
 * unfinished one, portal-a's running one, locked) each with its staged drop, and a drop no upload names. `mine` is
 * portal-a's, `shared` the extension's own, `others` what portal-a's removal must leave (another portal's snapshot first).
 */
async function keepMore(p: Portal, storage: string) {
  new ToolCallLog(storage).record({ at: Date.now(), tool: 'members', input: { q: 'alice' }, outcome: 'answered' });
  const chat = join(storage, 'chat', 'tool-calls.jsonl');
  const member = await p.client.v3.members.get(p.acme, 'alice.muller');
  const v2 = await p.client.v2.members.get(p.acme, 'alice.muller');
  const snapshot = await writeSnapshot(join(storage, 'snapshots'), snapshotFrom(p.acme, member, v2, [], 1, p.emu.url));
  const elsewhere = await writeSnapshot(
    join(storage, 'snapshots'),
    snapshotFrom(p.acme, member, v2, [], 2, 'https://other.example'),
  );
  const upload = async (portalId: string, ended: boolean) => {
    const staged = await stageDropped(storage, [{ name: 'note.txt', bytes: new TextEncoder().encode('note\n') }]);
    const journal = await Journal.create(uploadJournal, join(storage, 'uploads'), {
      accountId: 1,
      portalId,
      origin: 'upload',
      startedAt: 0,
      target: { portalId, accountId: 1, groupId: 2, folderId: 0 },
      root: staged.folder,
      targetName: 'Engineering',
      work: [
        {
          seq: 0,
          path: 'note.txt',
          localPath: staged.paths[0] ?? '',
          size: 5,
          identity: { dev: 1, ino: 1, size: 5, mtimeMs: 0 },
          contentType: 'text/plain',
        },
      ],
    } as never);
    if (ended) await journal.append({ type: 'end', finishedAt: 1, cancelled: false });
    await journal.close();
    return { journal: journal.file, drop: staged.folder };
  };
  const finished = await upload('portal-a', true);
  const unfinished = await upload('portal-b', false);
  const running = await upload('portal-a', false);
  assert.equal((await unfinishedUploads(storage)).length, 2, 'where the uploads engine looks for its journals');
  const lock = await tryLock(running.journal);
  assert.ok(lock);
  const orphan = (await stageDropped(storage, [{ name: 'a.txt', bytes: new Uint8Array([1]) }])).folder;
  return {
    mine: [snapshot, finished.journal, finished.drop],
    shared: [chat, orphan],
    others: [elsewhere, unfinished.journal, unfinished.drop, running.journal, running.drop],
  };
}

void describe('local data: access reviews', () => {
  void test("a portal's access reviews and their evidence are listed and removed, and not pruned", async () => {
    await withStorage(async (storage) => {
      const mine = await keepReview(storage, 'portal-a');
      const theirs = await keepReview(storage, 'portal-bb');
      const listed = await local.localDataOf(storage, { portalId: 'portal-a', baseUrl: 'http://127.0.0.1:1' });
      assert.deepEqual(
        listed
          .filter((f) => f.kind === 'review')
          .map((f) => f.file)
          .sort(),
        [...mine].sort(),
      );
      for (const f of mine) assert.equal(await mode(f), 0o600, f);
      await local.pruneLocalData(storage, 1, Date.now() + 1000 * DAY);
      for (const f of mine) assert.ok(await stat(f), `${f} is evidence: not pruned`);
      assert.equal(await local.removeLocalData(listed), mine.length);
      for (const f of mine) await assert.rejects(stat(f), `${f} removed`);
      for (const f of theirs) assert.ok(await stat(f), `${f} kept`);
    });
  });
});

void describe('local data: a planted link leads nowhere', () => {
  void test('a journal that is a link is not offered, and a resume or discard never appends through it', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const { journal } = await keepSome(p, storage, 'portal-a', 'one');
        const text = await readFile(journal, 'utf8');
        const unfinished = text
          .split('\n')
          .filter((l) => !l.includes('"type":"end"'))
          .join('\n');
        const outside = tempDir('portal-outside-');
        try {
          const victim = join(outside, 'victim.jsonl');
          await writeFile(victim, unfinished, { mode: 0o644 });
          await rm(journal);
          await symlink(victim, journal);
          assert.deepEqual(await unfinishedJournals(storage), [], 'a link is not a journal of ours');
          const record = { file: journal } as Parameters<typeof discardJournal>[0];
          await assert.rejects(discardJournal(record), { name: 'UnsafePathError' });
          assert.equal(await readFile(victim, 'utf8'), unfinished, 'the linked file is untouched');
          assert.equal((await stat(victim)).mode & 0o777, 0o644);
        } finally {
          await rm(outside, { recursive: true, force: true });
        }
      }),
    );
  });

  void test('a journal, report, access or snapshot folder that is a link: no new file goes through it, no removal reaches it', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const kept = await keepSome(p, storage, 'portal-a', 'one');
        const outside = tempDir('portal-outside-');
        try {
          const aged = new Date(Date.now() - 100 * DAY);
          // Each folder moved out of the storage folder and a link left in its place.
          for (const name of ['journal', 'reports', 'access']) {
            await cp(join(storage, name), join(outside, name), { recursive: true });
            await rm(join(storage, name), { recursive: true });
            await symlink(join(outside, name), join(storage, name));
          }
          const member = await p.client.v3.members.get(p.acme, 'alice.muller');
          const v2 = await p.client.v2.members.get(p.acme, 'alice.muller');
          await mkdir(join(outside, 'snapshots'));
          await writeSnapshot(join(outside, 'snapshots'), snapshotFrom(p.acme, member, v2, [], 1, p.emu.url));
          await symlink(join(outside, 'snapshots'), join(storage, 'snapshots'));
          const victims = (await readdir(outside, { recursive: true, withFileTypes: true }))
            .filter((e) => e.isFile())
            .map((e) => join(e.parentPath, e.name));
          assert.equal(victims.length, 4, 'a journal, a report, an access store and a snapshot');
          for (const f of victims) await utimes(f, aged, aged);

          const listed = await local.localDataOf(storage, { portalId: 'portal-a', baseUrl: p.emu.url });
          assert.deepEqual(listed, [], 'nothing through a link is listed');
          await local.removeLocalData(
            [kept.journal, kept.report, kept.access].map((file) => ({
              file,
              kind: 'report',
              modified: 0,
              root: storage,
            })),
          );
          await local.pruneLocalData(storage, 90, Date.now());
          for (const f of victims) assert.ok(await stat(f), `${f} untouched`);
          await assert.rejects(writeSnapshot(join(storage, 'snapshots'), snapshotFrom(p.acme, member, v2, [], 3)), {
            name: 'UnsafePathError',
          });
          await assert.rejects(keepSome(p, storage, 'portal-a', 'two'), { name: 'UnsafePathError' });
          assert.deepEqual(
            (await readdir(join(outside, 'journal'))).filter((n) => n.endsWith('.jsonl')).length,
            1,
            'no journal was made through the link',
          );
        } finally {
          await rm(outside, { recursive: true, force: true });
        }
      }),
    );
  });
});
