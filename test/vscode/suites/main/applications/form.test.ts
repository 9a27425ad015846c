import assert from 'node:assert/strict';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type {
  ApplicationState,
  ApplicationValues,
  CredentialsMessage,
} from '../../../../../src/features/applications/application.protocol';
import { portalKey } from '../../../../../src/shared/keys';
import { portalApi } from '../../../support/extension';
import {
  lastPosted,
  openForm,
  posted,
  postedTypes,
  requestCount,
  useFormsFixture,
  type FormsFixture,
} from '../../../support/forms';
import { recordSecret } from '../../../support/leaks';
import { PROFILES } from '../../../support/demoPortal';
import { byLabel, features, nodeOf, rows } from '../../../support/tree';
import { withUi } from '../../../support/ui';

/** Everything a panel holds, as text, so a test can look for a secret in it (cycles and functions left out). */
function held(panel: object): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(panel, (_key, value: unknown) => {
    if (typeof value === 'function') return undefined;
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  });
}

const credentialsPosted = (panel: FormPanel) =>
  posted(panel).filter((m) => (m as { type: string }).type === 'credentials').length;

interface AppJson {
  clientId: string;
  name: string;
  platform: string;
  deviceType: string;
  bundleId: string | null;
  clientSecret?: string;
}

const VALUES: ApplicationValues = {
  name: 'Build server',
  description: 'Publishes release notes',
  platform: 'LINUX',
  deviceType: 'Other',
  deviceModel: 'ci-runner',
  deviceOs: 'Debian 12',
  appVersion: '1.0.0',
  bundleId: 'com.example.build',
};

