// Save-back through the write engine, inside VS Code: the portal's first editable content says, before any save, that
// a saved version cannot be undone; a save sends the editor's text as a new version and is listed in Show Change
// History… in the user's words ("Save notes.txt back to Marketing"), with no Undo: choosing it says why.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../../../emulator';
import { startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { features, walk, type Provider } from '../../../support/tree';
import { withUi } from '../../../support/ui';

const MARKETING = 102;

describe('Save-back in the change history', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let portalId: string;
  let token: string;

  before(async () => {
    ({ emu, portalId, token } = await startDemoPortal());
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await stopDemoPortal({ emu, portalId });
  });

  it('a save is told first, sent, and listed by name in the change history with no Undo', async () => {
    const started = Date.now();
    const testing = await features();
    const explorer = testing.explorer.provider as unknown as Provider;
    const row = await walk(explorer, portalId, ['Acme Corporation', 'Marketing', 'notes.txt']);
    const id = (row.node as { ref: { fileId: number } }).ref.fileId;
    const onPortal = async (): Promise<string> =>
      (
        await fetch(`${emu.url}/v3/groups/${MARKETING}/files/${id}/download`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).text();

    const doc = await withUi({}, async (ui) => {
      await vscode.commands.executeCommand('portal.file.openContent', row.node);
      const opened = vscode.window.activeTextEditor?.document;
      assert.ok(opened);
      assert.ok(
        ui.told.some((t) => /new version/.test(t.text) && /cannot be undone/.test(t.text)),
        `told before any save: ${JSON.stringify(ui.told)}`,
      );
      return opened;
    });
    const text = `${doc.getText()}saved from VS Code\n`;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(doc.lineCount, 0), 'saved from VS Code\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal(await doc.save(), true, 'the save went through');
    assert.equal(await onPortal(), text, 'the portal holds the editor’s text');

    type Row = { save?: { record: { begin: { title?: string; startedAt: number } } } };
    const ours = (v: Row): boolean =>
      v.save?.record.begin.title === 'Save notes.txt back to Marketing' && v.save.record.begin.startedAt >= started;
    await withUi({ 'plan.history.pick': ours as never }, async (ui) => {
      await vscode.commands.executeCommand('portal.plan.showHistory');
      const texts = ui.asked.find((q) => q.id === 'plan.history.pick')?.texts ?? [];
      assert.ok(
        texts.some((t) => t.includes('"Save notes.txt back to Marketing"')),
        `the history names the save: ${texts.join(' | ')}`,
      );
      assert.ok(texts.includes('a saved version cannot be undone'), texts.join(' | '));
      assert.ok(
        ui.told.some((t) => /cannot be undone/.test(t.text)),
        `choosing it says why there is no undo: ${JSON.stringify(ui.told)}`,
      );
      assert.ok(!ui.asked.some((q) => /undo/i.test(q.id)), 'no undo is offered');
    });
    assert.equal(await onPortal(), text, 'the history sent nothing');
  });
});
