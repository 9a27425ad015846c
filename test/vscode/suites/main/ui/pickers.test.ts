// The pickers a file command falls back on when it runs from the palette: a file record, or a folder, of a group,
// searched by name on the portal across every folder of the group; the folder picker offers folders only, after the
// group as a whole.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { DISMISS, withUi, type Answers } from '../../../support/ui';

const ACME = 1;
const ENGINEERING = 101;

describe('Pickers of file records and folders, from the palette', function () {
  this.timeout(180_000);
  let p: DemoPortal;
  const toEngineering = (): Answers => ({
    'pick.portal': (id: string) => id === p.portalId,
    'pick.account': (a: { accountId: number }) => a.accountId === ACME,
    'pick.group': (g: { groupId: number }) => g.groupId === ENGINEERING,
  });

  before(async () => {
    p = await startDemoPortal();
  });

  after(async () => stopDemoPortal(p));

  it('"Copy ID" finds a file record in a subfolder by its name, and copies its id', async () => {
    const ui = await withUi(
      { ...toEngineering(), 'pick.file': { search: 'architecture', pick: 'architecture.md' } },
      async (scripted) => {
        await vscode.commands.executeCommand('portal.file.copyId');
        return scripted;
      },
      { allUsed: false },
    );
    assert.deepEqual(ui.asked.find((a) => a.id === 'pick.file')?.items, ['architecture.md']);
    assert.equal(ui.copied.length, 1);
    assert.match(ui.copied[0] ?? '', /^\d+$/);
  });

  it('"Download Folder…" offers the whole group, then only folders (subfolders too), and searches them by name', async () => {
    const ui = await withUi(
      {
        ...toEngineering(),
        'pick.folder': [
          { search: '', pick: 'docs' },
          { search: 'diag', pick: 'diagrams' },
        ],
        'folderDownload.folder': [DISMISS, DISMISS],
      },
      async (scripted) => {
        await vscode.commands.executeCommand('portal.folder.download');
        await vscode.commands.executeCommand('portal.folder.download');
        return scripted;
      },
      { allUsed: false },
    );
    const [all, searched] = ui.asked.filter((a) => a.id === 'pick.folder').map((a) => a.items ?? []);
    assert.match(all?.[0] ?? '', /^All of /);
    assert.ok(all?.includes('docs') && all.includes('diagrams'), `offered: ${all?.join(', ')}`);
    for (const file of ['README.md', 'architecture.md', 'index.ts'])
      assert.ok(!all?.includes(file), `a file is offered: ${file}`);
    assert.deepEqual(searched, ['diagrams']);
  });
});
