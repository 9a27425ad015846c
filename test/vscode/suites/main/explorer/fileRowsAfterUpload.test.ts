// A file record's row in the Explorer follows an upload: a new version uploaded over it through Upload Files… shows
// its new size and date with no refresh, though the group's list was read a moment before and would otherwise stay
// fresh for the cache's time.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { humanSize } from '../../../../../src/shared/format';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { features, walk, type Provider } from '../../../support/tree';
import { withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import { tempDir } from '../../../../support/tempDir';

describe('Explorer: file rows after an upload (default)', function () {
  this.timeout(120_000);
  let p: DemoPortal;
  const tmp = tempDir('rows-after-upload-');
  const config = () => vscode.workspace.getConfiguration('portal');

  before(async () => {
    p = await startDemoPortal();
    // Lists stay fresh for an hour: a row that changes does so because the extension read it again, not by age.
    await config().update('cacheSeconds', 3600, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await config().update('cacheSeconds', undefined, vscode.ConfigurationTarget.Global);
    await stopDemoPortal(p);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a file uploaded as a new version shows its size and date in its row with no refresh', async () => {
    const explorer = (await features()).explorer.provider as unknown as Provider;
    const row = async () => walk(explorer, p.portalId, ['Acme Corporation', 'Marketing', 'notes.txt']);
    const before = (await row()).description;
    const text = 'uploaded over the seed as a new version, longer than it was: the row must say so\n'.repeat(3);
    const local = path.join(tmp, 'notes.txt');
    fs.writeFileSync(local, text);
    const size = humanSize(Buffer.byteLength(text));
    assert.ok(!before.startsWith(`${size} · `), `${before} differs from the new size ${size}`);
    const marketing = await walk(explorer, p.portalId, ['Acme Corporation', 'Marketing']);
    await withUi({ 'upload.files': local, 'upload.clashes': 'New Version', 'upload.confirm': true }, () =>
      vscode.commands.executeCommand('portal.upload.files', marketing.node),
    );
    let shown = before;
    await waitFor(
      async () => (shown = (await row()).description).startsWith(`${size} · `),
      `the row says ${size}`,
    ).catch(() => undefined);
    assert.ok(shown.startsWith(`${size} · `), `the row says "${shown}", not ${size}`);
    const date = (d: string) => d.slice(d.indexOf(' · ') + 3);
    assert.notEqual(date(shown), date(before), "the date is the new version's");
  });
});
