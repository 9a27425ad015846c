import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../../../../emulator';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import { isPortalError, portalApi, signInAnswers, signInFailures, signInForTest } from '../../../support/extension';
import { recordSecret } from '../../../support/leaks';
import { addAdministrator, control, passwordToken, portalJson } from '../../../support/portalHttp';
import { nodeOf } from '../../../support/tree';
import { withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

interface AppJson {
  clientId: string;
  name: string;
}

describe('Sign-in and secrets', function () {
  this.timeout(180_000);
  let a: Emulator;
  let b: Emulator;
  const username = `leakcheck${randomBytes(3).toString('hex')}`;
  const password = `Pw-${randomBytes(12).toString('hex')}`;
  const idOf = (e: Emulator) => portalIdOf(e.url, 'portal');

  before(async () => {
    a = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    b = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    recordSecret('password', password);
    // A user with a password no other text contains, so the leak search after the run means something.
    await addAdministrator(a.url, { name: 'Leak Check', username, password });
  });

  after(async () => {
    const api = await portalApi();
    for (const e of [a, b]) if (api.registry.get(idOf(e))) await api.registry.remove(idOf(e));
    await Promise.all([a.stop(), b.stop()]);
  });

  it('signs in with a password, registers this machine as an application, and keeps only its client credentials', async () => {
    a.resetStats();
    const script = await signInForTest({ baseUrl: a.url, username, password });
    assert.deepEqual(script.failures, []);
    assert.deepEqual(
      script.asked,
      ['signIn.baseUrl', 'signIn.username', 'signIn.password'],
      'no two-factor question for a user without it',
    );
    const api = await portalApi();
    const c = api.registry.get(idOf(a));
    assert.ok(c?.client, 'portal A is signed in');
    assert.equal(c.username, username);
    // The password grant, then the grant that proves the new application's secret; the portal's first call uses
    // that token rather than asking for a third.
    assert.equal((await c.client.v3.userinfo()).name, username);
    assert.equal(a.stats().tokenRequests, 2, 'two token requests for the whole sign-in');

    const stored = await api.testing.readStoredCredentials(idOf(a));
    assert.ok(stored, 'client credentials are in SecretStorage');
    const token = await passwordToken(a.url, username, password);
    const apps = await portalJson<AppJson[]>(a.url, token, 'GET', '/v3/applications');
    const mine = apps.body.find((x) => x.clientId === stored.clientId);
    assert.ok(mine, 'the application exists on the portal');
    assert.match(mine.name, /^Portal for VS Code on /);
    recordSecret('clientSecret', stored.clientSecret);

    // Settings hold the portal list and nothing secret.
    const entries = vscode.workspace.getConfiguration('portal').get<Record<string, unknown>[]>('portals', []);
    const entry = entries.find((e) => e.id === idOf(a));
    assert.deepEqual(Object.keys(entry ?? {}).sort(), ['baseUrl', 'id', 'label', 'service']);
    assert.ok(!JSON.stringify(entries).includes(stored.clientSecret));

    const session = await vscode.authentication.getSession('portal', [], { silent: true });
    recordSecret('accessToken', session?.accessToken);
  });

  it('signing in again deletes the application the earlier sign-in created: the portal keeps one of ours', async () => {
    const api = await portalApi();
    const earlier = await api.testing.readStoredCredentials(idOf(a));
    assert.ok(earlier?.applicationCreatedHere, 'the first sign-in created an application');
    const script = await signInForTest({ baseUrl: a.url, username, password });
    assert.deepEqual(script.failures, []);
    const now = await api.testing.readStoredCredentials(idOf(a));
    assert.ok(now && now.clientId !== earlier.clientId, 'a new application for the new sign-in');
    recordSecret('clientSecret', now.clientSecret);
    const token = await passwordToken(a.url, username, password);
    const apps = await portalJson<AppJson[]>(a.url, token, 'GET', '/v3/applications');
    assert.deepEqual(
      apps.body.filter((x) => /^Portal for VS Code on /.test(x.name)).map((x) => x.clientId),
      [now.clientId],
      'only the new application is left on the portal',
    );
    assert.equal(api.registry.get(idOf(a))?.username, username);
    assert.equal(typeof (await api.registry.client(idOf(a)).v3.userinfo()).name, 'string', 'still signed in');
    // The deletion went through the write engine: the change history names it as the portal named the application,
    // and says it has no undo.
    type Listed = { settings?: { record: { begin: { work: Array<{ change: { clientId?: string } }> } } } };
    const removed = (v: Listed) => v.settings?.record.begin.work[0]?.change.clientId === earlier.clientId;
    await withUi({ 'plan.history.pick': removed as never }, async (ui) => {
      await vscode.commands.executeCommand('portal.plan.showHistory');
      const texts = ui.asked.find((q) => q.id === 'plan.history.pick')?.texts ?? [];
      const at = texts.findIndex((l) =>
        l.startsWith('"Remove the sign-in’s unused application Portal for VS Code on '),
      );
      assert.ok(at >= 0, texts.join(' | '));
      assert.equal(texts[at + 1], 'cannot be undone');
      assert.ok(
        ui.told.some((t) => /cannot be restored/.test(t.text)),
        ui.told.map((t) => t.text).join(' | '),
      );
    });
  });

  it('asks for a two-factor code only when the portal asks, and again after a wrong one', async () => {
    const script = await signInForTest({
      baseUrl: b.url,
      username: 'demo-2fa',
      password: 'demo',
      codes: ['000000', '123456'],
    });
    assert.deepEqual(script.failures, []);
    assert.deepEqual(script.asked, [
      'signIn.baseUrl',
      'signIn.username',
      'signIn.password',
      'signIn.code',
      'signIn.code',
    ]);
    const codes = script.ui.asked.filter((q) => q.id === 'signIn.code');
    assert.doesNotMatch(codes[0]?.texts.join('\n') ?? '', /not accepted/);
    assert.match(
      codes[1]?.texts.join('\n') ?? '',
      /That code was not accepted/,
      'the second time says why it asks again',
    );
    const api = await portalApi();
    assert.equal(api.registry.get(idOf(b))?.username, 'demo-2fa');
    recordSecret('clientSecret', (await api.testing.readStoredCredentials(idOf(b)))?.clientSecret);
  });

  it('keeps two portals signed in side by side, each a session in the Accounts menu', async () => {
    const api = await portalApi();
    assert.ok(api.registry.get(idOf(a))?.client);
    assert.ok(api.registry.get(idOf(b))?.client);
    const accounts = await vscode.authentication.getAccounts('portal');
    const labels = accounts.map((x) => x.label);
    assert.ok(
      labels.some((l) => l.startsWith(`${username} @`)),
      labels.join(', '),
    );
    assert.ok(
      labels.some((l) => l.startsWith('demo-2fa @')),
      labels.join(', '),
    );
  });

  it('refuses a wrong password with a message that says so, and stores nothing', async () => {
    const c = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    try {
      const script = await signInForTest({ baseUrl: c.url, username: 'demo', password: 'not-the-password' });
      assert.equal(script.failures.length, 1);
      assert.match(script.failures[0] ?? '', /did not accept those credentials/);
      assert.ok(!(script.failures[0] ?? '').includes('not-the-password'), 'the message never repeats the password');
      const api = await portalApi();
      assert.equal(api.registry.get(idOf(c))?.client === undefined, true);
      assert.equal(await api.testing.readStoredCredentials(idOf(c)), undefined);
    } finally {
      await c.stop();
    }
  });

  it('says plainly when the host is unreachable, is not a portal API, or is plain http on a public host', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const unreachable = await signInForTest({
      baseUrl: `http://127.0.0.1:${closedPort}`,
      username: 'demo',
      password: 'demo',
    });
    assert.match(unreachable.failures[0] ?? '', /Could not reach/);

    const html: Server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'),
    );
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
    try {
      const notApi = await signInForTest({
        baseUrl: `http://127.0.0.1:${(html.address() as AddressInfo).port}`,
        username: 'demo',
        password: 'demo',
      });
      assert.match(notApi.failures[0] ?? '', /does not answer like a portal API/);
    } finally {
      await new Promise<void>((r) => html.close(() => r()));
    }

    const plain = await signInForTest({ baseUrl: 'http://portal.example.com', username: 'demo', password: 'demo' });
    assert.match(plain.failures[0] ?? '', /https/i);
    assert.deepEqual(plain.asked, ['signIn.baseUrl'], 'nothing else is asked after an unusable address');
  });

  it('renews an expired token silently: one token request, no prompt', async () => {
    const api = await portalApi();
    await withUi({}, async (ui) => {
      a.resetStats();
      a.expireAllTokens();
      const client = api.registry.client(idOf(a));
      const results = await Promise.all(Array.from({ length: 10 }, () => client.v3.userinfo()));
      assert.equal(results.length, 10);
      assert.equal(a.stats().tokenRequests, 1, 'ten calls after expiry share one token request');
      assert.deepEqual(ui.questions, []);
      assert.deepEqual(ui.told, []);
      assert.ok(api.registry.get(idOf(a))?.client, 'still signed in');
    });
  });

  it('signs a portal out cleanly when its application is revoked, without touching the other portal or retrying', async () => {
    const api = await portalApi();
    const before = api.registry.get(idOf(b));
    assert.ok(before?.client && before.clientId);
    b.revokeApplication(before.clientId);
    await assert.rejects(before.client.v3.userinfo(), (e: unknown) => isPortalError(e, 'signed-out'));
    // The sign-out runs in the background of the failed call: the state flips first, the secret goes next.
    await waitFor(
      async () =>
        api.registry.get(idOf(b))?.client === undefined &&
        (await api.testing.readStoredCredentials(idOf(b))) === undefined,
      'portal B is signed out with its secrets removed',
    );
    const after = api.registry.get(idOf(b));
    assert.ok(after?.signedOutReason, 'the reason is kept for the "sign in again" node');
    b.resetStats();
    for (let i = 0; i < 5; i++)
      assert.throws(
        () => api.registry.client(idOf(b)),
        (e: unknown) => isPortalError(e, 'signed-out'),
      );
    assert.equal(b.stats().requests, 0, 'no retry storm');
    assert.ok(api.registry.get(idOf(a))?.client, 'the other portal stays signed in');
  });

  it('signs a portal out cleanly when its user is disabled on the portal', async () => {
    const c = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    try {
      const script = await signInForTest({ baseUrl: c.url, username: 'member', password: 'demo' });
      assert.deepEqual(script.failures, []);
      const api = await portalApi();
      const client = api.registry.client(idOf(c));
      const admin = await passwordToken(c.url, 'demo', 'demo');
      const accounts = await portalJson<{ id: number }[]>(c.url, admin, 'GET', '/v3/accounts');
      for (const account of accounts.body) {
        await portalJson(c.url, admin, 'PATCH', `/v3/accounts/${account.id}/members/member`, { enabled: false });
      }
      await assert.rejects(client.v3.userinfo(), (e: unknown) => isPortalError(e, 'signed-out'));
      await waitFor(
        async () =>
          api.registry.get(idOf(c))?.client === undefined &&
          (await api.testing.readStoredCredentials(idOf(c))) === undefined,
        'portal C is signed out with its secrets removed',
      );
      assert.match(api.registry.get(idOf(c))?.signedOutReason ?? '', /User is disabled/, 'the reason says why');
      await api.registry.remove(idOf(c));
    } finally {
      await c.stop();
    }
  });

  it('shows a portal whose settings entry the client refuses as signed out with the reason, and still loads the others', async () => {
    const c = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    const api = await portalApi();
    const id = idOf(c);
    const config = () => vscode.workspace.getConfiguration('portal');
    let entries: Record<string, unknown>[] | undefined;
    try {
      const script = await signInForTest({ baseUrl: c.url, username: 'demo', password: 'demo' });
      assert.deepEqual(script.failures, []);
      entries = config().get<Record<string, unknown>[]>('portals', []);
      // Hand edits in settings.json: this portal's address turned into plain http on a public host, and an entry
      // without a label whose address is not a URL at all.
      const edited = [
        ...entries.map((e) => (e.id === id ? { ...e, baseUrl: 'http://portal.example.com' } : e)),
        { id: 'typo-entry', baseUrl: 'not a url' },
      ];
      await config().update('portals', edited, vscode.ConfigurationTarget.Global);
      await api.registry.restore();
      const edited1 = api.registry.get(id);
      assert.ok(edited1, 'the edited portal is still listed');
      assert.equal(edited1.client === undefined, true, 'no client for an address the client refuses');
      assert.match(edited1.signedOutReason ?? '', /https:\/\//, 'the reason says what is wrong with the address');
      assert.ok(await api.testing.readStoredCredentials(id), 'its credentials stay for when the address is fixed');
      assert.equal(
        api.registry.get('typo-entry')?.entry.label,
        'not a url',
        'an entry that is not a URL is listed, not thrown on',
      );
      const roots = await api.testing.explorer.provider.getChildren();
      assert.ok(
        roots.some((n) => n.portalId === id) && roots.some((n) => n.portalId === 'typo-entry'),
        'the Explorer lists both',
      );

      // Fixing the address signs the portal back in with the stored credentials.
      await config().update('portals', entries, vscode.ConfigurationTarget.Global);
      await api.registry.restore();
      assert.ok(api.registry.get(id)?.client, 'signed in again once the address is fixed');
      assert.equal(api.registry.get('typo-entry'), undefined);
    } finally {
      if (entries) await config().update('portals', entries, vscode.ConfigurationTarget.Global);
      await api.registry.restore();
      if (api.registry.get(id)) await api.registry.remove(id);
      await c.stop();
    }
  });

  it('signs in with an existing client id and secret', async () => {
    const api = await portalApi();
    await api.registry.remove(idOf(b));
    b.reset();
    const token = await passwordToken(b.url, 'demo', 'demo');
    const app = await portalJson<{ clientId: string; clientSecret: string }>(b.url, token, 'POST', '/v3/applications', {
      name: 'Pasted credentials',
      description: 'test',
      platform: 'OTHER',
      deviceType: 'Other',
      deviceModel: 'x',
      deviceOs: 'x',
      appVersion: '1',
      bundleId: 'x',
    });
    assert.equal(app.status, 201);
    recordSecret('clientSecret', app.body.clientSecret);
    const answers = {
      ...signInAnswers({ baseUrl: b.url }),
      'signIn.clientId': app.body.clientId,
      'signIn.clientSecret': app.body.clientSecret,
    };
    await withUi(answers, async (ui) => {
      await vscode.commands.executeCommand('portal.signInWithClientCredentials');
      assert.deepEqual(signInFailures(ui), []);
    });
    const c = api.registry.get(idOf(b));
    assert.equal(c?.username, 'demo');
    assert.equal(c?.applicationCreatedHere, false, 'an application we did not create is never offered for deletion');
  });

  it('signs out: removes the session and every secret, and can delete the application on the portal', async () => {
    const api = await portalApi();
    const c = api.registry.get(idOf(a));
    assert.ok(c?.clientId);
    const stored = await api.testing.readStoredCredentials(idOf(a));
    assert.ok(stored);
    await withUi({ 'signOut.choice': 'signOutAndDelete' }, async (ui) => {
      await vscode.commands.executeCommand('portal.signOut', await nodeOf({ kind: 'portal', portalId: idOf(a) }));
      assert.deepEqual(ui.questions, ['signOut.choice']);
      // Said before anything is sent: the API has no way back for a deleted application.
      const asked = ui.asked.find((q) => q.id === 'signOut.choice')?.texts.join('\n') ?? '';
      assert.match(asked, /cannot be undone/, asked);
    });
    assert.equal(api.registry.get(idOf(a))?.client === undefined, true);
    assert.equal(await api.testing.readStoredCredentials(idOf(a)), undefined);
    const accounts = await vscode.authentication.getAccounts('portal');
    assert.ok(!accounts.some((x) => x.label.startsWith(`${username} @`)), 'the session left the Accounts menu');
    const token = await passwordToken(a.url, username, password);
    const apps = await portalJson<AppJson[]>(a.url, token, 'GET', '/v3/applications');
    assert.ok(!apps.body.some((x) => x.clientId === stored.clientId), 'the application was deleted on the portal');
    const grant = await fetch(
      `${a.url}/oauth/token?${new URLSearchParams({ grant_type: 'client_credentials', client_id: stored.clientId, client_secret: stored.clientSecret, scope: 'read write' })}`,
    );
    assert.equal(grant.status, 401, 'its credentials stopped working');
    // The deletion went through the write engine: the change history lists it, and says it has no undo.
    const deleted = `Delete the application this machine signed in to ${c.entry.label} with`;
    await withUi(
      {
        'plan.history.pick': ((v: { settings?: { record: { begin: { title?: string } } } }) =>
          v.settings?.record.begin.title === deleted) as never,
      },
      async (ui) => {
        await vscode.commands.executeCommand('portal.plan.showHistory');
        const labels = ui.asked.find((q) => q.id === 'plan.history.pick')?.texts ?? [];
        assert.ok(
          labels.some((l) => l.includes(deleted)),
          labels.join(' | '),
        );
        assert.ok(
          ui.told.some((t) => /cannot be restored/.test(t.text)),
          ui.told.map((t) => t.text).join(' | '),
        );
      },
    );
  });

  it('signs in to the shared portal that the restart phase expects to find still signed in', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides a shared emulator for the restart phase');
    await control(url, 'POST', 'stats/reset');
    const script = await signInForTest({ baseUrl: url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
    const api = await portalApi();
    const stored = await api.testing.readStoredCredentials(portalIdOf(url, 'portal'));
    recordSecret('clientSecret', stored?.clientSecret);
    recordSecret('accessToken', await api.registry.client(portalIdOf(url, 'portal')).accessToken());
  });
});
