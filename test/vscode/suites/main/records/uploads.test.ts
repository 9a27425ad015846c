// Uploads and save-back inside VS Code: a folder dropped on a group row (plan, one clash as a new version, the
// Explorer and the portal after), names refused in the plan, an upload cut off and resumed, a literal portal that
// has no upload endpoints, and a text file record's content saved back with its conflict caught.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PortalClient } from '../../../../../src/api';
import { planUpload } from '../../../../../src/engine/uploads/plan';
import { runUploads } from '../../../../../src/engine/uploads/run';
import { unitsOf } from '../../../../../src/engine/uploads/units';
import type { Emulator } from '../../../../emulator';
import { startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { portalJson } from '../../../support/portalHttp';
import { byLabel, features, rows, walk, type Provider, type Row, type Testing } from '../../../support/tree';
import { visible, withUi, type ScriptedUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import { tempDir } from '../../../../support/tempDir';
import { VscodeUi } from '../../../../../src/ui/vscodeUi';

const ACME = 1;
const MARKETING = 102;
const SOCIAL = 104;

interface Listed {
  id: number;
  name: string;
  versions?: number | null;
}

function tree(root: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), text);
  }
}

function dropOf(...paths: string[]): vscode.DataTransfer {
  const data = new vscode.DataTransfer();
  data.set('text/uri-list', new vscode.DataTransferItem(paths.map((p) => vscode.Uri.file(p).toString()).join('\r\n')));
  return data;
}

/** An item as VS Code in a browser hands over an OS drop: a name and bytes, no URI; a folder's bytes cannot be read. */
class BrowserDropped extends vscode.DataTransferItem {
  constructor(
    private readonly name: string,
    private readonly bytes?: string,
  ) {
    super('');
  }

  override asFile(): vscode.DataTransferFile {
    const bytes = this.bytes;
    return {
      name: this.name,
      uri: undefined,
      data: () =>
        bytes === undefined
          ? Promise.reject(new Error('NotFoundError: A requested file or directory could not be found'))
          : Promise.resolve(new TextEncoder().encode(bytes)),
    };
  }
}

