import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type { RecordState } from '../../../../../src/features/records/documents/page/record.protocol';
import type { FileRef } from '../../../../../src/shared/refs';
import { isLiteral, PROFILES } from '../../../support/demoPortal';
import {
  lastPosted,
  posted,
  postedTypes,
  requestCount,
  useFormsFixture,
  type FormsFixture,
} from '../../../support/forms';
import { features, tooltipOf, walk, type Provider, type Row } from '../../../support/tree';
import { withUi } from '../../../support/ui';
import { recordFact, recordPageState, recordPages } from '../../../support/recordPage';
import { tempDir } from '../../../../support/tempDir';

type RecordPanel = FormPanel<RecordState, null>;

/** Clicks a file row as a person does (its own command) and returns the record page it opened, loaded. */
async function click(row: Row): Promise<RecordPanel> {
  assert.equal(row.command?.command, 'portal.file.openRecord');
  await vscode.commands.executeCommand(row.command.command, ...(row.command.arguments ?? []));
  const pages = await recordPages();
  assert.equal(pages.length, 1, 'one record page');
  const page = pages[0]!;
  posted(page);
  await page.whenLoaded();
  return page;
}

const fact = recordFact;

for (const profile of PROFILES)
  describe(`File records: the record page (${profile})`, function () {
    this.timeout(180_000);
    let f: FormsFixture;
    let explorer: Provider;
    const tmp = tempDir('portal-record-page-');
    const literal = isLiteral(profile);

    useFormsFixture((x) => (f = x), { profile });
    before(async () => {
      explorer = (await features()).explorer.provider as unknown as Provider;
    });
    afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
    after(() => fs.rmSync(tmp, { recursive: true, force: true }));

    const readme = () => walk(explorer, f.portalId, ['Acme Corporation', 'Engineering', 'README.md']);
    const refOf = (row: Row): FileRef => (row.node as { ref: FileRef }).ref;
    const download = async (groupId: number, fileId: number): Promise<Buffer> => {
      const res = await fetch(`${f.emu.url}/v3/groups/${groupId}/files/${fileId}/download`, {
        headers: { authorization: `Bearer ${f.token}` },
      });
      assert.equal(res.status, 200);
      return Buffer.from(await res.arrayBuffer());
    };

    it("a click on a file opens a page titled by the file's name: details readable, ids only under Details, size once", async () => {
      const row = await readme();
      const page = await click(row);
      const ref = refOf(row);
      assert.equal(page.panel.title, 'README.md');
      assert.equal(vscode.window.activeTextEditor, undefined, 'no Markdown source opened');
      const state = await page.whenLoaded();
      assert.equal(state.title, 'README.md');
      assert.match(state.summary, /^File record on .+\.$/);
      assert.equal(state.isFolder, false);
      assert.equal(fact(state, 'Path'), 'Engineering / README.md');
      assert.match(fact(state, 'Size') ?? '', /^\d+(\.\d)? (bytes|KB)$/, 'the size, once');
      const shown = state.sections.flatMap((s) => s.rows.map(([, v]) => v));
      assert.ok(!shown.includes(String(ref.fileId)), 'no id among the details a person reads');
      assert.deepEqual(
        state.details.rows.map(([label, value]) => [label, value]),
        [
          ['File record id', String(ref.fileId)],
          ['Group id', String(f.groups.engineering)],
          ['Organisation id', String(f.acme)],
        ],
      );
      if (literal) {
        assert.match(state.notices.join(' '), /offers no read of a single file record/);
        assert.equal(fact(state, 'Uploaded by'), 'not in the listing');
      } else {
        assert.deepEqual(state.notices, []);
        assert.equal(fact(state, 'Uploaded by'), 'Dana Demo');
        assert.equal(fact(state, 'Tags'), 'docs, onboarding');
      }
      // The webview gets the state once it says it is ready, never before.
      await page.handleMessage({ type: 'ready' });
      assert.equal(lastPosted<{ state: RecordState }>(page, 'init')?.state.title, 'README.md');
    });

    it("a record's sharing and member permission on its page", async () => {
      // In words from the spec's content masks and the observed sharing values, on the page and in the row's tooltip.
      const expected: Array<[string, string, string]> = [
        ['README.md', 'nobody', 'View, edit and delete'],
        ['releases.csv', "the group's members", 'View and edit'],
        ['config.json', 'nobody', 'View only'],
      ];
      for (const [name, sharedWith, permission] of expected) {
        const row = await walk(explorer, f.portalId, ['Acme Corporation', 'Engineering', name]);
        await (await features()).records.open({ kind: 'record', file: refOf(row) });
        const state = await recordPageState(name);
        assert.equal(fact(state, 'Shared with'), sharedWith, name);
        assert.equal(fact(state, 'Member permission'), permission, name);
        const tip = await tooltipOf(explorer, row);
        assert.ok(tip.includes(`Shared with: ${sharedWith}`), tip);
        assert.ok(tip.includes(`Member permission: ${permission}`), tip);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      }
      const budget = await walk(explorer, f.portalId, [
        'Acme Corporation',
        'Marketing',
        'campaigns',
        '2025',
        'budget.csv',
      ]);
      assert.match(await tooltipOf(explorer, budget), /Member permission: View, edit and delete/);
    });

    it('opening the same record again reuses its page, with what the portal says now', async () => {
      const row = await readme();
      const first = await click(row);
      const before = f.emu.stats().requests;
      const again = await click(row);
      assert.equal(again, first, 'the same page');
      assert.equal((await recordPages()).length, 1);
      assert.ok(f.emu.stats().requests > before, 'read again');
    });

    it('"Open Content" on the page opens the content in an editor, exactly as downloaded', async () => {
      const row = await readme();
      const page = await click(row);
      const from = posted(page).length;
      await page.handleMessage({ type: 'openContent' });
      assert.deepEqual(postedTypes(page, from), ['busy', 'busy'], 'busy while the command runs, then free');
      const doc = vscode.window.activeTextEditor?.document;
      assert.ok(doc, 'an editor opened');
      assert.match(doc.uri.path, /\/content\/README\.md$/);
      assert.equal(doc.getText(), (await download(f.groups.engineering!, refOf(row).fileId)).toString('utf8'));
    });

    it('"Download…" on the page saves the file to the folder given', async () => {
      const row = await readme();
      const page = await click(row);
      const dir = fs.mkdtempSync(path.join(tmp, 'download-'));
      await withUi({ 'download.folder': dir }, async (ui) => {
        await page.handleMessage({ type: 'download' });
        assert.ok(
          ui.asked.some((q) => q.id === 'download.done'),
          'the download says where the file went',
        );
      });
      assert.deepEqual(fs.readdirSync(dir), ['README.md']);
      assert.deepEqual(
        fs.readFileSync(path.join(dir, 'README.md')),
        await download(f.groups.engineering!, refOf(row).fileId),
      );
    });

    it('a message the page does not speak runs nothing', async () => {
      const page = await click(await readme());
      const requests = requestCount(f.emu);
      const from = posted(page).length;
      await page.handleMessage({ type: 'openContent', fileId: 1 });
      await page.handleMessage({ type: 'download', path: '/etc' });
      await page.handleMessage({ type: 'save', values: {} });
      await page.handleMessage({ type: 'command', id: 'workbench.action.terminal.new' });
      assert.equal(requestCount(f.emu), requests);
      assert.deepEqual(postedTypes(page, from), []);
      assert.equal(vscode.window.activeTextEditor, undefined);
    });

    it('a folder record has no content buttons; a record that is gone says so on the page, with a way to try again', async () => {
      // A folder row expands on a click; its record opens from the context menu.
      const folder = await walk(explorer, f.portalId, ['Acme Corporation', 'Engineering', 'docs']);
      await vscode.commands.executeCommand('portal.file.openRecord', folder.node);
      const [docs] = await recordPages();
      assert.ok(docs);
      assert.equal(docs.panel.title, 'docs');
      assert.equal((await docs.whenLoaded()).isFolder, true);
      docs.dispose();

      const gone: FileRef = { ...refOf(await readme()), fileId: 999_999, name: 'gone.txt', folders: [] };
      await (await features()).records.open({ kind: 'record', file: gone });
      const [page] = await recordPages();
      assert.ok(page);
      assert.equal(page.panel.title, 'gone.txt');
      posted(page);
      await assert.rejects(page.whenLoaded());
      await page.handleMessage({ type: 'ready' });
      const failed = lastPosted<{ message: string }>(page, 'loadFailed');
      assert.match(failed?.message ?? '', /no longer in its folder/);
    });
  });
