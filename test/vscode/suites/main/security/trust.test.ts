// What the extension must not trust: a workspace's settings, arguments it did not make itself, and a second
// window's view of the stored credentials.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../../../../emulator';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import { setting } from '../../../../../src/auth/settings';
import { portalApi, signInForTest } from '../../../support/extension';
import { recordSecret } from '../../../support/leaks';
import { passwordToken, portalJson } from '../../../support/portalHttp';
import { features, nodeOf } from '../../../support/tree';
import { DISMISS, withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

interface Entry {
  id: string;
  label?: string;
  baseUrl: string;
  service?: string;
}

function userPortals(): Entry[] {
  return vscode.workspace.getConfiguration('portal').inspect<Entry[]>('portals')?.globalValue ?? [];
}

function workspaceSettingsFile(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the test workbench opens a folder');
  return path.join(folder, '.vscode', 'settings.json');
}

/** Writes the workspace's settings file as a cloned repository would bring it, and waits until VS Code has read it. */
async function writeWorkspaceSettings(settings: Record<string, unknown> | undefined): Promise<void> {
  const file = workspaceSettingsFile();
  const changed = new Promise<void>((resolve) => {
    const sub = vscode.workspace.onDidChangeConfiguration(() => {
      sub.dispose();
      resolve();
    });
    setTimeout(() => {
      sub.dispose();
      resolve();
    }, 4000);
  });
  if (settings) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  } else {
    fs.rmSync(file, { force: true });
  }
  await changed;
}

