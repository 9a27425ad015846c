// portal: URIs the extension did not make (a link in a README, a JSON $schema, another extension) read nothing
// from the portal until a person clicks "Load from the Portal"; what they show never takes its group or path from
// the link.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import type { FileRef } from '../../../../../src/shared/refs';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalApi, signInForTest } from '../../../support/extension';
import { features, walk, type Provider } from '../../../support/tree';
import { DISMISS, withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

const LOAD = 'portal.document.load';

/** Requests the portal answered, token requests included. */
const requests = (p: DemoPortal): number => p.emu.stats().requests;

async function until(check: () => boolean, what: string): Promise<void> {
  await waitFor(check, what).catch(() => undefined);
  assert.ok(check(), what);
}

/** The URI of a row's record document, as the extension made it when the row was clicked (its page reads it). */
async function recordUri(node: unknown): Promise<vscode.Uri> {
  return (await features()).records.uriOf({ kind: 'record', file: (node as { ref: FileRef }).ref });
}

async function lensesOf(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
}

describe('portal: links the extension did not make', function () {
  this.timeout(180_000);
  let p: DemoPortal;
  let explorer: Provider;
  /** A record of Marketing never opened through the extension, linked with a query that lies about where it is. */
  let link: vscode.Uri;
  let notesId: number;

  before(async () => {
    p = await startDemoPortal();
    explorer = (await features()).explorer.provider as unknown as Provider;
    const notes = await walk(explorer, p.portalId, ['Acme Corporation', 'Marketing', 'notes.txt']);
    notesId = (notes.node as { ref: { fileId: number } }).ref.fileId;
    link = vscode.Uri.from({
      scheme: 'portal',
      authority: p.portalId,
      path: `/accounts/1/groups/102/files/${notesId}/notes.txt (record).md`,
      query: new URLSearchParams([
        ['g', 'Payroll'],
        ['f', '77:Secret plans'],
      ]).toString(),
    });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await stopDemoPortal(p);
  });

  it('opening one reads nothing from the portal: a placeholder names what the link asks for, by ids only', async () => {
    p.emu.resetStats();
    const text = (await vscode.workspace.openTextDocument(link)).getText();
    assert.match(text, /^# Not loaded from the portal$/m);
    assert.match(text, new RegExp(`file record ${notesId} in group 102 of organisation 1`));
    assert.doesNotMatch(text, /Payroll|Secret|notes\.txt/, "the link's names are not shown as the portal's");
    const content = await vscode.workspace.openTextDocument(
      link.with({ path: `/accounts/1/groups/102/files/${notesId}/content/schema.json`, query: '' }),
    );
    assert.match(content.getText(), /^# Not loaded from the portal$/m, 'content too, as a JSON $schema would ask');
    await vscode.workspace.fs.stat(link);
    assert.equal(requests(p), 0, 'no request reached the portal');
    const lenses = await lensesOf(link);
    assert.deepEqual(
      lenses.map((l) => l.command?.title),
      ['Load from the Portal'],
    );
  });

  it('"Load from the Portal" run from elsewhere (a command: link, the palette) asks first; declining reads nothing', async () => {
    await vscode.window.showTextDocument(link);
    p.emu.resetStats();
    await withUi({ 'document.load.confirm': DISMISS }, async (ui) => {
      await vscode.commands.executeCommand(LOAD, { uri: link.toString() });
      assert.deepEqual(ui.questions, ['document.load.confirm']);
      assert.match(ui.asked[0]?.texts.join(' ') ?? '', new RegExp(`file record ${notesId} in group 102`));
    });
    assert.equal(requests(p), 0);
    assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', /^# Not loaded from the portal$/m);
  });

  it("a click on the lens loads the record at once; its group and path are the portal's, the link's query is ignored", async () => {
    const editor = await vscode.window.showTextDocument(link);
    const lens = (await lensesOf(link))[0];
    assert.ok(lens?.command);
    await withUi({}, async (ui) => {
      await vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));
      assert.deepEqual(ui.questions, [], 'our own lens needs no confirmation');
    });
    await until(() => /^# notes\.txt$/m.test(editor.document.getText()), editor.document.getText());
    const text = editor.document.getText();
    assert.match(text, /\*\*Path:\*\* Marketing \/ notes\.txt/);
    assert.doesNotMatch(text, /Payroll|Secret/);
    assert.deepEqual(await lensesOf(link), [], 'the lens is gone');
  });

  it('a record opened from the Explorer is read at once; a link to it with a query of its own cannot change its path', async () => {
    const readme = await walk(explorer, p.portalId, ['Acme Corporation', 'Engineering', 'README.md']);
    await vscode.commands.executeCommand('portal.file.openRecord', readme.node);
    const opened = await vscode.workspace.openTextDocument(await recordUri(readme.node));
    assert.match(opened.getText(), /\*\*Path:\*\* Engineering \/ README\.md/);
    const lying = opened.uri.with({ query: 'g=Payroll&f=9%3ASecret' });
    const text = (await vscode.workspace.openTextDocument(lying)).getText();
    assert.match(text, /^# README\.md$/m);
    assert.match(text, /\*\*Path:\*\* Engineering \/ README\.md/);
    assert.doesNotMatch(text, /Payroll|Secret/);
  });

  it('the shared portal: its Engineering README is opened from the Explorer, for the restart phase to restore', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url);
    const shared = portalIdOf(url, 'portal');
    if (!(await portalApi()).registry.get(shared)?.client) {
      const script = await signInForTest({ baseUrl: url, username: 'demo', password: 'demo' });
      assert.deepEqual(script.failures, []);
    }
    const readme = await walk(explorer, shared, ['Acme Corporation', 'Engineering', 'README.md']);
    await vscode.commands.executeCommand('portal.file.openRecord', readme.node);
    const doc = await vscode.workspace.openTextDocument(await recordUri(readme.node));
    assert.match(doc.getText(), /\*\*Uploaded by:\*\* Dana Demo/);
  });
});
