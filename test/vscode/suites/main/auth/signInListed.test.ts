// Every sign-in entry point (the welcome button, the walkthrough's button, the palette's Sign In…) runs portal.signIn
// without a row: it offers the portals already listed, and an address that normalises to a listed one is that one.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../../../../emulator';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import { portalApi, signInFailures } from '../../../support/extension';
import { passwordToken, portalJson } from '../../../support/portalHttp';
import { visible, withUi, type Asked } from '../../../support/ui';

interface Entry {
  id: string;
  label?: string;
  baseUrl: string;
  service?: string;
}

const config = () => vscode.workspace.getConfiguration('portal');
const listedEntries = (): Entry[] => config().inspect<Entry[]>('portals')?.globalValue ?? [];

describe('Sign-in offers the listed portals', function () {
  this.timeout(180_000);
  let emu: Emulator;
  let before: Entry[];
  // Listed as the demo lists its portal: an id of its own, not the one a typed address would make.
  const LISTED_ID = 'listed-demo-portal';

  beforeEach(async () => {
    emu = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    before = listedEntries();
    await config().update(
      'portals',
      [...before, { id: LISTED_ID, label: 'Listed demo', baseUrl: emu.url, service: 'portal' }],
      vscode.ConfigurationTarget.Global,
    );
    const api = await portalApi();
    await api.registry.restore();
  });

  afterEach(async () => {
    const api = await portalApi();
    for (const id of [LISTED_ID, portalIdOf(emu.url, 'portal')])
      if (api.registry.get(id)) await api.registry.remove(id);
    await config().update('portals', before, vscode.ConfigurationTarget.Global);
    await api.registry.restore();
    await emu.stop();
  });

  const applicationsOnPortal = async (): Promise<string[]> => {
    const token = await passwordToken(emu.url, 'demo', 'demo');
    const apps = await portalJson<Array<{ name: string }>>(emu.url, token, 'GET', '/v3/applications');
    return apps.body.map((a) => a.name).filter((n) => n.startsWith('Portal for VS Code on '));
  };

  it('offers the listed portals first, signed-out ones on top and "Another portal…" last, and signs the chosen one in', async () => {
    let offered: Asked | undefined;
    await withUi(
      {
        'signIn.portal': (v: unknown) => typeof v === 'object' && (v as Entry).id === LISTED_ID,
        'signIn.username': 'demo',
        'signIn.password': 'demo',
      },
      async (ui) => {
        await vscode.commands.executeCommand('portal.signIn');
        offered = ui.asked.find((q) => q.id === 'signIn.portal');
        assert.deepEqual(signInFailures(ui), []);
        assert.deepEqual(
          ui.questions,
          ['signIn.portal', 'signIn.username', 'signIn.password'],
          'a listed portal needs no address and no service name',
        );
      },
    );
    const items = (offered?.items ?? []).map(visible);
    assert.equal(items.at(-1), 'Another portal…', 'a new address is the last choice');
    const api = await portalApi();
    const listed = api.registry.list();
    const signedOut = listed.filter((c) => !c.client).map((c) => c.entry.label);
    assert.ok(items.includes('Listed demo'), `the listed portal is offered: ${items.join(', ')}`);
    // Signed-out portals (the listed demo among them, at the time) came before every signed-in one.
    const firstSignedIn = items.findIndex((l) =>
      listed.some((c) => c.client && c.entry.label === l && l !== 'Listed demo'),
    );
    if (firstSignedIn >= 0)
      assert.ok(items.indexOf('Listed demo') < firstSignedIn, `signed-out first: ${items.join(', ')}`);
    assert.ok(!signedOut.includes('Listed demo'), 'the listed portal is now signed in');
    assert.ok(api.registry.get(LISTED_ID)?.client, 'the listed entry itself is signed in');
  });

  it('takes an address and service that normalise to a listed portal as that portal: no second entry, no second application', async () => {
    await withUi(
      {
        'signIn.portal': (v: unknown) => v === 'another',
        // An upper-case scheme, a trailing slash and the service named: the listed portal once normalised.
        'signIn.baseUrl': `${emu.url.replace('http://', 'HTTP://')}/ portal`,
        'signIn.username': 'demo',
        'signIn.password': 'demo',
      },
      async (ui) => {
        await vscode.commands.executeCommand('portal.signIn');
        assert.deepEqual(signInFailures(ui), []);
        const address = ui.asked.find((q) => q.id === 'signIn.baseUrl');
        assert.equal(address?.value, 'https://', 'the address box starts with the scheme');
        assert.ok(
          !ui.questions.includes('signIn.service'),
          'the usual service is not a question of its own: the address may name another',
        );
      },
    );
    const api = await portalApi();
    assert.ok(api.registry.get(LISTED_ID)?.client, 'the listed entry is the one signed in');
    assert.equal(api.registry.get(portalIdOf(emu.url, 'portal')), undefined, 'no second entry in the registry');
    const sameUrl = listedEntries().filter((e) => e.baseUrl.replace(/\/+$/, '') === emu.url);
    assert.deepEqual(
      sameUrl.map((e) => e.id),
      [LISTED_ID],
      'settings list the portal once',
    );
    assert.equal((await applicationsOnPortal()).length, 1, 'one application registered on the portal');
  });
});