describe('Trust boundaries', function () {
  this.timeout(180_000);
  let good: Emulator;
  let evil: Emulator;
  const idOf = (e: Emulator) => portalIdOf(e.url, 'portal');

  before(async () => {
    good = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    evil = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    const script = await signInForTest({ baseUrl: good.url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
    recordSecret('clientSecret', (await (await portalApi()).testing.readStoredCredentials(idOf(good)))?.clientSecret);
  });

  after(async () => {
    await writeWorkspaceSettings(undefined);
    const api = await portalApi();
    for (const e of [good, evil]) if (api.registry.get(idOf(e))) await api.registry.remove(idOf(e));
    await Promise.all([good.stop(), evil.stop()]);
  });

  it("a workspace's settings cannot point a signed-in portal at another server, or change the limits", async () => {
    const api = await portalApi();
    const before = userPortals();
    evil.resetStats();
    await writeWorkspaceSettings({
      'portal.portals': [
        { id: idOf(good), label: 'Looks familiar', baseUrl: evil.url, service: 'portal' },
        { id: 'planted', label: 'Planted', baseUrl: evil.url, service: 'portal' },
      ],
      'portal.requestBudget.count': 0,
      'portal.maxConcurrentRequests': 0,
      'http.proxy': evil.url,
    });
    await api.registry.restore();
    const c = api.registry.get(idOf(good));
    assert.equal(c?.entry.baseUrl, good.url, "the entry is still the user's");
    assert.equal(api.registry.get('planted'), undefined, 'a workspace cannot add a portal');
    // Use the portal the way the Explorer does, token request included.
    await good.expireAllTokens();
    const info = await api.registry.client(idOf(good)).v3.userinfo();
    assert.equal(info.name, 'demo');
    assert.equal(api.registry.client(idOf(good)).budget.limit, 2000, "the workspace's request budget is ignored");
    assert.equal(
      evil.stats().requests,
      0,
      'the other server received nothing: no token request, no secret, no password',
    );
    assert.equal(evil.stats().tokenRequests, 0);

    // Signing in to another portal writes the user's list only: nothing of the workspace's list is copied into it.
    const script = await signInForTest({ baseUrl: evil.url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
    const after = userPortals();
    assert.deepEqual(after.map((e) => e.id).sort(), [...before.map((e) => e.id), idOf(evil)].sort());
    assert.equal(after.find((e) => e.id === idOf(good))?.baseUrl, good.url);
    assert.ok(!after.some((e) => e.id === 'planted'));
    await api.registry.remove(idOf(evil));
    await writeWorkspaceSettings(undefined);
  });

  it("a stored secret is sent only to the origin it was issued for, even when the user's own entry is re-pointed", async () => {
    const api = await portalApi();
    const config = vscode.workspace.getConfiguration('portal');
    const original = userPortals();
    evil.resetStats();
    try {
      await config.update(
        'portals',
        original.map((e) => (e.id === idOf(good) ? { ...e, baseUrl: evil.url } : e)),
        vscode.ConfigurationTarget.Global,
      );
      await waitFor(
        () => api.registry.get(idOf(good))?.entry.baseUrl === evil.url,
        'the registry follows the edited entry',
      );
      const c = api.registry.get(idOf(good));
      assert.equal(c?.client === undefined, true, 'signed out rather than sending the secret elsewhere');
      assert.match(c?.signedOutReason ?? '', /was made for http:\/\/127\.0\.0\.1:\d+.*not sent there/);
      assert.equal(evil.stats().requests, 0);
      assert.ok(
        await api.testing.readStoredCredentials(idOf(good)),
        'the credentials stay for when the entry is put back',
      );
    } finally {
      await config.update('portals', original, vscode.ConfigurationTarget.Global);
    }
    await waitFor(
      () => api.registry.get(idOf(good))?.client !== undefined,
      'the portal is signed in again once its entry is back',
    );
    assert.equal((await api.registry.client(idOf(good)).v3.userinfo()).name, 'demo');
  });

  it('a secret rotated in another window is picked up here; the new secret is never deleted', async () => {
    const api = await portalApi();
    const id = idOf(good);
    const stored = await api.testing.readStoredCredentials(id);
    assert.ok(stored);
    // The other window rotates the secret on the portal and stores the new one.
    const token = await passwordToken(good.url, 'demo', 'demo');
    const rotated = await portalJson<{ clientSecret?: string }>(
      good.url,
      token,
      'PATCH',
      `/v3/applications/${encodeURIComponent(stored.clientId)}`,
      { rotateSecret: true },
    );
    assert.equal(rotated.status, 200);
    const newSecret = rotated.body.clientSecret;
    assert.ok(newSecret);
    recordSecret('clientSecret', newSecret);
    // This window's token dies with the old secret; its next request needs a grant.
    await good.expireAllTokens();
    await api.testing.storeCredentials(id, { ...stored, clientSecret: newSecret });
    // Whichever comes first (the change event, or a request refused with the old secret), this window follows.
    // On a busy machine either may take a while: wait for the state, not for a number of tries.
    let info: { name?: string } | undefined;
    await waitFor(async () => {
      info = await api.registry
        .client(id)
        .v3.userinfo()
        .catch(async () => {
          await new Promise((r) => setTimeout(r, 200));
          return undefined;
        });
      return info !== undefined;
    }, 'this window reads the portal with the rotated secret');
    assert.equal(info?.name, 'demo');
    assert.equal(
      (await api.testing.readStoredCredentials(id))?.clientSecret,
      newSecret,
      'the new secret is still stored',
    );
    assert.ok(api.registry.get(id)?.client, 'still signed in');
    assert.equal(api.registry.get(id)?.signedOutReason, undefined);
  });

  it('a command given plain data instead of one of our rows ignores it and asks; the same from a view row acts at once', async () => {
    const id = idOf(good);
    const token = await passwordToken(good.url, 'demo', 'demo');
    const enabled = async () =>
      (await portalJson<{ user: { enabled: boolean } }>(good.url, token, 'GET', '/v3/accounts/1/members/bruno.dubois'))
        .body.user.enabled;
    assert.equal(await enabled(), true);
    const t = await features();
    t.members.show({ kind: 'account', portalId: id, accountId: 1, label: 'Acme Corporation' });
    // What a `command:` link, a keybinding's args or another extension can pass: plain data, a copy of a row's ref,
    // even an object made from a row's prototype.
    const row = await nodeOf({ kind: 'member', portalId: id, accountId: 1, username: 'bruno.dubois' });
    const forgeries: unknown[] = [
      { portalId: id, accountId: 1, username: 'bruno.dubois' },
      JSON.parse(JSON.stringify({ ...(row as object), ref: (row as { ref: unknown }).ref })),
      { ...(row as object) },
      Object.create(Object.getPrototypeOf(row) as object),
    ];
    await withUi({ 'pick.member': Array(forgeries.length + 1).fill(DISMISS) }, async (ui) => {
      for (const forged of forgeries) {
        assert.equal(await vscode.commands.executeCommand('portal.member.disable', forged), undefined);
      }
      assert.equal(await vscode.commands.executeCommand('portal.changeMemberGroupPermission', forgeries[0]), undefined);
      assert.deepEqual(
        ui.questions,
        Array(forgeries.length + 1).fill('pick.member'),
        'each one asked which member, as from the palette',
      );
      assert.deepEqual(ui.told, [], 'a dismissed question ends the command without a message');
    });
    assert.equal(await enabled(), true, 'nothing changed');

    // The same command on the Members view's own row: no question.
    await withUi({}, async (ui) => {
      await vscode.commands.executeCommand('portal.member.disable', row);
      assert.deepEqual(ui.questions, []);
      assert.equal(await enabled(), false);
      await vscode.commands.executeCommand('portal.member.enable', row);
      assert.equal(await enabled(), true);
    });
  });

  it('settings outside their bounds are clamped: a budget or concurrency of 0 cannot stop a portal', async () => {
    const api = await portalApi();
    const config = vscode.workspace.getConfiguration('portal');
    const keys = [
      'requestBudget.count',
      'requestBudget.windowSeconds',
      'maxConcurrentRequests',
      'requestTimeoutSeconds',
    ] as const;
    try {
      await config.update('requestBudget.count', 0, vscode.ConfigurationTarget.Global);
      await config.update('requestBudget.windowSeconds', 0, vscode.ConfigurationTarget.Global);
      await config.update('maxConcurrentRequests', 0, vscode.ConfigurationTarget.Global);
      await config.update('requestTimeoutSeconds', 1e9, vscode.ConfigurationTarget.Global);
      // A client is built from the settings when a portal connects: sign in to the other portal now.
      const script = await signInForTest({ baseUrl: evil.url, username: 'demo', password: 'demo' });
      assert.deepEqual(script.failures, []);
      const client = api.registry.client(idOf(evil));
      assert.equal(client.budget.limit, 10, 'the budget is at least 10 requests');
      assert.equal(client.budget.windowMs, 1000, 'the window is at least 1 s');
      assert.equal(setting('maxConcurrentRequests'), 1, 'at least one request at a time');
      assert.equal(setting('requestTimeoutSeconds'), 300, 'a timeout of 1e9 s is held to 5 minutes');
      const [a, b] = await Promise.all([client.v3.userinfo(), client.v3.accounts.list()]);
      assert.equal(a.name, 'demo', 'requests still flow with a concurrency of "0"');
      assert.ok(b.length > 0);
    } finally {
      for (const key of keys) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      if (api.registry.get(idOf(evil))) await api.registry.remove(idOf(evil));
    }
  });
});
