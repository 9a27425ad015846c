// A file record's row in the Explorer follows a save-back: its size and date are read again with no refresh, though
// the group's list was read a moment before and would otherwise stay fresh for the cache's time.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { humanSize } from '../../../../../src/shared/format';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { features, walk, type Provider } from '../../../support/tree';
import { waitFor } from '../../../../support/wait';

describe('Explorer: file rows after a save-back (default)', function () {
  this.timeout(120_000);
  let p: DemoPortal;
  const config = () => vscode.workspace.getConfiguration('portal');

  before(async () => {
    p = await startDemoPortal();
    // Lists stay fresh for an hour: a row that changes does so because the extension read it again, not by age.
    await config().update('cacheSeconds', 3600, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config().update('cacheSeconds', undefined, vscode.ConfigurationTarget.Global);
    await stopDemoPortal(p);
  });

  it("a saved-back file's size shows in its row with no refresh", async () => {
    const explorer = (await features()).explorer.provider as unknown as Provider;
    const row = async () => walk(explorer, p.portalId, ['Acme Corporation', 'Marketing', 'notes.txt']);
    const before = (await row()).description;
    await vscode.commands.executeCommand('portal.file.openContent', (await row()).node);
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc && doc.uri.scheme === 'portal');
    const text = 'saved back, and longer than the seed wrote it: the row must say so\n';
    const e = new vscode.WorkspaceEdit();
    e.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(e));
    assert.equal(await doc.save(), true, 'the save reached the portal');
    const size = humanSize(Buffer.byteLength(text));
    assert.ok(!before.startsWith(size), `${before} differs from the new size ${size}`);
    let shown = before;
    await waitFor(
      async () => (shown = (await row()).description).startsWith(`${size} · `),
      `the row says ${size}`,
    ).catch(() => undefined);
    assert.ok(shown.startsWith(`${size} · `), `the row says "${shown}", not ${size}`);
  });
});
