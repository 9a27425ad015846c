// The Explorer's file commands, each run on our own rows (or from the palette, answering through the scripted Ui)
// and checked by what they did: a group's order and filters of its file records (rows, the group row's words, kept
// per group, and said to be ignored by a portal that keeps to the letter of the spec), disabled organisations
// hidden and shown, Go to File Record across groups (and silent once closed), a folder and a whole group
// downloaded byte for byte, files already there skipped or overwritten, and a cancel that leaves nothing half-written.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Emulator } from '../../../../emulator';
import type { FileRecord } from '../../../../../src/api';
import { DEFAULT_MAX_CONCURRENT } from '../../../../../src/api/scheduler';
import { isLiteral, PROFILES, startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { portalJson } from '../../../support/portalHttp';
import { byLabel, features, portalRow, rows, walk, type Provider, type Row } from '../../../support/tree';
import { visible, withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import { recordFact, recordPageState } from '../../../support/recordPage';
import { tempDir } from '../../../../support/tempDir';

const ACME = 1;
const GROUPS = { engineering: 101, marketing: 102, handbook: 103, social: 104 } as const;
/** Empty groups added to Acme, so a search has more groups than it asks at once (the client's 8). */
const QUIET_GROUPS = 20;
/** A reload lists the group again behind the rows on screen: bounded, generous for a loaded machine. */
const SETTLE_MS = 15_000;

interface ListedFile {
  id: number;
  name: string;
  contentType: string;
}
/** A file of the portal, as a download should write it. */
interface PortalFile {
  groupId: number;
  fileId: number;
}
const rowData = (r: Row) => (r.node as { row: Pick<FileRecord, 'size' | 'lastModified' | 'isFolder'> }).row;
const labels = (list: Row[]) => list.map((r) => r.label);
/** The rows of records, without the notice a portal that ignored the order gets. */
const records = (list: Row[]) => list.filter((r) => r.contextValue === 'file' || r.contextValue === 'folder');

for (const profile of PROFILES)
  describe(`Files: order and filters, disabled organisations, Go to File Record, folder download (${profile})`, function () {
    this.timeout(180_000);
    const literal = isLiteral(profile);
    let emu: Emulator;
    let portalId: string;
    let token: string;
    let explorer: Provider;
    const quiet: number[] = [];
    const tmp = tempDir('portal-files-');

    const group = (label: string) => walk(explorer, portalId, ['Acme Corporation', label]);
    const descriptionOf = async (label: string) => (await group(label)).description;

    /** The group's rows once they are the ones `done` accepts (a reload shows the old rows until the new ones are in). */
    const settled = async (label: string, done: (list: Row[]) => boolean, what: string): Promise<Row[]> => {
      let list: Row[] = [];
      await waitFor(
        async () => done((list = await rows(explorer, (await group(label)).node))),
        `${label} ${what} (rows: ${labels(list).join(', ')})`,
        SETTLE_MS,
      );
      return list;
    };
    const noticeOf = (list: Row[]) => list.find((r) => r.contextValue === 'empty' && r.icon === 'warning')?.label;

    /** Every file below a folder of the portal (0: the group's root), by its path from there, read over HTTP. */
    const portalFiles = async (groupId: number, folderId: number, prefix: string): Promise<Map<string, PortalFile>> => {
      const out = new Map<string, PortalFile>();
      const at =
        folderId === 0
          ? `/v2/accounts/${ACME}/groups/${groupId}/files?size=100`
          : `/v2/accounts/${ACME}/groups/${groupId}/files/${folderId}/children?size=100`;
      const res = await portalJson<{ page: ListedFile[] }>(emu.url, token, 'GET', at);
      assert.equal(res.status, 200);
      for (const f of res.body.page) {
        const p = `${prefix}/${f.name}`;
        if (f.contentType === '@folder') {
          for (const [k, v] of await portalFiles(groupId, f.id, p)) out.set(k, v);
        } else out.set(p, { groupId, fileId: f.id });
      }
      return out;
    };
    const bytesOf = async ({ groupId, fileId }: PortalFile): Promise<Buffer> => {
      const res = await fetch(`${emu.url}/v3/groups/${groupId}/files/${fileId}/download`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.status, 200);
      return Buffer.from(await res.arrayBuffer());
    };
    /** Every entry below a local folder, by its path from there with "/" (folders end with "/"). */
    const localTree = (dir: string): string[] =>
      fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .map(
          (e) =>
            `${path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')}${e.isDirectory() ? '/' : ''}`,
        )
        .sort();
    /** The local files are exactly the portal's, byte for byte (`except`: paths expected to hold something else). */
    const assertSameFiles = async (
      dir: string,
      expected: Map<string, PortalFile>,
      except: Record<string, string> = {},
    ) => {
      const files = localTree(dir).filter((p) => !p.endsWith('/'));
      assert.deepEqual(files, [...expected.keys()].sort(), "the files written are the portal's, and nothing else");
      for (const [p, f] of expected) {
        const local = fs.readFileSync(path.join(dir, ...p.split('/')));
        if (p in except) assert.equal(local.toString('utf8'), except[p], `${p} is kept`);
        else assert.deepEqual(local, await bytesOf(f), `${p} holds the portal's bytes`);
      }
    };

    before(async () => {
      ({ emu, portalId, token } = await startDemoPortal({ profile }));
      explorer = (await features()).explorer.provider as unknown as Provider;
      // Only the default profile's run proves the search stops: the literal one would prove it again on the same path.
      if (literal) return;
      for (let i = 1; i <= QUIET_GROUPS; i++) {
        const name = `zz-quiet-${String(i).padStart(2, '0')}`;
        const created = await portalJson(emu.url, token, 'POST', `/v2/accounts/${ACME}/groups`, {
          name,
          friendlyName: name,
        });
        assert.equal(created.status, 200, JSON.stringify(created.body));
      }
      // The v2 create answers without the new group's id: the list has it.
      const all = await portalJson<Array<{ id: number; name: string }>>(
        emu.url,
        token,
        'GET',
        `/v2/accounts/${ACME}/groups`,
      );
      quiet.push(...all.body.filter((g) => g.name.startsWith('zz-quiet-')).map((g) => g.id));
      assert.equal(quiet.length, QUIET_GROUPS);
    });

    after(async () => {
      emu.clearFaults();
      if ((await features()).explorer.provider.state.hideDisabledAccounts)
        await vscode.commands.executeCommand('portal.explorer.showDisabledAccounts');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await stopDemoPortal({ emu, portalId });
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it("orders a group's file records as chosen, says so on the group row, and keeps each group's order", async () => {
      const nameOrder = ['config.json', 'docs', 'README.md', 'releases.csv', 'src'];
      assert.deepEqual(labels(records(await rows(explorer, (await group('Engineering')).node))), nameOrder);
      await withUi({ 'files.order': ['Size, largest first', 'Modified, oldest first'] }, async (ui) => {
        await vscode.commands.executeCommand('portal.group.orderFiles', (await group('Engineering')).node);
        await vscode.commands.executeCommand('portal.group.orderFiles', (await group('Marketing')).node);
        assert.deepEqual(ui.questions, ['files.order', 'files.order']);
        // The second question marks the first group's choice only in that group: Marketing was still by name.
        assert.deepEqual(ui.asked[1]?.items, [
          'Name, A to Z',
          'Name, Z to A',
          'Modified, newest first',
          'Modified, oldest first',
          'Size, largest first',
          'Size, smallest first',
        ]);
        assert.ok(
          ui.asked[1]?.texts.includes('current') &&
            visible(ui.asked[1].texts[ui.asked[1].texts.indexOf('current') - 1] ?? '') === 'Name, A to Z',
        );
      });
      if (literal) {
        // The portal lists by name whatever it is asked: the view says so rather than claim an order it does not show.
        const list = await settled(
          'Engineering',
          (l) => noticeOf(l) !== undefined,
          'says the portal ignored the order',
        );
        assert.equal(noticeOf(list), 'This portal ignored largest first: the rows are as it listed them.');
        assert.deepEqual(labels(records(list)), nameOrder);
        assert.match(await descriptionOf('Engineering'), /^\d+ members · largest first \(not applied by the portal\)$/);
        // One file on Marketing's root: nothing on the page shows whether the order was applied.
        assert.match(await descriptionOf('Marketing'), /^\d+ members · oldest first$/);
      } else {
        const engineering = await settled('Engineering', (l) => l[0]?.label === 'README.md', 'by size, largest first');
        // The files by size, largest first; folders (no size) after them.
        assert.deepEqual(labels(records(engineering)), ['README.md', 'releases.csv', 'config.json', 'docs', 'src']);
        const sizes = records(engineering).map((r) => rowData(r).size ?? 0);
        assert.deepEqual(
          sizes,
          [...sizes].sort((a, b) => b - a),
        );
        assert.equal(noticeOf(engineering), undefined);
        assert.match(await descriptionOf('Engineering'), /^\d+ members · largest first$/);
        const marketing = await settled(
          'Marketing',
          (l) => l[0]?.label === 'notes.txt',
          'by modification, oldest first',
        );
        assert.deepEqual(labels(records(marketing)), ['notes.txt', 'campaigns', 'brand']);
        assert.match(await descriptionOf('Marketing'), /^\d+ members · oldest first$/);
      }
      // Kept per group: the others are as they were, and a refresh of the whole view asks again in each group's order.
      assert.match(await descriptionOf('Employee Handbook'), /^\d+ members$/);
      assert.deepEqual(labels(records(await rows(explorer, (await group('Employee Handbook')).node))), [
        'holidays.json',
        'policies',
        'welcome.md',
      ]);
      await vscode.commands.executeCommand('portal.explorer.refresh');
      if (!literal)
        assert.deepEqual(labels(records(await rows(explorer, (await group('Engineering')).node))), [
          'README.md',
          'releases.csv',
          'config.json',
          'docs',
          'src',
        ]);
      assert.match(await descriptionOf('Engineering'), /largest first/);
    });

    it("filters a group's file records to folders only and to those modified since a date, then clears them", async () => {
      const all = ['holidays.json', 'policies', 'welcome.md'];
      await withUi({ 'files.filter': 'Folders Only' }, async () =>
        vscode.commands.executeCommand('portal.group.filterFiles', (await group('Employee Handbook')).node),
      );
      if (literal) {
        const list = await settled(
          'Employee Handbook',
          (l) => noticeOf(l) !== undefined,
          'says the portal ignored the filter',
        );
        assert.equal(noticeOf(list), 'This portal ignored folders only: the rows are as it listed them.');
        assert.deepEqual(labels(records(list)), all);
        assert.match(
          await descriptionOf('Employee Handbook'),
          /^\d+ members · folders only \(not applied by the portal\)$/,
        );
      } else {
        await settled('Employee Handbook', (l) => labels(records(l)).join() === 'policies', 'folders only');
        assert.match(await descriptionOf('Employee Handbook'), /^\d+ members · folders only$/);
      }

      // A date that is not one is refused, and nothing changes; then files and folders again, modified since 2024-11-01.
      await withUi({ 'files.filter': 'Modified Since…', 'files.modifiedSince': 'last week' }, async (ui) => {
        await vscode.commands.executeCommand('portal.group.filterFiles', (await group('Employee Handbook')).node);
        assert.deepEqual(
          ui.refused.map((r) => r.problem),
          ['Type a date as YYYY-MM-DD, or YYYY-MM-DD HH:MM.'],
        );
      });
      assert.match(await descriptionOf('Employee Handbook'), /folders only/);
      await withUi(
        { 'files.filter': ['Show Files and Folders', 'Modified Since…'], 'files.modifiedSince': '2024-11-01' },
        async () => {
          await vscode.commands.executeCommand('portal.group.filterFiles', (await group('Employee Handbook')).node);
          await vscode.commands.executeCommand('portal.group.filterFiles', (await group('Employee Handbook')).node);
        },
      );
      if (literal) {
        const list = await settled(
          'Employee Handbook',
          (l) => /modified since 2024-11-01/.test(noticeOf(l) ?? ''),
          'says the portal ignored the date',
        );
        assert.deepEqual(labels(records(list)), all);
        assert.match(
          await descriptionOf('Employee Handbook'),
          /^\d+ members · modified since 2024-11-01 \(not applied by the portal\)$/,
        );
      } else {
        // welcome.md was last modified in October.
        await settled(
          'Employee Handbook',
          (l) => labels(records(l)).join() === 'holidays.json,policies',
          'modified since 2024-11-01',
        );
        assert.match(await descriptionOf('Employee Handbook'), /^\d+ members · modified since 2024-11-01$/);
      }

      await withUi({ 'files.filter': 'Clear Filters' }, async () =>
        vscode.commands.executeCommand('portal.group.filterFiles', (await group('Employee Handbook')).node),
      );
      const cleared = await settled(
        'Employee Handbook',
        (l) => labels(l).join() === all.join(),
        'all records again, with no notice',
      );
      assert.equal(noticeOf(cleared), undefined);
      assert.match(await descriptionOf('Employee Handbook'), /^\d+ members$/);
    });

    it("hides and shows disabled organisations from the view's title menu, without asking the portal again", async () => {
      const { view } = (await features()).explorer;
      const accounts = async () => labels(await rows(explorer, (await portalRow(explorer, portalId)).node));
      assert.deepEqual((await accounts()).sort(), ['Acme Corporation', 'Globex Research', 'Initech (archived)']);
      emu.resetStats();
      await vscode.commands.executeCommand('portal.explorer.hideDisabledAccounts');
      assert.deepEqual((await accounts()).sort(), ['Acme Corporation', 'Globex Research']);
      assert.equal(view.description, 'disabled organisations hidden');
      await vscode.commands.executeCommand('portal.explorer.showDisabledAccounts');
      assert.deepEqual((await accounts()).sort(), ['Acme Corporation', 'Globex Research', 'Initech (archived)']);
      assert.equal(view.description, undefined);
      assert.deepEqual(
        Object.keys(emu.stats().byRoute).filter((r) => !r.includes('/oauth/token')),
        [],
        'userinfo says which are enabled',
      );
    });

    it('Go to File Record lists matches from several groups as each answers, and opens the record chosen', async () => {
      const acme = await walk(explorer, portalId, ['Acme Corporation']);
      const answer = { search: 'csv', pick: 'events.csv', button: 'Open File Record' };
      const opened = await withUi({ 'goto.file': answer }, async (ui) => {
        const file = await vscode.commands.executeCommand<{ group: { groupId: number }; name: string }>(
          'portal.goToFileRecord',
          acme.node,
        );
        const q = ui.asked.find((a) => a.id === 'goto.file');
        // A portal that keeps to the letter searches nothing below a group's root: budget.csv is in a subfolder.
        const expected = literal ? ['events.csv', 'releases.csv'] : ['budget.csv', 'events.csv', 'releases.csv'];
        assert.deepEqual([...(q?.items ?? [])].sort(), expected);
        assert.equal(q?.batches?.length, expected.length, 'one batch per group with matches, as each group answered');
        for (const where of ['Engineering', 'Social Club'])
          assert.ok(
            q?.texts.some((t) => visible(t).startsWith(`${where} · `)),
            `a row says it is in ${where}: ${q?.texts.join(' | ')}`,
          );
        return file;
      });
      assert.equal(opened.group.groupId, GROUPS.social);
      const record = await recordPageState('events.csv');
      assert.equal(recordFact(record, 'Path'), 'Social Club / events.csv');
    });

    if (!literal)
      it('Go to File Record asks the portal nothing more once the pick is closed', async () => {
        const acme = await walk(explorer, portalId, ['Acme Corporation']);
        const fileLists = () => emu.stats().byRoute['GET /v2/accounts/:account/groups/:group/files'] ?? 0;
        // The quiet groups answer slowly: when the first match is in, the search is still waiting on them.
        const SLOW_MS = 600;
        emu.setFaults(
          quiet.map((id) => ({
            kind: 'latency' as const,
            delayMs: SLOW_MS,
            path: `/v2/accounts/${ACME}/groups/${id}/files`,
          })),
        );
        emu.resetStats();
        const started = Date.now();
        let closedAfterMs = 0;
        try {
          await withUi({ 'goto.file': { search: 'csv', closeAfterBatches: 1 } }, async (ui) => {
            await vscode.commands.executeCommand('portal.goToFileRecord', acme.node);
            closedAfterMs = Date.now() - started;
            assert.deepEqual(ui.asked.find((a) => a.id === 'goto.file')?.batches?.length, 1);
          });
          // An absence has no event to wait for. This request starts after the pick closed and answers after every
          // request the search had in flight has answered, and after any request it would send once they had.
          emu.setFaults([
            { kind: 'latency', delayMs: 2 * SLOW_MS, path: `/v2/accounts/${ACME}/groups/${quiet.at(-1)}/files` },
          ]);
          assert.equal(
            (await portalJson(emu.url, token, 'GET', `/v2/accounts/${ACME}/groups/${quiet.at(-1)}/files`)).status,
            200,
          );
        } finally {
          emu.clearFaults();
        }
        const asked = fileLists() - 1;
        // Before the pick closed, the search can have asked the four demo groups (they answer at once), then one quiet
        // group per slot of the client, and one more per slot each time quiet groups answered (once per SLOW_MS).
        // Counted as they reach the portal, which a request sent just before the close may do just after it.
        const couldHaveAsked = 4 + DEFAULT_MAX_CONCURRENT * (1 + Math.floor(closedAfterMs / SLOW_MS));
        const groups = 4 + QUIET_GROUPS;
        assert.ok(
          asked > 0 && asked <= couldHaveAsked,
          `${asked} of ${groups} groups asked; at most ${couldHaveAsked} could have been before the pick closed after ${closedAfterMs} ms`,
        );
      });

    it('downloads a folder with its subfolders, and a whole group, byte for byte', async () => {
      const docs = byLabel(await rows(explorer, (await group('Engineering')).node), 'docs');
      const docsId = (docs.node as { ref: { fileId: number } }).ref.fileId;
      const dir = fs.mkdtempSync(path.join(tmp, 'folder-'));
      await withUi({ 'folderDownload.folder': [dir, dir] }, async (ui) => {
        const summary = await vscode.commands.executeCommand<{ written: unknown[] }>(
          'portal.folder.download',
          docs.node,
        );
        assert.equal(summary.written.length, 2);
        await vscode.commands.executeCommand('portal.group.download', (await group('Marketing')).node);
        assert.deepEqual(
          ui.questions,
          ['folderDownload.folder', 'folderDownload.folder'],
          'nothing was there: no question about existing files (the summaries are told, not asked)',
        );
        const done = ui.asked.filter((a) => a.id === 'folderDownload.done').map((a) => visible(a.texts[0] ?? ''));
        assert.match(
          done[0] ?? '',
          new RegExp(`^Downloaded docs to ${escape(path.join(dir, 'docs'))}\\. 2 files written \\(`),
        );
        assert.match(done[1] ?? '', /^Downloaded Marketing to .*\. 5 files written \(/);
      });
      const docsFiles = await portalFiles(GROUPS.engineering, docsId, 'docs');
      assert.deepEqual([...docsFiles.keys()].sort(), ['docs/architecture.md', 'docs/diagrams/overview.png']);
      const marketingFiles = await portalFiles(GROUPS.marketing, 0, 'Marketing');
      assert.equal(marketingFiles.size, 5);
      await assertSameFiles(dir, new Map([...docsFiles, ...marketingFiles]));
      assert.ok(localTree(dir).includes('Marketing/campaigns/2025/'), 'subfolders two levels down');
    });

    it('files already there are skipped or overwritten, as answered once for all of them', async () => {
      const dir = fs.mkdtempSync(path.join(tmp, 'existing-'));
      const expected = await portalFiles(GROUPS.handbook, 0, 'Employee Handbook');
      assert.equal(expected.size, 5);
      const mine = {
        'Employee Handbook/welcome.md': 'my welcome',
        'Employee Handbook/policies/leave.md': 'my leave notes',
      };
      for (const [p, text] of Object.entries(mine)) {
        fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
        fs.writeFileSync(path.join(dir, p), text);
      }
      const handbook = (await group('Employee Handbook')).node;
      await withUi({ 'folderDownload.folder': dir, 'folderDownload.existing': 'skip' }, async (ui) => {
        const summary = await vscode.commands.executeCommand<{ written: unknown[]; skipped: unknown[] }>(
          'portal.group.download',
          handbook,
        );
        assert.deepEqual([summary.written.length, summary.skipped.length], [3, 2]);
        assert.deepEqual(
          ui.questions.filter((q) => q === 'folderDownload.existing'),
          ['folderDownload.existing'],
          'asked once for both',
        );
        assert.match(
          visible(ui.asked.find((a) => a.id === 'folderDownload.existing')?.texts[0] ?? ''),
          /^2 of the 5 files are already in /,
        );
      });
      await assertSameFiles(dir, expected, mine);
      await withUi({ 'folderDownload.folder': dir, 'folderDownload.existing': 'overwrite' }, async (ui) => {
        const summary = await vscode.commands.executeCommand<{ written: unknown[] }>('portal.group.download', handbook);
        assert.equal(summary.written.length, 5);
        assert.match(
          visible(ui.asked.find((a) => a.id === 'folderDownload.existing')?.texts[0] ?? ''),
          /^5 of the 5 files are already in /,
        );
        assert.equal(ui.questions.filter((q) => q === 'folderDownload.existing').length, 1);
      });
      await assertSameFiles(dir, expected);
    });

    it('a download cancelled while files are arriving leaves no partial or temporary file', async () => {
      const dir = fs.mkdtempSync(path.join(tmp, 'cancel-'));
      // The portal sends each file a byte at a time and never ends it: the cancel comes while files are half-written.
      emu.setFaults([{ kind: 'drip', delayMs: 20, path: `/v3/groups/${GROUPS.social}/files` }]);
      try {
        await withUi(
          { 'folderDownload.folder': dir, 'folderDownload.progress': { cancelAfterReports: 1 } },
          async (ui) => {
            const summary = await vscode.commands.executeCommand<{ written: unknown[]; cancelled: unknown[] }>(
              'portal.group.download',
              (await group('Social Club')).node,
            );
            assert.deepEqual([summary.written.length, summary.cancelled.length], [0, 3]);
            const done = visible(ui.asked.find((a) => a.id === 'folderDownload.done')?.texts[0] ?? '');
            assert.match(
              done,
              /^Download of Social Club cancelled\. 0 files written .* 3 not downloaded: cancelled\. No partial file was left\./,
            );
          },
        );
      } finally {
        emu.clearFaults();
      }
      // Folders may stay; no file, finished or not, and no temporary one.
      assert.deepEqual(
        localTree(dir).filter((p) => !p.endsWith('/')),
        [],
      );
    });
  });

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
