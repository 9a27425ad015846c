import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { portalIdOf } from '../../../../src/auth/portalEntry';
import { portalApi } from '../../support/extension';
import { control } from '../../support/portalHttp';

describe('After an extension-host restart: portal: documents', function () {
  this.timeout(180_000);

  it('a file record the extension opened before the restart opens from its URI alone, with the restored session', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const portalId = portalIdOf(url, 'portal');
    const client = (await portalApi()).registry.get(portalId)?.client;
    assert.ok(client, 'the shared portal is signed in again');
    const readme = (await client.v2.files.page(1, 101, { page: 1, size: 50 })).items.find(
      (f) => f.name === 'README.md',
    );
    assert.ok(readme);
    const uri = vscode.Uri.from({
      scheme: 'portal',
      authority: portalId,
      path: `/accounts/1/groups/101/files/${readme.id}/README.md (record).md`,
    });
    // The main phase opened it from the Explorer (records/portal-uris.test.ts): the extension remembers it made it.
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.match(doc.getText(), /^# README\.md$/m);
    assert.match(doc.getText(), /\*\*Uploaded by:\*\* Dana Demo/);
  });

  it('a record the extension never opened still reads nothing from the portal after a restart', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url);
    const portalId = portalIdOf(url, 'portal');
    await control(url, 'POST', 'stats/reset');
    const doc = await vscode.workspace.openTextDocument(
      vscode.Uri.from({
        scheme: 'portal',
        authority: portalId,
        path: '/accounts/1/groups/104/details/Social (group).md',
      }),
    );
    assert.match(doc.getText(), /^# Not loaded from the portal$/m);
    assert.equal(((await control(url, 'GET', 'stats')) as { requests: number }).requests, 0);
  });

  it('editors of records restored from the last session show something: the record, or why it cannot load', async () => {
    const restored = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri : undefined))
      .filter((u): u is vscode.Uri => u?.scheme === 'portal' && u.path.endsWith('.md'));
    for (const uri of restored) {
      const doc = await vscode.workspace.openTextDocument(uri);
      assert.ok(doc.getText().startsWith('# '), `${uri.toString()} shows a document`);
    }
  });
});
