// The commands no other suite runs, each run the way a person runs it (on a row of ours, or from the palette
// answering its questions) and checked by what it did: what reached the clipboard, what the views show after the
// portal changed behind them, which account the Members view shows, whether the portal is signed in or listed.
// The sessions part runs last: it signs the portal out, in again, and finally removes it.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalApi, signInAnswers } from '../../../support/extension';
import { portalJson } from '../../../support/portalHttp';
import { byLabel, features, loadAll, rows, walk, type Provider, type Row } from '../../../support/tree';
import { withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import { portalKey } from '../../../../../src/shared/keys';

const ACME = 1;
const GLOBEX = 2;

describe('Commands no other suite runs, checked by what they did', function () {
  this.timeout(180_000);
  let p: DemoPortal;
  let explorer: Provider;
  let members: Provider;
  let applications: Provider;

  const appsOfPortal = async (): Promise<Row[]> => {
    const portal = byId(await rows(applications), portalKey('applications', p.portalId));
    return rows(applications, portal.node);
  };
  /** Changes made on the portal behind the extension's back (its lists are cached for 30 s). */
  const addGroup = async (accountId: number, name: string): Promise<void> => {
    const r = await portalJson(p.emu.url, p.token, 'POST', `/v2/accounts/${accountId}/groups`, {
      name: name.toLowerCase().replace(/\W+/g, '-'),
      friendlyName: name,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  const addMember = async (name: string): Promise<void> => {
    const username = name.toLowerCase().replace(/\W+/g, '.');
    const r = await portalJson(p.emu.url, p.token, 'POST', `/v3/accounts/${ACME}/members`, {
      name,
      username,
      email: `${username}@acme.example`,
      password: 'Pw-123456789',
      enabled: true,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  const addApplication = async (name: string): Promise<void> => {
    const r = await portalJson(p.emu.url, p.token, 'POST', '/v3/applications', {
      name,
      platform: 'OTHER',
      deviceType: 'Other',
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  };
  const labels = (list: Row[]) => list.map((r) => r.label);
  /** The questions asked, less "which portal?", which only a window with another portal signed in asks. */
  const besidesPortal = (questions: readonly string[]) => questions.filter((q) => q !== 'pick.portal');
  const acmeGroups = async () =>
    labels(await rows(explorer, (await walk(explorer, p.portalId, ['Acme Corporation'])).node));
  const globexGroups = async () =>
    labels(await rows(explorer, (await walk(explorer, p.portalId, ['Globex Research'])).node));
  /** The Members view's rows, all pages (the view shows Acme unless a test chose another organisation). */
  const memberNames = async () => labels(await loadAll(members, undefined, 'portal.members.loadMore'));

  before(async () => {
    p = await startDemoPortal();
    const t = await features();
    explorer = t.explorer.provider as unknown as Provider;
    members = t.members.provider as unknown as Provider;
    applications = t.applications.provider as unknown as Provider;
    t.members.show({ kind: 'account', portalId: p.portalId, accountId: ACME, label: 'Acme Corporation' });
  });

  after(async () => stopDemoPortal(p));

  it("the copy commands put the row's id or name on the clipboard, from a row or from the palette", async () => {
    const engineering = await walk(explorer, p.portalId, ['Acme Corporation', 'Engineering']);
    const readme = byLabel(await rows(explorer, engineering.node), 'README.md');
    const apps = await appsOfPortal();
    const sync = byLabel(apps, 'Portal Sync (laptop)');
    const onPortal = await portalJson<Array<{ clientId: string; name: string }>>(
      p.emu.url,
      p.token,
      'GET',
      '/v3/applications',
    );
    const idOf = (name: string) => onPortal.body.find((a) => a.name === name)?.clientId;
    // Whether another portal is signed in depends on the suites before (auth leaves one for the restart phase):
    // when the palette asks for a portal, this one is picked.
    const ours = (id: string) => id === p.portalId;
    await withUi(
      { 'pick.portal': ours, 'pick.application': 'Portal for iPhone' },
      async (ui) => {
        await vscode.commands.executeCommand('portal.file.copyId', readme.node);
        await vscode.commands.executeCommand('portal.group.copyName', engineering.node);
        await vscode.commands.executeCommand('portal.application.copyClientId', sync.node);
        // From the palette: the portal and the application are asked for.
        await vscode.commands.executeCommand('portal.application.copyClientId');
        assert.deepEqual(ui.copied, [
          String((readme.node as { ref: { fileId: number } }).ref.fileId),
          'Engineering',
          idOf('Portal Sync (laptop)'),
          idOf('Portal for iPhone'),
        ]);
        assert.deepEqual(besidesPortal(ui.questions), ['pick.application']);
        assert.deepEqual(ui.told, []);
      },
      { allUsed: false },
    );
  });

  it('"Refresh" of the Explorer shows what changed on the portal; "Refresh" on a row only below that row', async () => {
    await acmeGroups();
    await globexGroups();
    await addGroup(ACME, 'Audit Acme One');
    await addGroup(GLOBEX, 'Audit Globex One');
    assert.ok(!(await acmeGroups()).includes('Audit Acme One'), 'the list is still the cached one');
    const acme = await walk(explorer, p.portalId, ['Acme Corporation']);
    await vscode.commands.executeCommand('portal.explorer.refreshNode', acme.node);
    assert.ok((await acmeGroups()).includes('Audit Acme One'), 'the refreshed row asked the portal again');
    assert.ok(!(await globexGroups()).includes('Audit Globex One'), "another organisation's list was left alone");
    await vscode.commands.executeCommand('portal.explorer.refresh');
    assert.ok((await globexGroups()).includes('Audit Globex One'), 'the whole view asked the portal again');
  });

  it('"Refresh" of the Members and Applications views, and "Refresh All Views", show what changed on the portal', async () => {
    await memberNames();
    await appsOfPortal();
    await addMember('Aaron Audit');
    await addApplication('Audit Application');
    assert.ok(!(await memberNames()).includes('Aaron Audit'), 'the member list is still the cached one');
    assert.ok(
      !labels(await appsOfPortal()).includes('Audit Application'),
      'the application list is still the cached one',
    );
    await vscode.commands.executeCommand('portal.members.refresh');
    assert.ok((await memberNames()).includes('Aaron Audit'));
    await vscode.commands.executeCommand('portal.applications.refresh');
    assert.ok(labels(await appsOfPortal()).includes('Audit Application'));

    await acmeGroups();
    await addMember('Abel Audit');
    await addApplication('Audit Application Two');
    await addGroup(ACME, 'Audit Acme Two');
    await vscode.commands.executeCommand('portal.refresh');
    assert.ok((await memberNames()).includes('Abel Audit'));
    assert.ok(labels(await appsOfPortal()).includes('Audit Application Two'));
    assert.ok((await acmeGroups()).includes('Audit Acme Two'));
  });

  it('"Retry" on the error row of the Members and Applications views loads the list the portal failed', async () => {
    const t = await features();
    p.emu.setFaults([
      { kind: 'status', status: 500, count: 20, path: `/v3/accounts/${ACME}/members` },
      { kind: 'status', status: 500, count: 20, path: '/v3/applications' },
    ]);
    let memberError: Row | undefined;
    let appError: Row | undefined;
    try {
      t.members.refresh();
      t.applications.refresh();
      memberError = (await rows(members))[0];
      appError = (await appsOfPortal())[0];
    } finally {
      p.emu.clearFaults();
    }
    assert.equal(memberError?.contextValue, 'error', labels(await rows(members)).join(', '));
    assert.equal(memberError?.command?.command, 'portal.members.retry');
    assert.equal(appError?.contextValue, 'error');
    assert.equal(appError?.command?.command, 'portal.applications.retry');
    // VS Code asks for an error row's list again only when the view says it changed: the command must say so.
    assert.ok(await redraws(members, () => vscode.commands.executeCommand('portal.members.retry', memberError?.node)));
    assert.ok((await memberNames()).includes('Dana Demo'));
    assert.ok(
      await redraws(applications, () => vscode.commands.executeCommand('portal.applications.retry', appError?.node)),
    );
    assert.ok(labels(await appsOfPortal()).includes('Portal Sync (laptop)'));
  });

  it('"Load more" in the Applications view loads the page behind an error row (the list arrives whole, so it has no other row)', async () => {
    const t = await features();
    p.emu.setFaults([{ kind: 'status', status: 500, count: 20, path: '/v3/applications' }]);
    let error: Row | undefined;
    try {
      t.applications.refresh();
      error = (await appsOfPortal())[0];
    } finally {
      p.emu.clearFaults();
    }
    assert.equal(error?.contextValue, 'error');
    assert.ok(
      await redraws(applications, () => vscode.commands.executeCommand('portal.applications.loadMore', error?.node)),
    );
    assert.ok(labels(await appsOfPortal()).includes('Portal for iPhone'));
    assert.ok(!labels(await appsOfPortal()).some((l) => l.startsWith('Could not')), 'no error row is left');
  });

  it('"Choose Organisation" shows the chosen organisation\'s members: from the palette it asks, from an account row it does not', async () => {
    const t = await features();
    await withUi(
      {
        'pick.portal': (id: string) => id === p.portalId,
        'pick.account': (a: { accountId: number }) => a.accountId === GLOBEX,
      },
      async (ui) => {
        await vscode.commands.executeCommand('portal.members.chooseAccount');
        assert.deepEqual(besidesPortal(ui.questions), ['pick.account']);
      },
      { allUsed: false },
    );
    assert.equal(t.members.snapshot().account?.accountId, GLOBEX);
    await waitFor(() => t.members.view.visible, 'the Members view is shown');
    assert.ok(!(await memberNames()).includes('Mia Member'), "Globex's members, not Acme's");

    const acme = await walk(explorer, p.portalId, ['Acme Corporation']);
    await withUi({}, async (ui) => {
      await vscode.commands.executeCommand('portal.members.chooseAccount', acme.node);
      assert.deepEqual(ui.questions, []);
    });
    assert.equal(t.members.snapshot().account?.accountId, ACME);
    assert.ok((await memberNames()).includes('Mia Member'));
  });

  describe('sessions', () => {
    const label = async () => (await portalApi()).registry.get(p.portalId)?.entry.label ?? '';

    it('removing the session in the Accounts menu signs the portal out and forgets its secret', async () => {
      const api = await portalApi();
      const clientId = api.registry.get(p.portalId)?.clientId;
      const account = (await vscode.authentication.getAccounts('portal')).find(
        (a) => a.label === `demo @ ${api.registry.get(p.portalId)?.entry.label}`,
      );
      assert.ok(account, (await vscode.authentication.getAccounts('portal')).map((a) => a.label).join(', '));
      // What the Accounts menu runs for "Sign Out" (its confirmation is accepted under test).
      await vscode.commands.executeCommand('_signOutOfAccount', { providerId: 'portal', accountLabel: account.label });
      await waitFor(() => api.registry.get(p.portalId)?.client === undefined, 'the portal is signed out');
      assert.equal(await api.testing.readStoredCredentials(p.portalId), undefined, 'its credentials are gone');
      assert.ok(
        !(await vscode.authentication.getAccounts('portal')).some((a) => a.label === account.label),
        'the Accounts menu no longer lists it',
      );
      const apps = await portalJson<Array<{ clientId: string }>>(p.emu.url, p.token, 'GET', '/v3/applications');
      assert.ok(
        apps.body.some((a) => a.clientId === clientId),
        'signing out here leaves the application on the portal',
      );
    });

    it('"Show Sessions" offers to sign in again to a signed-out portal, and to sign out of a signed-in one', async () => {
      const api = await portalApi();
      const name = await label();
      await withUi(
        { 'sessions.pick': `Sign in again to ${name}`, ...signInAnswers({ username: 'demo', password: 'demo' }) },
        async (ui) => {
          await vscode.commands.executeCommand('portal.showSessions');
          assert.deepEqual(ui.questions, ['sessions.pick', 'signIn.username', 'signIn.password']);
        },
        { allUsed: false },
      );
      assert.ok(api.registry.get(p.portalId)?.client, 'signed in again');

      await withUi({ 'sessions.pick': `Sign out of ${name}`, 'signOut.choice': 'signOut' }, async () => {
        await vscode.commands.executeCommand('portal.showSessions');
      });
      assert.equal(api.registry.get(p.portalId)?.client, undefined, 'signed out');
      assert.ok(api.registry.get(p.portalId), 'still listed');
    });

    it('"Remove Portal" forgets the portal: its entry in settings and its row', async () => {
      const api = await portalApi();
      const portal = byId(await rows(explorer), portalKey('explorer', p.portalId));
      await withUi({ 'portal.remove': true }, async (ui) => {
        assert.equal(await vscode.commands.executeCommand('portal.removePortal', portal.node), true);
        assert.match(ui.asked[0]?.texts.join('\n') ?? '', /Nothing changes on the portal/);
      });
      assert.equal(api.registry.get(p.portalId), undefined);
      const entries = vscode.workspace.getConfiguration('portal').get<Array<{ id: string }>>('portals', []);
      assert.ok(!entries.some((e) => e.id === p.portalId), 'the settings entry is gone');
      assert.ok(
        !(await rows(explorer)).some((r) => r.id === portalKey('explorer', p.portalId)),
        'the Explorer no longer lists it',
      );
    });
  });
});

/**
 * Whether the provider told VS Code to draw (part of) the view again for `action`. The whole view's redraw is sent
 * at the end of the turn (once, however many changes asked for it), so it is awaited, bounded.
 */
async function redraws(provider: Provider, action: () => Thenable<unknown>): Promise<boolean> {
  let fired = false;
  const subscription = provider.onDidChangeTreeData?.(() => (fired = true));
  try {
    await action();
    await waitFor(() => fired, 'the view was told to draw again').catch(() => undefined);
  } finally {
    subscription?.dispose();
  }
  return fired;
}

function byId(list: Row[], id: string): Row {
  const row = list.find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id} among ${list.map((r) => r.id).join(', ')}`);
  return row;
}
