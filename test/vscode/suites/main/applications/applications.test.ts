import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../../../emulator';
import { portalKey } from '../../../../../src/shared/keys';
import { startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { portalApi } from '../../../support/extension';
import { portalJson } from '../../../support/portalHttp';
import { byLabel, features, rows, type Provider, type Row } from '../../../support/tree';
import { withUi } from '../../../support/ui';

describe('Applications view', function () {
  this.timeout(180_000);
  let emu: Emulator;
  let portalId: string;
  let token: string;
  let applications: Provider & { refresh(node?: unknown): void };

  const portalNode = async (): Promise<Row> => {
    const list = await rows(applications);
    const row = list.find((r) => r.id === portalKey('applications', portalId));
    assert.ok(row, `portal listed: ${list.map((r) => r.id).join(', ')}`);
    return row;
  };

  before(async () => {
    ({ emu, portalId, token } = await startDemoPortal());
    applications = (await features()).applications.provider as unknown as typeof applications;
  });

  after(async () => {
    await stopDemoPortal({ emu, portalId });
  });

  it("lists the signed-in user's applications with platform and last activity, marking this window's own", async () => {
    const list = await rows(applications, (await portalNode()).node);
    const labels = list.map((r) => r.label);
    assert.ok(labels.includes('Portal Sync (laptop)'), labels.join(', '));
    assert.ok(labels.includes('Portal for iPhone'));
    assert.match(
      byLabel(list, 'Portal Sync (laptop)').description,
      /^Sync client · active \d+ (day|month|year)s? ago$/,
    );
    assert.match(byLabel(list, 'Portal for iPhone').description, /^iOS · never active$/);
    const mine = list.filter((r) => r.contextValue === 'application.current');
    assert.equal(mine.length, 1);
    assert.match(mine[0]?.label ?? '', /^Portal for VS Code on /);
    assert.match(mine[0]?.description ?? '', /this VS Code$/);
  });

  it("shows an application's details as a read-only document, without its secret", async () => {
    const sync = byLabel(await rows(applications, (await portalNode()).node), 'Portal Sync (laptop)');
    await vscode.commands.executeCommand('portal.application.details', sync.node);
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(text, /^# Portal Sync \(laptop\)$/m);
    assert.match(text, /\*\*Platform:\*\* Sync client$/m);
    assert.match(text, /\*\*Client id:\*\* demo-/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("deletes an application after a warning; deleting this window's own signs the portal out", async () => {
    const api = await portalApi();
    const list = await rows(applications, (await portalNode()).node);
    const iphone = byLabel(list, 'Portal for iPhone');
    await withUi({ 'application.delete': [true, true] }, async (ui) => {
      const warnings = () => ui.asked.filter((q) => q.id === 'application.delete').map((q) => q.texts.join('\n'));
      assert.equal(await vscode.commands.executeCommand('portal.application.delete', iphone.node), true);
      assert.match(warnings()[0] ?? '', /stop working at once/);
      const apps = await portalJson<Array<{ name: string }>>(emu.url, token, 'GET', '/v3/applications');
      assert.ok(!apps.body.some((a) => a.name === 'Portal for iPhone'));
      assert.ok(api.registry.get(portalId)?.client, 'still signed in');

      const mine = (await rows(applications, (await portalNode()).node)).find(
        (r) => r.contextValue === 'application.current',
      );
      assert.equal(await vscode.commands.executeCommand('portal.application.delete', mine?.node), true);
      assert.match(warnings()[1] ?? '', /will be signed out/);
    });
    assert.equal(api.registry.get(portalId)?.client === undefined, true, 'signed out');
    assert.ok(
      !(await rows(applications)).some((r) => r.id === portalKey('applications', portalId)),
      'a signed-out portal leaves the view',
    );
  });
});
