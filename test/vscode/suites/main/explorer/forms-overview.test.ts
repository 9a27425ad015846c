import assert from 'node:assert/strict';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type { OverviewState, OverviewValues } from '../../../../../src/features/explorer/forms/overview.protocol';
import {
  lastPosted,
  openForm,
  posted,
  postedTypes,
  requestCount,
  useFormsFixture,
  type FormsFixture,
} from '../../../support/forms';
import { PROFILES } from '../../../support/demoPortal';
import { nodeOf } from '../../../support/tree';

interface AccountJson {
  friendlyName: string;
  name: string;
  locale: string | null;
}

for (const profile of PROFILES)
  describe(`Forms: account overview (${profile})`, function () {
    this.timeout(180_000);
    let f: FormsFixture;
    const open = async (accountId: number) => {
      const panel = await openForm<FormPanel<OverviewState, OverviewValues>>(
        'portal.accountOverview',
        await nodeOf({ kind: 'account', portalId: f.portalId, accountId }),
      );
      return { panel, state: await panel.whenLoaded() };
    };

    useFormsFixture((x) => (f = x), { profile });

    it('shows usage against the package, the trial, and the enabled components', async () => {
      const { state } = await open(f.acme);
      const s = state.subscription;
      assert.ok(s, state.notices.join(' '));
      assert.ok(s.trialExpires !== null, 'acme is on a trial');
      assert.equal(s.paused, false);
      assert.ok(s.members.used > 0 && s.members.allowed !== null);
      assert.ok(s.storage.allowed !== null && s.emails.allowed !== null);
      assert.ok(state.components.some((c) => c.name === 'files'));
      assert.ok(state.features.includes('watermarking'));
      assert.ok(state.capabilities.length > 0);
    });

    it("shows a paused subscription and the organisation's own component names", async () => {
      const { state } = await open(f.globex);
      assert.equal(state.subscription?.paused, true);
      assert.equal(state.subscription?.pausedBillingCycles, 2);
      assert.equal(state.components.find((c) => c.name === 'files')?.customName, 'Documents');
      assert.equal(state.components.find((c) => c.name === 'events')?.customName, 'Meetings');
    });

    it('renames the account with a PATCH of just the changed fields', async () => {
      const { panel, state } = await open(f.globex);
      const before = f.emu.stats().byRoute['PATCH /v3/accounts/:account'] ?? 0;
      await panel.handleMessage({
        type: 'save',
        values: { ...state.values, friendlyName: 'Globex Research Ltd', locale: 'en_GB' },
      });
      assert.ok(lastPosted(panel, 'saved'), postedTypes(panel).join());
      assert.equal((f.emu.stats().byRoute['PATCH /v3/accounts/:account'] ?? 0) - before, 1);
      const account = await f.get<AccountJson>(`/v3/accounts/${f.globex}`);
      assert.equal(account.friendlyName, 'Globex Research Ltd');
      assert.equal(account.locale, 'en_GB');
      assert.equal(account.name, 'globex');
      assert.equal((await panel.whenLoaded()).friendlyName, 'Globex Research Ltd');
    });

    it('keeps the input on a 500 and on a 409 conflict, with the conflict next to its field', async () => {
      const { panel, state } = await open(f.acme);
      f.emu.setFaults([{ kind: 'status', status: 500, path: '/v3/accounts', method: 'PATCH', count: 1 }]);
      const values = { ...state.values, friendlyName: 'Acme Renamed' };
      await panel.handleMessage({ type: 'save', values });
      assert.deepEqual(postedTypes(panel), ['busy', 'failed', 'busy']);
      assert.deepEqual(panel.draft, values);

      const taken = { ...state.values, name: 'globex' };
      await panel.handleMessage({ type: 'save', values: taken });
      const failed = lastPosted<{ fieldErrors: Array<{ field: string }> }>(panel, 'failed');
      assert.deepEqual(
        failed?.fieldErrors.map((e) => e.field),
        ['name'],
      );
      assert.deepEqual(panel.draft, taken);
      assert.equal(
        (await f.get<AccountJson>(`/v3/accounts/${f.acme}`)).friendlyName,
        'Acme Corporation',
        'nothing changed',
      );
    });

    it('a rename the portal answers with the old organisation says it was not applied, and keeps the input', async () => {
      const { panel, state } = await open(f.acme);
      f.emu.setFaults([{ kind: 'ignore-writes', path: `/v3/accounts/${f.acme}`, count: 1 }]);
      const values = { ...state.values, friendlyName: 'Acme Holdings', locale: 'de_DE' };
      const from = posted(panel).length;
      await panel.handleMessage({ type: 'save', values });
      assert.deepEqual(postedTypes(panel, from), ['busy', 'failed', 'busy']);
      const failed = lastPosted<{ message: string; fieldErrors: Array<{ field: string }> }>(panel, 'failed');
      assert.match(failed?.message ?? '', /^The portal accepted the request but did not apply friendly name, locale\./);
      assert.deepEqual(
        failed?.fieldErrors.map((e) => e.field),
        ['friendlyName', 'locale'],
      );
      assert.deepEqual(panel.draft, values);
    });

    it('drops a rename that names another account', async () => {
      const { panel, state } = await open(f.acme);
      const requests = requestCount(f.emu);
      const from = posted(panel).length;
      await panel.handleMessage({
        type: 'save',
        values: { ...state.values, accountId: f.globex, friendlyName: 'Hijacked' },
      });
      await panel.handleMessage({ type: 'save', values: { ...state.values, friendlyName: 7 } });
      await panel.handleMessage({ type: 'rename', values: state.values });
      assert.equal(requestCount(f.emu), requests);
      assert.deepEqual(postedTypes(panel, from), []);
    });
  });