for (const profile of PROFILES)
  describe(`Forms: create application and rotate its secret (${profile})`, function () {
    this.timeout(180_000);
    let f: FormsFixture;

    const grant = async (clientId: string, clientSecret: string): Promise<number> => {
      const q = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: 'read write',
      });
      return (await fetch(`${f.emu.url}/oauth/token?${q}`)).status;
    };
    const createPanel = async () =>
      openForm<FormPanel<ApplicationState, ApplicationValues>>(
        'portal.createApplication',
        await nodeOf({ kind: 'portal', portalId: f.portalId, view: 'applications' }),
      );
    const credentialsOf = (panel: FormPanel) => {
      const c = lastPosted<CredentialsMessage>(panel, 'credentials');
      if (c) recordSecret('clientSecret', c.clientSecret);
      return c;
    };

    useFormsFixture((x) => (f = x), { profile });

    it('creates the application, shows its credentials once, and they work', async () => {
      const panel = await createPanel();
      await panel.handleMessage({ type: 'save', values: VALUES });
      const creds = credentialsOf(panel);
      assert.ok(creds, postedTypes(panel).join());
      assert.equal(creds.reason, 'created');
      assert.equal(creds.stored, false);
      const apps = await f.get<AppJson[]>('/v3/applications');
      const app = apps.find((a) => a.clientId === creds.clientId);
      assert.ok(app, 'the application exists on the portal');
      assert.equal(app.name, 'Build server');
      assert.equal(app.platform, 'LINUX');
      assert.equal(app.bundleId, 'com.example.build');
      assert.equal(await grant(creds.clientId, creds.clientSecret), 200, 'its client credentials work');
      assert.equal((await panel.whenLoaded()).mode, 'rotate', 'the panel now shows the application');

      // A reloaded webview gets the credentials again while the panel is open...
      await panel.handleMessage({ type: 'ready' });
      assert.equal(credentialsPosted(panel), 2);
      // ...and nothing of them is left once it closes.
      panel.dispose();
      assert.ok(!held(panel).includes(creds.clientSecret), 'the host dropped the secret');
    });

    it('"Done" drops the host\'s copy too: a panel hidden and shown again cannot show it', async () => {
      const panel = await createPanel();
      await panel.handleMessage({ type: 'save', values: { ...VALUES, name: 'Hidden after use' } });
      const creds = credentialsOf(panel);
      assert.ok(creds);
      await panel.handleMessage({ type: 'hideCredentials' });
      const shownBefore = credentialsPosted(panel);
      // A hidden panel's webview is unloaded; shown again, it says "ready" and gets the state, but no secret.
      await panel.handleMessage({ type: 'ready' });
      assert.ok(lastPosted(panel, 'init'), postedTypes(panel).join());
      assert.equal(credentialsPosted(panel), shownBefore);
      assert.ok(!held(panel).includes(creds.clientSecret), 'the host holds no copy of the secret');
      // Nothing is left to copy or store either.
      await panel.handleMessage({ type: 'copy', what: 'clientSecret' });
      assert.equal(lastPosted(panel, 'copied'), undefined);
      panel.dispose();
    });

    it('stores the credentials for this portal on request, and the portal keeps working with them', async () => {
      const api = await portalApi();
      const panel = await createPanel();
      await panel.handleMessage({ type: 'save', values: { ...VALUES, name: 'Portal for VS Code (second)' } });
      const creds = credentialsOf(panel);
      assert.ok(creds);
      await panel.handleMessage({ type: 'useCredentials', confirm: 'yes' });
      assert.ok(lastPosted(panel, 'stored'), postedTypes(panel).join());
      const stored = await api.testing.readStoredCredentials(f.portalId);
      assert.equal(stored?.clientId, creds.clientId);
      assert.equal(stored?.clientSecret, creds.clientSecret);
      assert.equal(stored?.applicationCreatedHere, true);
      assert.equal(api.registry.get(f.portalId)?.clientId, creds.clientId);
      await api.registry.client(f.portalId).v3.userinfo();
    });

    it("rotates another application's secret from its row: shown once, the new one works, this window stays signed in", async () => {
      const api = await portalApi();
      const before = await api.testing.readStoredCredentials(f.portalId);
      assert.ok(before);
      // Opened the way the context menu opens it: with the Applications view's row.
      const applications = (await features()).applications.provider;
      const portalRow = (await rows(applications)).find((r) => r.id === portalKey('applications', f.portalId));
      assert.ok(portalRow);
      const sync = byLabel(await rows(applications, portalRow.node), 'Portal Sync (laptop)');
      const clientId = (sync.node as { ref: { clientId: string } }).ref.clientId;
      const panel = await openForm<FormPanel<ApplicationState, ApplicationValues>>(
        'portal.rotateApplicationSecret',
        sync.node,
      );
      const state = await panel.whenLoaded();
      assert.equal(state.mode === 'rotate' && state.application.clientId, clientId);
      assert.equal(state.mode === 'rotate' && state.inUse, false);
      // The literal portal has no single-application read: the details come from the list, and the form says so.
      assert.deepEqual(
        state.notices.map((n) => /did not answer the application read/.test(n)),
        profile === 'literal' ? [true] : [],
      );

      await withUi({ 'application.rotate': true }, async (ui) => {
        await panel.handleMessage({ type: 'rotate', clientId });
        const asked = ui.asked.find((q) => q.id === 'application.rotate');
        assert.match(asked?.texts[0] ?? '', /Rotate the secret of "Portal Sync \(laptop\)"\?/);
        assert.match(asked?.texts[1] ?? '', /every client that uses it stops working/);
        // Said before anything is sent: the API has no way back for a rotated secret.
        assert.match(asked?.texts[1] ?? '', /cannot be undone/);
      });
      const creds = credentialsOf(panel);
      assert.ok(creds, postedTypes(panel).join());
      assert.equal(credentialsPosted(panel), 1, 'the new secret is shown once');
      assert.equal(creds.reason, 'rotated');
      assert.equal(creds.clientId, clientId);
      assert.equal(creds.stored, false, "another application's secret is not stored for this portal");
      assert.equal(await grant(clientId, creds.clientSecret), 200, 'the new secret works');
      assert.ok(api.registry.get(f.portalId)?.client, 'rotating another application keeps this window signed in');
      assert.deepEqual(
        await api.testing.readStoredCredentials(f.portalId),
        before,
        'this portal still signs in with its own application',
      );
      await api.registry.client(f.portalId).v3.userinfo();
    });

    it('rotates a secret: the new one works, the old one stops, and the portal in use stays signed in', async () => {
      const api = await portalApi();
      const inUse = api.registry.get(f.portalId)?.clientId;
      assert.ok(inUse);
      const oldSecret = (await api.testing.readStoredCredentials(f.portalId))?.clientSecret;
      assert.ok(oldSecret);
      const panel = await openForm<FormPanel<ApplicationState, ApplicationValues>>(
        'portal.rotateApplicationSecret',
        await nodeOf({ kind: 'application', portalId: f.portalId, clientId: inUse }),
      );
      const state = await panel.whenLoaded();
      assert.equal(state.mode === 'rotate' && state.inUse, true);

      const requests = requestCount(f.emu);
      await panel.handleMessage({ type: 'rotate', clientId: 'someone-elses-app' });
      assert.equal(requestCount(f.emu), requests, 'a rotate naming another application is dropped');

      await withUi({ 'application.rotate': true }, () => panel.handleMessage({ type: 'rotate', clientId: inUse }));
      const creds = credentialsOf(panel);
      assert.ok(creds, postedTypes(panel).join());
      assert.equal(creds.reason, 'rotated');
      assert.equal(creds.stored, true, 'the portal signs in with it, so the new secret was stored');
      assert.notEqual(creds.clientSecret, oldSecret);
      assert.equal(await grant(inUse, creds.clientSecret), 200);
      assert.notEqual(await grant(inUse, oldSecret), 200, 'the old secret stopped working');
      assert.equal((await api.testing.readStoredCredentials(f.portalId))?.clientSecret, creds.clientSecret);
      assert.ok(api.registry.get(f.portalId)?.client, "rotating this window's own secret keeps it signed in");
      const info = await api.registry.client(f.portalId).v3.userinfo();
      assert.equal(info.name, 'demo', 'the new secret from SecretStorage signs in');
    });

    it('asks before rotating; declined, nothing is sent and the form is usable again', async () => {
      const apps = await f.get<AppJson[]>('/v3/applications');
      const other = apps.find((a) => a.name === 'Portal for iPhone');
      assert.ok(other);
      const panel = await openForm<FormPanel<ApplicationState, ApplicationValues>>(
        'portal.rotateApplicationSecret',
        await nodeOf({ kind: 'application', portalId: f.portalId, clientId: other.clientId }),
      );
      const requests = requestCount(f.emu);
      const from = posted(panel).length;
      await withUi({ 'application.rotate': false }, () =>
        panel.handleMessage({ type: 'rotate', clientId: other.clientId }),
      );
      assert.equal(requestCount(f.emu), requests, 'no request without a yes');
      assert.deepEqual(postedTypes(panel, from), ['busy', 'busy'], 'the page is told the request ended');
      assert.equal(lastPosted(panel, 'credentials'), undefined);
    });

    it('a rotation the portal accepts but does not apply says so, and shows no secret', async () => {
      const apps = await f.get<AppJson[]>('/v3/applications');
      const other = apps.find((a) => a.name === 'Portal for iPhone');
      assert.ok(other);
      const panel = await openForm<FormPanel<ApplicationState, ApplicationValues>>(
        'portal.rotateApplicationSecret',
        await nodeOf({ kind: 'application', portalId: f.portalId, clientId: other.clientId }),
      );
      f.emu.setFaults([{ kind: 'ignore-writes', path: '/v3/applications', count: 1 }]);
      await withUi({ 'application.rotate': true }, () =>
        panel.handleMessage({ type: 'rotate', clientId: other.clientId }),
      );
      assert.match(
        lastPosted<{ message: string }>(panel, 'failed')?.message ?? '',
        /accepted the request but did not apply it/,
      );
      assert.equal(lastPosted(panel, 'credentials'), undefined);
    });

    it('keeps the input when the portal fails, and checks the name before sending', async () => {
      const panel = await createPanel();
      f.emu.setFaults([{ kind: 'status', status: 500, path: '/v3/applications', method: 'POST', count: 1 }]);
      const values = { ...VALUES, name: 'Will fail' };
      await panel.handleMessage({ type: 'save', values });
      assert.deepEqual(postedTypes(panel), ['busy', 'failed', 'busy']);
      assert.deepEqual(panel.draft, values);
      assert.equal(lastPosted(panel, 'credentials'), undefined);

      const requests = requestCount(f.emu);
      await panel.handleMessage({ type: 'save', values: { ...VALUES, name: '   ' } });
      const failed = lastPosted<{ fieldErrors: Array<{ field: string }> }>(panel, 'failed');
      assert.deepEqual(
        failed?.fieldErrors.map((e) => e.field),
        ['name'],
      );
      assert.equal(requestCount(f.emu), requests, 'nothing sent for a blank name');
    });

    it('drops forged messages: unknown platform, unknown command, copy before there is anything to copy', async () => {
      const panel = await createPanel();
      const requests = requestCount(f.emu);
      const from = posted(panel).length;
      for (const m of [
        { type: 'save', values: { ...VALUES, platform: 'AMIGA' } },
        { type: 'save', values: { ...VALUES, clientSecret: 'x' } },
        { type: 'exportSecrets' },
        { type: 'copy', what: 'password' },
        { type: 'copy', what: 'clientSecret' },
        { type: 'useCredentials', confirm: 'yes' },
        { type: 'rotate', clientId: 'anything' },
      ])
        await panel.handleMessage(m);
      assert.equal(requestCount(f.emu), requests);
      assert.deepEqual(postedTypes(panel, from), []);
    });
  });
