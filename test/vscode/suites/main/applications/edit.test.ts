// Rename an application and edit its description from the Applications view: the portal gets the new text, the
// row shows it, and a text that is refused (here, or by the portal) is never lost.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { portalKey } from '../../../../../src/shared/keys';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalJson } from '../../../support/portalHttp';
import { byLabel, features, rows, tooltipOf, type Provider, type Row } from '../../../support/tree';
import { withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

interface AppJson {
  clientId: string;
  name: string;
  description: string | null;
}

describe('Applications: rename and edit the description', function () {
  this.timeout(180_000);
  let p: DemoPortal;
  let applications: Provider;

  const appRows = async (): Promise<Row[]> => {
    const portal = (await rows(applications)).find((r) => r.id === portalKey('applications', p.portalId));
    assert.ok(portal, 'the portal is listed');
    return rows(applications, portal.node);
  };
  const onPortal = async (name: string): Promise<AppJson | undefined> =>
    (await portalJson<AppJson[]>(p.emu.url, p.token, 'GET', '/v3/applications')).body.find((a) => a.name === name);
  /** The view reloads in the background after a change: wait for the row that says so. */
  const rowNamed = async (name: string): Promise<Row> => {
    await waitFor(async () => (await appRows()).some((r) => r.label === name), `the Applications view shows "${name}"`);
    return byLabel(await appRows(), name);
  };

  before(async () => {
    p = await startDemoPortal();
    applications = (await features()).applications.provider as unknown as Provider;
  });

  after(async () => stopDemoPortal(p));

  it('renames an application from its row: the box starts with its name, the portal and the row get the new one', async () => {
    const sync = byLabel(await appRows(), 'Portal Sync (laptop)');
    const clientId = (await onPortal('Portal Sync (laptop)'))?.clientId;
    await withUi({ 'application.rename': '  Portal Sync (work laptop) ' }, async (ui) => {
      assert.equal(await vscode.commands.executeCommand('portal.application.rename', sync.node), true);
      assert.equal(ui.asked.find((q) => q.id === 'application.rename')?.value, 'Portal Sync (laptop)');
      assert.deepEqual(
        ui.told.map((t) => t.text),
        ['Renamed the application to "Portal Sync (work laptop)".'],
      );
    });
    assert.equal(
      (await onPortal('Portal Sync (work laptop)'))?.clientId,
      clientId,
      'the same application, renamed (trimmed)',
    );
    await rowNamed('Portal Sync (work laptop)');
    assert.ok(!(await appRows()).some((r) => r.label === 'Portal Sync (laptop)'));
  });

  it('edits the description from its row, and an empty text removes it', async () => {
    const row = await rowNamed('Portal Sync (work laptop)');
    await withUi({ 'application.description': ['Syncs the project folders of the work laptop', ''] }, async (ui) => {
      const boxes = () => ui.asked.filter((q) => q.id === 'application.description');
      assert.equal(await vscode.commands.executeCommand('portal.application.editDescription', row.node), true);
      assert.equal(boxes()[0]?.value, 'Desktop sync client', 'the box starts with the description the portal has');
      await waitFor(
        async () =>
          (await tooltipOf(applications, await rowNamed('Portal Sync (work laptop)'))).includes(
            'Syncs the project folders',
          ),
        "the row's tooltip shows the new description",
      );
      assert.equal(
        (await onPortal('Portal Sync (work laptop)'))?.description,
        'Syncs the project folders of the work laptop',
      );

      assert.equal(await vscode.commands.executeCommand('portal.application.editDescription', row.node), true);
      assert.equal(boxes()[1]?.value, 'Syncs the project folders of the work laptop');
    });
    assert.ok(!(await onPortal('Portal Sync (work laptop)'))?.description, 'no description left');
  });

  it('refuses a blank name before asking the portal, and offers a text the portal refused again with its reason', async () => {
    const iphone = byLabel(await appRows(), 'Portal for iPhone');
    await withUi({ 'application.rename': '   ' }, async (ui) => {
      assert.equal(await vscode.commands.executeCommand('portal.application.rename', iphone.node), undefined);
      assert.deepEqual(
        ui.refused.map((r) => r.problem),
        ['Enter a name.'],
      );
    });
    assert.ok(await onPortal('Portal for iPhone'), 'unchanged on the portal');

    // Within this extension's limit, past the portal's (the emulator takes 1000 characters).
    const long = 'x'.repeat(1500);
    await withUi({ 'application.description': [long, 'For the iPhone app'] }, async (ui) => {
      assert.equal(await vscode.commands.executeCommand('portal.application.editDescription', iphone.node), true);
      const [first, again] = ui.asked.filter((q) => q.id === 'application.description');
      assert.doesNotMatch(first?.texts.join('\n') ?? '', /refused/);
      assert.equal(again?.value, long, 'what was typed comes back');
      assert.match(again?.texts.join('\n') ?? '', /The portal refused this text: .*1000/);
    });
    assert.equal((await onPortal('Portal for iPhone'))?.description, 'For the iPhone app');
  });

  it('from the palette asks which application; the same text changes nothing', async () => {
    await withUi({ 'pick.application': 'Portal for iPhone', 'application.rename': 'Portal for iPhone' }, async (ui) => {
      assert.equal(await vscode.commands.executeCommand('portal.application.rename'), false);
      assert.deepEqual(ui.questions, ['pick.application', 'application.rename']);
      assert.deepEqual(ui.told, []);
    });
    await withUi({ 'pick.application': 'Portal for iPhone', 'application.rename': 'Portal for iPad' }, async () => {
      assert.equal(await vscode.commands.executeCommand('portal.application.rename'), true);
    });
    assert.ok(await onPortal('Portal for iPad'));
    await rowNamed('Portal for iPad');
  });
});