describe('Uploads and save-back (default)', function () {
  this.timeout(270_000);
  let emu: Emulator;
  let portalId: string;
  let token: string;
  let explorer: Provider;
  let testing: Testing;
  const tmp = tempDir('portal-uploads-');

  const index = async (group: number): Promise<Record<string, { ID: number }>> => {
    const res = await fetch(`${emu.url}/v2/accounts/${ACME}/groups/${group}/files/index`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    return (JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as { metadata: Record<string, { ID: number }> })
      .metadata;
  };
  const bytesOf = async (group: number, id: number): Promise<string> => {
    const res = await fetch(`${emu.url}/v3/groups/${group}/files/${id}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return res.text();
  };
  const record = async (group: number, id: number): Promise<Listed> =>
    (await portalJson<Listed>(emu.url, token, 'GET', `/v2/accounts/${ACME}/groups/${group}/files/${id}`)).body;
  /** Someone else saves a new version on the portal. */
  const changeOnPortal = async (group: number, id: number, text: string): Promise<void> => {
    const base = `${emu.url}/v2/accounts/${ACME}/groups/${group}/files`;
    const headers = { authorization: `Bearer ${token}`, 'x-file-id': `other-${Date.now()}` };
    const size = Buffer.byteLength(text);
    const sizes = { 'x-file-start': '0', 'x-file-end': String(size), 'x-file-size': String(size) };
    let res = await fetch(`${base}/upload/data`, { method: 'POST', headers: { ...headers, ...sizes }, body: text });
    assert.equal(res.status, 200);
    res = await fetch(`${base}/upload/complete?success=True&path=x`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    assert.equal(res.status, 200);
  };

  before(async () => {
    ({ emu, portalId, token } = await startDemoPortal());
    testing = await features();
    explorer = testing.explorer.provider as unknown as Provider;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await stopDemoPortal({ emu, portalId });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a folder of 20 files and 2 subfolders dropped on a group row: planned, one clash as a new version, uploaded', async () => {
    const local = path.join(tmp, 'campaigns');
    const files: Record<string, string> = { '2025/q1-plan.md': '# Q1 plan, revised\n', '2025/q2-plan.md': '# Q2\n' };
    for (let i = 0; i < 17; i++) files[`note-${i}.txt`] = `note ${i}\n`;
    files['drafts/idea.md'] = '# idea\n';
    tree(local, files);
    const before = await index(MARKETING);
    const q1 = before['/campaigns/2025/q1-plan.md']?.ID;
    assert.ok(q1, 'the clash is there on the portal');
    const versionsBefore = (await record(MARKETING, q1)).versions ?? 0;
    const marketing = await walk(explorer, portalId, ['Acme Corporation', 'Marketing']);
    await withUi({ 'upload.clashes': 'New Version', 'upload.confirm': true }, async (ui) => {
      await testing.records.dropOnTree.handleDrop?.(
        marketing.node as { ref?: never },
        dropOf(local),
        new vscode.CancellationTokenSource().token,
      );
      const confirm = ui.asked.find((a) => a.id === 'upload.confirm');
      const text = visible((confirm?.texts ?? []).join('\n'));
      assert.match(text, /Upload 20 files to Marketing\?/);
      assert.match(text, /20 files into Marketing\/campaigns\/ \(3 folders\)/);
      assert.match(text, /1 name is already there; 20 files will be sent\./);
      assert.match(text, /cannot be undone: the portal offers no way to delete or take back an uploaded file/);
      assert.deepEqual(
        ui.told.filter((t) => t.severity === 'error'),
        [],
      );
      assert.match(ui.told.at(-1)?.text ?? '', /^20 of 20 files uploaded to Marketing\./);
    });
    const after = await index(MARKETING);
    for (const [p, text] of Object.entries(files)) {
      const id = after[`/campaigns/${p}`]?.ID;
      assert.ok(id, `${p} is on the portal`);
      assert.equal(await bytesOf(MARKETING, id), text, p);
    }
    assert.equal(after['/campaigns/2025/q1-plan.md']?.ID, q1, 'the clash kept its record');
    assert.equal((await record(MARKETING, q1)).versions, versionsBefore + 1, 'and got a new version');
    const drafts = await walk(explorer, portalId, ['Acme Corporation', 'Marketing', 'campaigns', 'drafts']);
    assert.deepEqual(
      (await rows(explorer, drafts.node)).map((r: Row) => r.label),
      ['idea.md'],
      'the Explorer shows the new folder and its file',
    );
  });

  it('an OS drop into VS Code in a browser: files as bytes uploaded, a folder by name offered to Upload Folder…', async () => {
    const photos = path.join(tmp, 'photos');
    tree(photos, { 'p.txt': 'photo\n' });
    const data = new vscode.DataTransfer();
    // One item per type: the API's set() keeps one item a type, as a browser's DataTransfer does per file.
    data.set('text/plain', new BrowserDropped('dropped-a.txt', 'a\n'));
    data.set('text/markdown', new BrowserDropped('dropped-b.md', '# b\n'));
    data.set('', new BrowserDropped('photos'));
    const social = await walk(explorer, portalId, ['Acme Corporation', 'Social Club']);
    const answers = { 'upload.confirm': [true, true], 'upload.droppedFolder': 'folder', 'upload.folder': photos };
    await withUi(answers, async (ui) => {
      await testing.records.dropOnTree.handleDrop?.(
        social.node as { ref?: never },
        data,
        new vscode.CancellationTokenSource().token,
      );
      const told = (): string[] => ui.told.map((t) => visible(t.text));
      assert.ok(
        told().some((t) => t.startsWith('2 of 2 files uploaded to Social Club.')),
        told().join('\n'),
      );
      // The folder's offer is a notification that does not hold the files back: its upload ends on its own.
      await waitFor(() => told().some((t) => t.startsWith('1 of 1 files uploaded to Social Club.')), 'photos is up');
      const offer = visible((ui.asked.find((a) => a.id === 'upload.droppedFolder')?.texts ?? []).join('\n'));
      assert.match(offer, /photos came without its files/);
    });
    const after = await index(SOCIAL);
    for (const [p, text] of Object.entries({
      'dropped-a.txt': 'a\n',
      'dropped-b.md': '# b\n',
      'photos/p.txt': 'photo\n',
    })) {
      const id = after[`/${p}`]?.ID;
      assert.ok(id, `${p} is on the portal`);
      assert.equal(await bytesOf(SOCIAL, id), text, p);
    }
    const staged = path.join(testing.records.storageFolder, 'dropped-files');
    assert.deepEqual(fs.existsSync(staged) ? fs.readdirSync(staged) : [], [], 'the staged copies are gone');
  });

  it("a vscode-local: URI (a file on the browser's machine) is left out, and said so: its path is not this machine's", async () => {
    const social = await walk(explorer, portalId, ['Acme Corporation', 'Social Club']);
    const data = new vscode.DataTransfer();
    data.set('text/uri-list', new vscode.DataTransferItem(`vscode-local:${path.join(tmp, 'photos')}`));
    await withUi({}, async (ui) => {
      await testing.records.dropOnTree.handleDrop?.(
        social.node as { ref?: never },
        data,
        new vscode.CancellationTokenSource().token,
      );
      assert.deepEqual(ui.questions, [], 'no plan');
      assert.deepEqual(
        ui.told.map((t) => visible(t.text)),
        ['1 dropped items are not local files and were left out.'],
      );
    });
  });

  it('names that read as command links or icons, or that the portal cannot hold, are refused in the plan', async () => {
    const local = path.join(tmp, 'hostile');
    tree(local, { 'ok.txt': 'fine', '$(zap) click.txt': 'x', '[run](command:workbench.action.quit).md': 'x' });
    fs.mkdirSync(path.join(local, 'empty'));
    const social = await walk(explorer, portalId, ['Acme Corporation', 'Social Club']);
    await withUi({ 'upload.folder': local, 'upload.confirm': true }, async (ui) => {
      await vscode.commands.executeCommand('portal.upload.folder', social.node);
      const text = visible((ui.asked.find((a) => a.id === 'upload.confirm')?.texts ?? []).join('\n'));
      assert.match(text, /Upload 1 files to Social Club\?/);
      assert.match(text, /\$\(zap\) click\.txt not uploaded: the name reads as a command link or an icon\./);
      assert.match(
        text,
        /\[run\]\(command:workbench\.action\.quit\)\.md not uploaded: the name reads as a command link/,
      );
      assert.match(text, /hostile\/empty not uploaded: the portal offers no way to create an empty folder\./);
    });
    const names = Object.keys(await index(SOCIAL)).filter((p) => p.startsWith('/hostile/'));
    assert.deepEqual(names, ['/hostile/ok.txt']);
  });

  it('Upload Folder… opens its dialog in the workspace, and the plan names the path the files land in', async () => {
    tree(path.join(tmp, 'q1-docs'), { 'brief.md': '# brief\n', 'figures/table.csv': 'a,b\n' });
    const social = await walk(explorer, portalId, ['Acme Corporation', 'Social Club']);
    const start = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? os.homedir();
    await withUi({ 'upload.folder': path.join(tmp, 'q1-docs'), 'upload.confirm': true }, async (ui) => {
      await vscode.commands.executeCommand('portal.upload.folder', social.node);
      assert.equal(ui.asked.find((a) => a.id === 'upload.folder')?.value, start, 'the dialog opens in the workspace');
      const text = visible((ui.asked.find((a) => a.id === 'upload.confirm')?.texts ?? []).join('\n'));
      assert.match(text, /2 files into Social Club\/q1-docs\/ \(2 folders\)/);
    });
    const campaigns = await walk(explorer, portalId, ['Acme Corporation', 'Marketing', 'campaigns']);
    fs.writeFileSync(path.join(tmp, 'loose.txt'), 'loose\n');
    await withUi({ 'upload.files': path.join(tmp, 'loose.txt'), 'upload.confirm': true }, async (ui) => {
      await vscode.commands.executeCommand('portal.upload.files', campaigns.node);
      assert.equal(ui.asked.find((a) => a.id === 'upload.files')?.value, start, 'so does Upload Files…');
      const text = visible((ui.asked.find((a) => a.id === 'upload.confirm')?.texts ?? []).join('\n'));
      assert.match(text, /^1 file into Marketing\/campaigns\/, 6 bytes\.$/m);
    });
  });

  it('the open dialogs VS Code shows start where they are told, and in the workspace when not told', async () => {
    // The test above answers the dialogs in the extension's Ui; this reads what the Ui hands VS Code's own dialog,
    // which no test can click through, so only its options are caught.
    const start = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? os.homedir();
    const window = vscode.window as { showOpenDialog: typeof vscode.window.showOpenDialog };
    const real = window.showOpenDialog;
    const opened: Array<string | undefined> = [];
    window.showOpenDialog = (o) => {
      opened.push(o?.defaultUri?.fsPath);
      return Promise.resolve(undefined);
    };
    try {
      const ui = new VscodeUi();
      await ui.pickFolder({ id: 'upload.folder', title: 'Upload to Social Club', openLabel: 'Upload', start: tmp });
      await ui.pickFiles({ id: 'upload.files', title: 'Upload to Social Club', openLabel: 'Upload' });
    } finally {
      window.showOpenDialog = real;
    }
    assert.deepEqual(opened, [tmp, start]);
  });

  it('the clash question names the files already there: one by name, more as "and N more"', async () => {
    const here = path.join(tmp, 'clashes');
    tree(here, { 'report.pdf': 'r1', 'notes-1.txt': 'n1', 'notes-2.txt': 'n2' });
    const social = await walk(explorer, portalId, ['Acme Corporation', 'Social Club']);
    const send = (files: string[]) =>
      withUi(
        {
          'upload.files': files.map((f) => path.join(here, f)).join('\n'),
          'upload.clashes': 'Skip',
          'upload.confirm': false,
        },
        (ui) => vscode.commands.executeCommand('portal.upload.files', social.node).then(() => ui),
        { allUsed: false },
      );
    await withUi({ 'upload.files': path.join(here, 'report.pdf'), 'upload.confirm': true }, () =>
      vscode.commands.executeCommand('portal.upload.files', social.node),
    );
    const one = await send(['report.pdf']);
    const asked = (ui: ScriptedUi) =>
      visible(ui.asked.find((a) => a.id === 'upload.clashes')?.texts.find((t) => t.includes('already')) ?? '');
    assert.equal(asked(one), 'report.pdf is already there. What should it get?');
    await withUi(
      {
        'upload.files': ['notes-1.txt', 'notes-2.txt'].map((f) => path.join(here, f)).join('\n'),
        'upload.confirm': true,
      },
      () => vscode.commands.executeCommand('portal.upload.files', social.node),
    );
    const three = await send(['report.pdf', 'notes-1.txt', 'notes-2.txt']);
    assert.equal(asked(three), 'report.pdf and 2 more are already there. What should they get?');
  });

  it('an upload cut off halfway (as by a reload) resumes: every file once, none lost', async () => {
    const local = path.join(tmp, 'resume');
    const files: Record<string, string> = {};
    for (let i = 0; i < 24; i++) files[`r${String(i).padStart(2, '0')}.txt`] = `resume ${i}\n`;
    tree(local, files);
    const target = { portalId, accountId: ACME, groupId: SOCIAL, folderId: 0 };
    // The run the reload cut off: its client closed under it while the portal was answering some completes.
    const cut = new PortalClient({ baseUrl: emu.url });
    await cut.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const plan = await planUpload(target, [local], new Map());
    const units = unitsOf(plan, new Map());
    emu.setFaults([
      { kind: 'slow-body', delayMs: 300, path: `/v2/accounts/${ACME}/groups/${SOCIAL}/files/upload/complete` },
    ]);
    let finished = 0;
    await runUploads(cut, plan, units, {
      storageFolder: testing.records.storageFolder,
      targetName: 'Social Club',
      concurrency: 4,
      onProgress: () => {
        if (++finished === 10) cut.close();
      },
    });
    await waitFor(() => emu.stats().inFlight === 0, 'the portal has answered every request of the closed client');
    emu.clearFaults();
    const landed = () => Object.keys(files).filter((n) => n);
    const partial = Object.keys(await index(SOCIAL)).filter((p) => /^\/resume\/r\d\d\.txt$/.test(p)).length;
    assert.ok(partial > 0 && partial < 24, `${partial} landed before the resume`);
    await withUi({ 'upload.interrupted': 'resume' }, async (ui) => {
      await vscode.commands.executeCommand('portal.upload.resume');
      // The offer names where the files go, where they come from, the first files left and how many more.
      const offer = visible(ui.asked.find((q) => q.id === 'upload.interrupted')?.texts[0] ?? '');
      assert.match(offer, /^An upload to Social Club stopped/);
      assert.ok(offer.includes(`from ${fs.realpathSync(local)}: `), offer);
      assert.match(offer, /: resume\/r\d\d\.txt, resume\/r\d\d\.txt, resume\/r\d\d\.txt and \d+ more\./);
      assert.match(ui.told.at(-1)?.text ?? '', /remaining files uploaded\./);
    });
    const all = Object.keys(await index(SOCIAL)).filter((p) => /^\/resume\/r\d\d\.txt$/.test(p));
    assert.equal(all.length, landed().length, 'none lost');
    const listed = (
      await portalJson<{ page: Listed[] }>(
        emu.url,
        token,
        'GET',
        `/v2/accounts/${ACME}/groups/${SOCIAL}/files?recursive=true&size=500`,
      )
    ).body.page.filter((f) => /^r\d\d\.txt$/.test(f.name));
    assert.equal(listed.length, 24, 'none twice');
  });

  it('a text file record saves back as a new version; a copy changed on the portal since is a conflict', async () => {
    const notes = await walk(explorer, portalId, ['Acme Corporation', 'Marketing', 'notes.txt']);
    const id = (notes.node as { ref: { fileId: number } }).ref.fileId;
    await vscode.commands.executeCommand('portal.file.openContent', notes.node);
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc);
    const versions = (await record(MARKETING, id)).versions ?? 0;
    const edit = async (text: string): Promise<void> => {
      const e = new vscode.WorkspaceEdit();
      e.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
      assert.ok(await vscode.workspace.applyEdit(e));
    };
    await edit('mine, first\n');
    assert.equal(await doc.save(), true);
    assert.equal(await bytesOf(MARKETING, id), 'mine, first\n');
    assert.equal((await record(MARKETING, id)).versions, versions + 1);
    await changeOnPortal(MARKETING, id, 'theirs\n');
    await edit('mine, second\n');
    assert.equal(await doc.save(), false, "VS Code's conflict: the save did not go through");
    assert.equal(await bytesOf(MARKETING, id), 'theirs\n', 'nothing was overwritten');
    // Overwrite: VS Code writes without its check; the portal's copy is the one its check just showed.
    await vscode.workspace.fs.writeFile(doc.uri, new TextEncoder().encode('mine, overwriting\n'));
    assert.equal(await bytesOf(MARKETING, id), 'mine, overwriting\n');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});

describe('Uploads on a literal portal', function () {
  this.timeout(180_000);
  let emu: Emulator;
  let portalId: string;
  const tmp = tempDir('portal-uploads-literal-');

  before(async () => {
    ({ emu, portalId } = await startDemoPortal({ profile: 'literal' }));
  });
  after(async () => {
    await stopDemoPortal({ emu, portalId });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses uploads with one clear message and leaves the tree as it was', async () => {
    const explorer = (await features()).explorer.provider as unknown as Provider;
    const file = path.join(tmp, 'a.txt');
    fs.writeFileSync(file, 'a');
    const marketing = await walk(explorer, portalId, ['Acme Corporation', 'Marketing']);
    const before = (await rows(explorer, marketing.node)).map((r) => r.label);
    await withUi({ 'upload.files': file }, async (ui) => {
      await vscode.commands.executeCommand('portal.upload.files', marketing.node);
      assert.deepEqual(ui.questions, ['upload.files'], 'no plan, no progress');
      assert.equal(ui.told.length, 1, JSON.stringify(ui.told));
      assert.match(
        ui.told[0]?.text ?? '',
        /does not accept uploads: the upload endpoints other clients of this service use are not there\. Nothing was changed\./,
      );
    });
    const again = await walk(explorer, portalId, ['Acme Corporation', 'Marketing']);
    assert.deepEqual(
      (await rows(explorer, again.node)).map((r) => r.label),
      before,
    );
    assert.ok(byLabel(await rows(explorer, again.node), 'notes.txt'));
  });
});
