import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Emulator } from '../../../../emulator';
import { isLiteral, PROFILES, startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import type { FileRef } from '../../../../../src/shared/refs';
import {
  byLabel,
  features,
  madeByExtension,
  rows,
  tooltipOf,
  walk,
  type Provider,
  type Row,
  type Testing,
} from '../../../support/tree';
import { withUi } from '../../../support/ui';
import { tempDir } from '../../../../support/tempDir';

for (const profile of PROFILES)
  describe(`File records: the portal: file system, open and download (${profile})`, function () {
    this.timeout(180_000);
    let emu: Emulator;
    let portalId: string;
    let token: string;
    let explorer: Provider;
    let testing: Testing;
    const tmp = tempDir('portal-records-');

    const download = async (groupId: number, fileId: number): Promise<Buffer> => {
      const res = await fetch(`${emu.url}/v3/groups/${groupId}/files/${fileId}/download`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.status, 200);
      return Buffer.from(await res.arrayBuffer());
    };

    const literal = isLiteral(profile);
    const documentText = async (uri: vscode.Uri) =>
      (await vscode.workspace.openTextDocument(await madeByExtension(uri))).getText();
    /** The URI of a row's record document, as the extension made it when the row was clicked. */
    const recordUri = (row: Row): vscode.Uri =>
      testing.records.uriOf({ kind: 'record', file: (row.node as { ref: FileRef }).ref });

    before(async () => {
      ({ emu, portalId, token } = await startDemoPortal({ profile }));
      testing = await features();
      explorer = testing.explorer.provider as unknown as Provider;
    });

    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await stopDemoPortal({ emu, portalId });
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it('a click on a file serves its record document, read-only, with the details in readable form', async () => {
      const readme = await walk(explorer, portalId, ['Acme Corporation', 'Engineering', 'README.md']);
      assert.equal(readme.command?.command, 'portal.file.openRecord');
      // The click opens the record's page (records/recordPage.test.ts); its document stays behind the same URI.
      await vscode.commands.executeCommand(readme.command.command, ...(readme.command.arguments ?? []));
      const uri = recordUri(readme);
      assert.equal(uri.scheme, 'portal');
      assert.equal(uri.authority, portalId);
      assert.match(uri.path, /^\/accounts\/1\/groups\/101\/files\/\d+\/README\.md \(record\)\.md$/);
      const text = (await vscode.workspace.openTextDocument(uri)).getText();
      assert.match(text, /^# README\.md$/m);
      assert.match(text, /\*\*Path:\*\* Engineering \/ README\.md/);
      assert.match(text, /\*\*Size:\*\* \d+(\.\d)? (bytes|KB)$/m, 'the size, once');
      if (literal) {
        // No single-record read: the folder's listing gives the record, and the document says what that leaves out.
        assert.match(
          text,
          /^> The portal offers no read of a single file record: this shows what its folder's listing gives/m,
        );
        assert.match(text, /\*\*Uploaded by:\*\* not in the listing/);
        assert.match(text, /\*\*Versions:\*\* not in the listing/);
        assert.match(text, /\*\*Tags:\*\* not in the listing/);
      } else {
        assert.doesNotMatch(text, /^> /m, 'nothing is missing');
        assert.match(text, /\*\*Uploaded by:\*\* Dana Demo/);
        assert.match(text, /\*\*Versions:\*\* 3/);
        assert.match(text, /\*\*Tags:\*\* docs, onboarding/);
      }
      assert.match(text, /\*\*Watermark:\*\* (on|off|not given)$/m);
      assert.match(text, /\*\*Available:\*\* (yes|no|not given)$/m);
      // The row's tooltip shows what the listing gave of versions, watermark and availability; null is "not given".
      const tip = await tooltipOf(explorer, readme);
      assert.match(tip, /Versions: (\d+|not given)/);
      assert.match(tip, /Watermark: (on|off|not given)/);
      assert.match(tip, /Available: (yes|no|not given)/);
      assert.match(text, /\*\*Shared with:\*\* nobody$/m);
      assert.match(text, /\*\*Member permission:\*\* View, edit and delete$/m);
      assert.match(text, /\*\*Lock:\*\* not locked/);
      assert.match(text, /\*\*Last modified:\*\* \d{4}-\d\d-\d\dT[\d:.]+Z \(local: /);
      // Read-only: the file system refuses writes.
      await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('x'))));
    });

    it('shows who locked a locked record, and nested paths', async () => {
      const format = await walk(explorer, portalId, ['Acme Corporation', 'Engineering', 'src', 'utils', 'format.ts']);
      await vscode.commands.executeCommand('portal.file.openRecord', format.node);
      const text = (await vscode.workspace.openTextDocument(recordUri(format))).getText();
      assert.match(text, /\*\*Path:\*\* Engineering \/ src \/ utils \/ format\.ts/);
      // A listing says that a record is locked, not by whom.
      assert.match(text, literal ? /\*\*Lock:\*\* locked$/m : /\*\*Lock:\*\* locked by Dana Demo since /);
    });

    it('"Open content" shows a text file\'s bytes exactly as downloaded (its saves go back: uploads.test.ts)', async () => {
      const csv = await walk(explorer, portalId, ['Acme Corporation', 'Engineering', 'releases.csv']);
      await vscode.commands.executeCommand('portal.file.openContent', csv.node);
      const doc = vscode.window.activeTextEditor?.document;
      assert.ok(doc);
      assert.match(doc.uri.path, /\/content\/releases\.csv$/);
      const fileId = (csv.node as { ref: { fileId: number } }).ref.fileId;
      assert.equal(doc.getText(), (await download(101, fileId)).toString('utf8'));
      assert.match(doc.getText(), /^version,date,owner/);
    });

    it('serves any record URI directly, so an editor restored after a restart reopens', async () => {
      const notes = await walk(explorer, portalId, ['Acme Corporation', 'Marketing', 'notes.txt']);
      const fileId = (notes.node as { ref: { fileId: number } }).ref.fileId;
      const uri = await madeByExtension(
        vscode.Uri.parse(`portal://${portalId}/accounts/1/groups/102/files/${fileId}/notes.txt.md`),
      );
      const doc = await vscode.workspace.openTextDocument(uri);
      assert.match(doc.getText(), /^# notes\.txt$/m);
      // Without the Explorer's folders in the URI, a portal without a record read cannot find the record: it says so.
      if (literal) assert.match(doc.getText(), /this link does not say which folder holds it/);
      else assert.match(doc.getText(), /\*\*Path:\*\* Marketing \/ notes\.txt/);
      const content = await vscode.workspace.openTextDocument(
        await madeByExtension(
          vscode.Uri.parse(`portal://${portalId}/accounts/1/groups/102/files/${fileId}/content/notes.txt`),
        ),
      );
      assert.equal(content.getText(), (await download(102, fileId)).toString('utf8'));
      const stat = await vscode.workspace.fs.stat(uri);
      assert.equal(stat.type, vscode.FileType.File);
      assert.equal(stat.permissions, vscode.FilePermission.Readonly);
    });

    it("a record that does not exist opens a document that says so in the portal's terms, not an editor error", async () => {
      const bare = await documentText(
        vscode.Uri.parse(`portal://${portalId}/accounts/1/groups/101/files/999999/missing.md`),
      );
      assert.match(bare, /^# missing$/m);
      assert.match(bare, /The portal did not give this file record: it may have been deleted or moved/);
      assert.doesNotMatch(bare, /Unable to|nonexistent file/);
      // With the folders the Explorer walked, the folder's listing proves the record is gone.
      const walked = await documentText(
        vscode.Uri.parse(`portal://${portalId}/accounts/1/groups/101/files/999999/gone.md?f=`),
      );
      assert.match(walked, literal ? /no longer in its folder/ : /did not give this file record/);
    });

    it('"Open content" of a file the portal no longer gives says what the portal said, never VS Code\'s file-system words', async () => {
      // A file not opened before: VS Code serves an open document from memory without asking again.
      const csv = await walk(explorer, portalId, ['Acme Corporation', 'Engineering', 'config.json']);
      emu.setFaults([
        { kind: 'error-body', status: 404, shape: 'html', count: 4, path: '/v3/groups/101' },
        { kind: 'error-body', status: 404, shape: 'html', count: 4, path: '/v2/accounts/1/groups/101/files' },
      ]);
      try {
        await withUi({}, async (ui) => {
          await vscode.commands.executeCommand('portal.file.openContent', csv.node);
          const errors = ui.told.filter((t) => t.severity === 'error').map((t) => t.text);
          assert.equal(errors.length, 1, JSON.stringify(ui.told));
          assert.match(errors[0] ?? '', /^Not found/);
          assert.doesNotMatch(errors[0] ?? '', /Unable to|nonexistent|portal:\/\//);
        });
      } finally {
        emu.clearFaults();
      }
    });

    it('a refused or failing read becomes a document that says what the portal did', async () => {
      emu.setFaults([{ kind: 'error-body', status: 403, shape: 'text', count: 2, path: '/v2/accounts/1/groups/102' }]);
      const refused = await documentText(
        vscode.Uri.parse(`portal://${portalId}/accounts/1/groups/102/details/Marketing (group).md`),
      );
      emu.clearFaults();
      assert.match(refused, /^# Marketing$/m);
      assert.match(refused, /The portal refused to show this group to you\./);
      emu.setFaults([{ kind: 'error-body', status: 500, shape: 'empty', count: 10, path: '/v3/accounts/2' }]);
      const failing = await documentText(
        vscode.Uri.parse(`portal://${portalId}/accounts/2/details/Globex (organisation).md`),
      );
      emu.clearFaults();
      assert.match(failing, /The portal could not be asked for this organisation\./);
    });

    it('"Show Application Details" renders from the application list when the portal has no single-application read', async () => {
      const applications = (await features()).applications.provider as unknown as Provider;
      const portal = (await rows(applications)).find(
        (r) => (r.node as { ref?: { portalId?: string } }).ref?.portalId === portalId,
      );
      assert.ok(portal);
      const sync = byLabel(await rows(applications, portal.node), 'Portal Sync (laptop)');
      emu.resetStats();
      await vscode.commands.executeCommand('portal.application.details', sync.node);
      const text = vscode.window.activeTextEditor?.document.getText() ?? '';
      assert.match(text, /^# Portal Sync \(laptop\)$/m);
      assert.match(text, /\*\*Client id:\*\* /);
      const byRoute = emu.stats().byRoute;
      if (literal) {
        assert.match(
          text,
          /^> The portal did not answer the application read: this shows what its application list gives\.$/m,
        );
        assert.equal(byRoute['GET /v3/applications'], 1, 'one request for the list');
      } else {
        assert.doesNotMatch(text, /^> /m);
        assert.equal(byRoute['GET /v3/applications/:application'], 1);
        assert.equal(byRoute['GET /v3/applications'], undefined);
      }
    });

    it('a record of a portal that is signed out (or gone) says so, instead of an editor error', async () => {
      const uri = await madeByExtension(
        vscode.Uri.parse(
          `portal://gone-portal/accounts/1/groups/101/files/100001/${encodeURIComponent('README.md (record).md')}`,
        ),
      );
      const doc = await vscode.workspace.openTextDocument(uri);
      assert.match(doc.getText(), /^# README\.md$/m);
      assert.match(doc.getText(), /no longer in the Portal views/);
    });

    it('"Download…" streams the content to the folder given and never overwrites a file', async () => {
      const json = await walk(explorer, portalId, ['Acme Corporation', 'Employee Handbook', 'holidays.json']);
      const fileId = (json.node as { ref: { fileId: number } }).ref.fileId;
      await withUi({ 'download.folder': [tmp, tmp] }, async (ui) => {
        const first = await vscode.commands.executeCommand<vscode.Uri | undefined>('portal.file.download', json.node);
        assert.ok(first);
        assert.equal(path.basename(first.fsPath), 'holidays.json');
        const expected = await download(103, fileId);
        assert.deepEqual(fs.readFileSync(first.fsPath), expected);
        const second = await vscode.commands.executeCommand<vscode.Uri | undefined>('portal.file.download', json.node);
        assert.equal(path.basename(second?.fsPath ?? ''), 'holidays (1).json');
        assert.deepEqual(fs.readFileSync(first.fsPath), expected, 'the first download is untouched');
        const done = ui.asked.filter((q) => q.id === 'download.done');
        assert.equal(done.length, 2, 'each download says where the file went');
        assert.ok(done[1]?.texts[0]?.includes('holidays (1).json'));
      });
    });

    it('two downloads of the same name into one folder at once both keep their file', async () => {
      const json = await walk(explorer, portalId, ['Acme Corporation', 'Employee Handbook', 'holidays.json']);
      const fileId = (json.node as { ref: { fileId: number } }).ref.fileId;
      const dir = fs.mkdtempSync(path.join(tmp, 'concurrent-'));
      // Both requests are on the wire before either answer arrives, so both pick a name before either file exists.
      emu.setFaults([{ kind: 'latency', delayMs: 300, count: 2, path: '/v3/groups' }]);
      let results: Array<vscode.Uri | undefined>;
      try {
        results = await withUi({ 'download.folder': [dir, dir] }, () =>
          Promise.all([
            vscode.commands.executeCommand<vscode.Uri | undefined>('portal.file.download', json.node),
            vscode.commands.executeCommand<vscode.Uri | undefined>('portal.file.download', json.node),
          ]),
        );
      } finally {
        emu.clearFaults();
      }
      const expected = await download(103, fileId);
      assert.ok(
        results.every((u) => u !== undefined),
        'both downloads succeed',
      );
      assert.deepEqual(fs.readdirSync(dir).sort(), ['holidays (1).json', 'holidays.json']);
      for (const u of results)
        assert.deepEqual(fs.readFileSync(u!.fsPath), expected, `${u!.fsPath} holds the whole content`);
    });

    it('a download that fails leaves no partial file', async () => {
      const png = await walk(explorer, portalId, ['Acme Corporation', 'Social Club', 'photos', 'team.png']);
      const dir = fs.mkdtempSync(path.join(tmp, 'failing-'));
      emu.setFaults([{ kind: 'reset', count: 10, path: '/v3/groups' }]);
      try {
        await withUi({ 'download.folder': dir }, async (ui) => {
          assert.equal(await vscode.commands.executeCommand('portal.file.download', png.node), undefined);
          assert.equal(ui.told.filter((t) => t.severity === 'error').length, 1, 'the failure is said once');
        });
      } finally {
        emu.clearFaults();
      }
      assert.deepEqual(fs.readdirSync(dir), []);
    });

    it('opens group and organisation details as read-only documents', async () => {
      const engineering = await walk(explorer, portalId, ['Acme Corporation', 'Engineering']);
      await vscode.commands.executeCommand('portal.group.details', engineering.node);
      const group = vscode.window.activeTextEditor?.document.getText() ?? '';
      assert.match(group, /^# Engineering$/m);
      assert.match(group, /\*\*Members:\*\* \d+/);
      const acme = await walk(explorer, portalId, ['Acme Corporation']);
      await vscode.commands.executeCommand('portal.account.details', acme.node);
      const account = vscode.window.activeTextEditor?.document.getText() ?? '';
      assert.match(account, /^# Acme Corporation$/m);
      assert.match(account, /\*\*Trial:\*\* until /);
    });

    it('duplicates a group (202: accepted) and moves a group to the trash after a confirmation', async () => {
      await withUi({ 'group.duplicate.name': 'Social Club copy', 'group.trash': true }, async (ui) => {
        const social = await walk(explorer, portalId, ['Acme Corporation', 'Social Club']);
        assert.equal(await vscode.commands.executeCommand('portal.group.duplicate', social.node), true);
        assert.equal(await vscode.commands.executeCommand('portal.group.trash', social.node), true);
        assert.match(
          ui.asked.find((q) => q.id === 'group.trash')?.texts[0] ?? '',
          /Move the group "Social Club" to the trash\?/,
        );
      });
      const res = await fetch(`${emu.url}/v2/accounts/1/groups`, { headers: { authorization: `Bearer ${token}` } });
      const names = ((await res.json()) as Array<{ friendlyName: string; name: string }>).map(
        (g) => g.friendlyName || g.name,
      );
      assert.ok(!names.includes('Social Club'), names.join(', '));
    });
  });
