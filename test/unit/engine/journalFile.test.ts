// A journal is run by one writer at a time, across processes, and is read as a file anyone could have edited: two
// resumes of the same journal at once send each request once; a running apply is never offered as interrupted; a
// resume shows what remains before sending; an edited journal is refused; the files are the user's alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFile, chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isPortalError } from '../../../src/api';
import { applyPlan } from '../../../src/engine/members/apply';
import {
  journalFolderOf,
  memberJournal,
  readJournal,
  resumeApply,
  unfinishedJournals,
} from '../../../src/engine/members/index';
import { Journal, listJournals, readJournal as readJournalOf } from '../../../src/engine/journalFile';
import { settingsJournal } from '../../../src/engine/settings/journalSchema';
import { parseMembersFile } from '../../../src/features/members/plan/core/file/membersFile';
import { allChanges, type Plan } from '../../../src/features/members/plan/core/model';
import { makePlan } from '../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../src/features/members/plan/core/portalState';
import { writeReport } from '../../../src/features/members/plan/core/report';
import {
  apiRequests,
  exportText,
  Table,
  withPortal,
  withStorage,
  type Portal,
} from '../features/members/plan/core/helpers';

import { applyAndKill, CHILD_PATIENCE_MS } from './members/killedApply';

const PATCH = /^PATCH \/v3\/accounts\/:account\/members\/:/;
const run = promisify(execFile);

/** Plans a tag change for every acme member and applies it in a child process, killed halfway. */
async function killedHalfway(p: Portal, storage: string, tag: string): Promise<string[]> {
  const table = new Table(await exportText(p));
  const names = table.rows.slice(1).map((r) => r[0] ?? '');
  for (const name of names) table.set(name, 'Tags', `${tag}, ${name}`);
  p.emu.resetStats();
  await applyAndKill(p, table.text(), storage, Math.floor(names.length / 2));
  return names;
}

function resumeInChild(p: Portal, file: string, storage: string): Promise<string> {
  const child = join(import.meta.dirname, 'members', 'resumeChild.ts');
  return run(process.execPath, ['--import', 'tsx', child, p.emu.url, file, storage], {
    timeout: CHILD_PATIENCE_MS,
  }).then((r) => r.stdout);
}

async function planAll(p: Portal, tag: string): Promise<{ plan: Plan; names: string[] }> {
  const table = new Table(await exportText(p));
  const names = table.rows.slice(1).map((r) => r[0] ?? '');
  for (const name of names) table.set(name, 'Tags', `${tag}, ${name}`);
  const file = parseMembersFile(table.text());
  return { plan: makePlan(file, await readPortalState(p.client, p.acme, file)), names };
}

void describe('journal: one writer, checked, private', () => {
  void test('two processes resuming the same journal at once: each request reaches the portal once', async () => {
    await withPortal(
      async (p) =>
        withStorage(async (storage) => {
          const names = await killedHalfway(p, storage, 'twice');
          const [record] = await unfinishedJournals(storage);
          assert.ok(record, 'the killed apply is offered');
          const answers = await Promise.all([
            resumeInChild(p, record.file, storage),
            resumeInChild(p, record.file, storage),
          ]);
          assert.equal(
            apiRequests(p.emu, PATCH),
            names.length,
            `one PATCH per member, no extra (${answers.join(', ')})`,
          );
          const lines = (await readFile(record.file, 'utf8')).split('\n').filter((l) => l !== '');
          for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `a whole line: ${line.slice(0, 80)}`);
          assert.equal(lines.filter((l) => l.includes('"type":"end"')).length, 1, 'one end line');
          for (const name of names)
            assert.deepEqual((await p.client.v3.members.get(p.acme, name)).tags, ['twice', name]);
        }),
      { latencyMs: 20 },
    );
  });

  void test('a running apply is not offered as interrupted, and cannot be resumed while it runs', async () => {
    await withPortal(
      async (p) =>
        withStorage(async (storage) => {
          const { plan } = await planAll(p, 'running');
          let checked: Promise<void> | undefined;
          const result = await applyPlan(p.client, plan, {
            journalFolder: storage,
            portalId: 'test',
            concurrency: 2,
            onProgress: () => {
              checked ??= (async () => {
                assert.deepEqual(await unfinishedJournals(storage), [], 'a running apply is not interrupted');
                const [name] = await readdir(journalFolderOf(storage));
                const file = join(journalFolderOf(storage), name ?? '');
                await assert.rejects(
                  resumeApply(p.client, { file }, { journalFolder: storage, confirm: async () => true }),
                  (e: unknown) => isPortalError(e, 'conflict'),
                );
              })();
            },
          });
          await checked;
          assert.ok(result.rows.every((r) => r.result === 'done'));
        }),
      { latencyMs: 20 },
    );
  });

  void test('a resume shows the plan of what remains and sends nothing when it is declined', async () => {
    await withPortal(
      async (p) =>
        withStorage(async (storage) => {
          const names = await killedHalfway(p, storage, 'shown');
          const [record] = await unfinishedJournals(storage);
          assert.ok(record);
          const before = apiRequests(p.emu);
          let shown: Plan | undefined;
          await assert.rejects(
            resumeApply(p.client, record, {
              journalFolder: storage,
              confirm: async (remaining) => {
                shown = remaining;
                return false;
              },
            }),
            (e: unknown) => isPortalError(e, 'cancelled'),
          );
          assert.equal(apiRequests(p.emu) - before, 0, 'nothing sent');
          const remaining = new Set(allChanges(shown as Plan).map((c) => c.username));
          assert.equal(remaining.size, names.length - record.outcomes.size, 'every member without an outcome is shown');
          assert.equal((await unfinishedJournals(storage)).length, 1, 'still offered afterwards');
        }),
      { latencyMs: 20 },
    );
  });

  void test('an edited journal is refused before anything is sent: a value out of range, an id that is a path', async () => {
    await withPortal(
      async (p) =>
        withStorage(async (storage) => {
          await killedHalfway(p, storage, 'edited');
          const [record] = await unfinishedJournals(storage);
          assert.ok(record);
          const text = await readFile(record.file, 'utf8');
          // A password (never journaled) and a permission that is none slipped into a planned request.
          const edited = text.replace(
            '"method":"v3.update","body":{',
            '"method":"v3.update","body":{"password":"x","permission":99,',
          );
          assert.notEqual(edited, text);
          await writeFile(record.file, edited);
          const before = apiRequests(p.emu);
          await assert.rejects(
            resumeApply(p.client, record, { journalFolder: storage, confirm: async () => true }),
            (e: unknown) => isPortalError(e, 'invalid-input'),
          );
          assert.equal(apiRequests(p.emu) - before, 0);
          // An id that would put the report outside reports/.
          await writeFile(record.file, text.replaceAll(record.applyId, '../../../escaped'));
          await assert.rejects(readJournal(record.file));
          assert.deepEqual(await unfinishedJournals(storage), [], 'an edited journal is not offered');
        }),
      { latencyMs: 5 },
    );
  });

  void test('a torn last line does not swallow the next: resumed, every line is whole', async () => {
    await withPortal(
      async (p) =>
        withStorage(async (storage) => {
          await killedHalfway(p, storage, 'torn');
          const [record] = await unfinishedJournals(storage);
          assert.ok(record);
          await appendFile(record.file, '{"type":"outcome","seq":');
          const result = await resumeApply(p.client, record, { journalFolder: storage, confirm: async () => true });
          assert.ok(result.rows.every((r) => r.result === 'done'));
          const lines = (await readFile(record.file, 'utf8')).split('\n').filter((l) => l !== '');
          for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `a whole line: ${line.slice(0, 80)}`);
          assert.equal((await readJournal(record.file)).outcomes.size, record.begin.work.length, 'every outcome kept');
        }),
      { latencyMs: 5 },
    );
  });

  void test("journals, reports and their folders are the user's alone (0600 in 0700), old folders tightened", async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        // A folder an earlier version made with the umask's modes.
        await mkdir(journalFolderOf(storage), { recursive: true, mode: 0o755 });
        await chmod(journalFolderOf(storage), 0o755);
        const { plan } = await planAll(p, 'private');
        const result = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test' });
        const mode = async (f: string) => (await stat(f)).mode & 0o777;
        assert.equal(await mode(journalFolderOf(storage)), 0o700);
        assert.equal(await mode(result.journalFile), 0o600);
        const report = join(storage, 'report.csv');
        await writeReport(report, result.rows);
        assert.equal(await mode(report), 0o600);
        // A journal an earlier version left readable by others is tightened on its handle when it is next appended to.
        await chmod(result.journalFile, 0o644);
        const { journal } = await Journal.reopen(memberJournal, { file: result.journalFile });
        await journal.close();
        assert.equal(await mode(result.journalFile), 0o600);
      }),
    );
  });
});

