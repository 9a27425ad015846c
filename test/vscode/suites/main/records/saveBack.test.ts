// Save-back inside VS Code when another administrator changed the file on the portal since it was opened: a
// same-size change, a portal that never moves lastModified, one whose dates and version count both stay, and one of
// 100 open documents. Each meets VS Code's own Compare / Overwrite (the save fails without the file system ever being
// asked to write), the portal keeps the other change, and an Overwrite (a write without VS Code's check) then sends.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator, FileEdit } from '../../../../emulator';
import { startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { features, walk, type Provider, type Testing } from '../../../support/tree';

const MARKETING = 102;

describe('Save-back conflicts (default)', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let portalId: string;
  let token: string;
  let testing: Testing;
  let id: number;
  let notes: vscode.Uri;
  /** The URIs VS Code asked the file system to write, this test. */
  let writes: string[];
  /** What each stat showed VS Code, this test (the failure message says it). */
  let stats: string[];
  let restore: () => void;

  const onPortal = async (): Promise<string> =>
    (
      await fetch(`${emu.url}/v3/groups/${MARKETING}/files/${id}/download`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).text();
  const theirs = (text: string, keep: Omit<FileEdit, 'id' | 'text'> = {}): void => emu.editFile({ id, text, ...keep });
  const edit = async (doc: vscode.TextDocument, text: string): Promise<void> => {
    const e = new vscode.WorkspaceEdit();
    e.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(e));
  };
  /** The content's URI under another name: another document of the same record (the ids decide what is shown). */
  const named = (name: string): vscode.Uri => {
    const uri = notes.with({ path: notes.path.replace(/\/[^/]+$/, `/${name}`) });
    testing.records.fileSystem.mint(uri);
    return uri;
  };
  /** Opens a new document of the content in an editor, with the text `original` on the portal. */
  const open = async (name: string, original: string): Promise<vscode.TextDocument> => {
    theirs(original);
    const doc = await vscode.workspace.openTextDocument(named(name));
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.getText(), original);
    return doc;
  };

  before(async () => {
    ({ emu, portalId, token } = await startDemoPortal());
    testing = await features();
    const explorer = testing.explorer.provider as unknown as Provider;
    const row = await walk(explorer, portalId, ['Acme Corporation', 'Marketing', 'notes.txt']);
    id = (row.node as { ref: { fileId: number } }).ref.fileId;
    await vscode.commands.executeCommand('portal.file.openContent', row.node);
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc);
    notes = doc.uri;
  });

  beforeEach(() => {
    writes = [];
    stats = [];
    const fileSystem = testing.records.fileSystem;
    const writeFile = fileSystem.writeFile.bind(fileSystem);
    fileSystem.writeFile = (uri, content) => {
      writes.push(uri.toString());
      return writeFile(uri, content);
    };
    const stat = fileSystem.stat.bind(fileSystem);
    fileSystem.stat = async (uri) => {
      const s = await stat(uri);
      const d = vscode.workspace.textDocuments.find((x) => x.uri.toString() === uri.toString());
      stats.push(`${uri.path.split('/').pop()} ${s.mtime} ${s.size} dirty=${d?.isDirty} v=${d?.version}`);
      return s;
    };
    restore = () => {
      delete (fileSystem as Partial<typeof fileSystem>).writeFile;
      delete (fileSystem as Partial<typeof fileSystem>).stat;
    };
  });

  afterEach(async () => {
    restore();
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await stopDemoPortal({ emu, portalId });
  });

  it("a same-size change on the portal meets VS Code's Compare / Overwrite, however often the file is stat'ed", async () => {
    const doc = await open('same-size.txt', 'first line\n');
    for (let i = 0; i < 3; i++) await vscode.workspace.fs.stat(doc.uri);
    // Edited first: a clean document may rightly reload the portal's copy as soon as a stat shows it moved, and
    // then the user edits what the other administrator wrote; a conflict is a change the editor has not shown.
    await edit(doc, 'first line\nmine\n');
    theirs('FIRST LINE\n');
    for (let i = 0; i < 3; i++) await vscode.workspace.fs.stat(doc.uri);
    assert.equal(
      await doc.save(),
      false,
      `the save did not go through ${JSON.stringify(stats)} ${JSON.stringify(writes)}`,
    );
    assert.deepEqual(writes, [], "VS Code's own check refused it: the file system was never asked to write");
    assert.equal(await onPortal(), 'FIRST LINE\n', 'the other change is kept');
    // Overwrite: a write without VS Code's check.
    await vscode.workspace.fs.writeFile(doc.uri, new TextEncoder().encode('first line\nmine\n'));
    assert.equal(await onPortal(), 'first line\nmine\n');
  });

  it('a portal that never moves lastModified: the change still meets Compare / Overwrite', async () => {
    const doc = await open('dates-stay.txt', 'first line\n');
    // Edited first, as in the same-size case: a clean document may rightly reload a copy that moved.
    await edit(doc, 'first line\nmine\n');
    theirs('first line\ntheirs\n', { keepLastModified: true });
    assert.equal(await doc.save(), false);
    assert.deepEqual(writes, []);
    assert.equal(await onPortal(), 'first line\ntheirs\n');
  });

  it('a portal whose dates and version count both stay: the bytes tell, and Compare / Overwrite comes up', async () => {
    const doc = await open('all-silent.txt', 'first line\n');
    await edit(doc, 'first line\nmine\n');
    theirs('FIRST LINE\n', { keepLastModified: true, keepVersions: true });
    assert.equal(await doc.save(), false);
    assert.deepEqual(writes, []);
    assert.equal(await onPortal(), 'FIRST LINE\n');
  });

  it('one of 100 open documents: the check still holds for the first one opened', async () => {
    const doc = await open('first-of-100.txt', 'first line\n');
    const others: vscode.TextDocument[] = [];
    for (let i = 0; i < 100; i++) others.push(await vscode.workspace.openTextDocument(named(`notes-${i}.txt`)));
    assert.ok(others.every((d) => d.getText() === 'first line\n'));
    await edit(doc, 'first line\nmine\n');
    theirs('FIRST LINE\n');
    assert.equal(await doc.save(), false);
    assert.deepEqual(writes, []);
    assert.equal(await onPortal(), 'FIRST LINE\n');
  });
});