void describe('journal: each kind reads its own, by its own schema', () => {
  /** A journal file as a version of the extension wrote it, line by line. */
  async function written(folder: string, applyId: string, lines: object[]): Promise<string> {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const file = join(folder, `${applyId}.jsonl`);
    await writeFile(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o600 });
    return file;
  }

  void test('a members journal from before first lines named a kind is read as the members’ and resumable', () =>
    withStorage(async (storage) => {
      const applyId = '01795779965452-b3220c9d';
      const file = await written(journalFolderOf(storage), applyId, [
        {
          type: 'begin',
          applyId,
          accountId: 1,
          portalId: 'p1',
          origin: 'file',
          startedAt: 1,
          work: [
            {
              seq: 0,
              username: 'mia',
              action: 'update',
              changeIds: ['mia#field:tags'],
              before: null,
              after: { fields: { tags: ['a'] }, groups: {} },
              requests: [{ method: 'v3.update', body: { tags: ['a'] } }],
              groupNames: {},
              permanent: false,
            },
          ],
        },
      ]);
      const record = await readJournal(file);
      assert.equal(record.begin.work[0]?.username, 'mia');
      assert.deepEqual(
        (await unfinishedJournals(storage)).map((r) => r.applyId),
        [applyId],
        'offered for resume like any other',
      );
      await assert.rejects(readJournalOf(settingsJournal, file), (e) => isPortalError(e) && e.kind === 'invalid-input');
    }));

  void test('a settings journal is never read as the members’, nor a members journal as the settings’', () =>
    withStorage(async (storage) => {
      const applyId = '01795779965453-0123abcd';
      const folder = journalFolderOf(storage);
      const file = await written(folder, applyId, [
        {
          type: 'begin',
          applyId,
          kind: 'settings',
          accountId: 1,
          portalId: 'p1',
          origin: 'form',
          startedAt: 1,
          title: 'Rename the group Social',
          work: [
            {
              seq: 0,
              label: 'the group Social',
              change: { resource: 'group', action: 'update', groupId: 3, body: { friendlyName: 'Socials' } },
            },
          ],
        },
        { type: 'intent', seq: 0, before: { friendlyName: 'Social' }, requests: [] },
      ]);
      const settings = await readJournalOf(settingsJournal, file);
      assert.deepEqual(settings.intents.get(0)?.before, { friendlyName: 'Social' });
      assert.equal((await listJournals(settingsJournal, storage)).length, 1);
      await assert.rejects(readJournal(file), (e) => isPortalError(e) && /not a journal of this kind/.test(e.message));
      assert.deepEqual(await unfinishedJournals(storage), [], 'the members’ resume never offers it');
    }));
});
