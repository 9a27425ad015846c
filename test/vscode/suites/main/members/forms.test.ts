// New Member's groups and activation, and Edit Member's two-factor switch: each save checked on the portal over HTTP.
import assert from 'node:assert/strict';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type { MemberFormState, MemberValues } from '../../../../../src/features/members/forms/member.protocol';
import type {
  AssignmentsState,
  AssignmentsValues,
} from '../../../../../src/features/members/forms/assignments/assignments.protocol';
import { groupLevel } from '../../../../../src/features/members/forms/levels';
import { passwordToken } from '../../../support/portalHttp';
import { PROFILES } from '../../../support/demoPortal';
import {
  lastPosted,
  openForm,
  postedTypes,
  requestCount,
  useFormsFixture,
  type FormsFixture,
} from '../../../support/forms';
import { nodeOf } from '../../../support/tree';
import { visible, withUi } from '../../../support/ui';

interface MemberV2Json {
  groups: Record<string, number>;
}
interface MemberV3Json {
  activationType: string | number;
  twoFactorAuthentication: boolean;
  assignToNewGroupsPermission: number | null;
}
const DAY = 24 * 60 * 60 * 1000;

for (const profile of PROFILES)
  describe(`Forms: New Member with groups and activation, Edit Member's two-factor switch (${profile})`, function () {
    this.timeout(180_000);
    let f: FormsFixture;
    useFormsFixture((x) => (f = x), { profile });

    const acme = () => ({ portalId: f.portalId, accountId: f.acme });
    const newMember = async () =>
      openForm<FormPanel<MemberFormState, MemberValues>>(
        'portal.createMember',
        await nodeOf({ kind: 'account', ...acme() }),
      );
    const editMember = async (username: string) =>
      openForm<FormPanel<MemberFormState, MemberValues>>(
        'portal.editMember',
        await nodeOf({ kind: 'member', ...acme(), username }),
      );
    const person = (username: string) => ({ username, name: `Person ${username}`, email: `${username}@acme.example` });
    const patches = () => f.emu.stats().byRoute['PATCH /v3/accounts/:account/members/:username'] ?? 0;

    it('adds a member to chosen groups, with the activation e-mail at a later date and a message', async () => {
      const panel = await newMember();
      const state = await panel.whenLoaded();
      assert.deepEqual(state.groups.map((g) => g.name).sort(), ['engineering', 'handbook', 'marketing', 'social']);
      const when = Date.now() + 3 * DAY;
      f.emu.resetStats();
      await panel.handleMessage({
        type: 'save',
        values: {
          ...state.values,
          ...person('grouped.person'),
          groupsMode: 'chosen',
          groups: [
            { id: f.groups.engineering, permission: 16 },
            { id: f.groups.marketing, permission: 4 },
          ],
          activation: 'date',
          activationDate: when,
          activationMessage: 'Welcome aboard',
        },
      });
      const saved = lastPosted<{ message: string }>(panel, 'saved');
      assert.match(
        saved?.message ?? postedTypes(panel).join(),
        /^Added Person grouped\.person \(grouped\.person\)\. The activation e-mail goes out \d{4}-\d{2}-\d{2} \d{2}:\d{2}\.$/,
      );
      assert.equal(patches(), 1, 'one PATCH for the activation, after the create');
      const v2 = await f.get<MemberV2Json>(`/v2/accounts/${f.acme}/members/grouped.person`);
      assert.deepEqual(v2.groups, { engineering: 16, marketing: 4 });
      const v3 = await f.get<MemberV3Json>(`/v3/accounts/${f.acme}/members/grouped.person`);
      assert.equal(v3.activationType, when, 'the activation e-mail is set for that date');
    });

    it('adds a member to every group at one level, activated now: no second request', async () => {
      const panel = await newMember();
      const state = await panel.whenLoaded();
      f.emu.resetStats();
      await panel.handleMessage({
        type: 'save',
        values: { ...state.values, ...person('everywhere.person'), groupsMode: 'all', allGroupsLevel: 4 },
      });
      assert.equal(
        lastPosted<{ message: string }>(panel, 'saved')?.message,
        'Added Person everywhere.person (everywhere.person).',
      );
      assert.equal(patches(), 0);
      const v2 = await f.get<MemberV2Json>(`/v2/accounts/${f.acme}/members/everywhere.person`);
      assert.deepEqual(v2.groups, { engineering: 4, handbook: 4, marketing: 4, social: 4 });
    });

    it('refuses an activation date in the past before sending, and drops a create naming a group of another organisation', async () => {
      const panel = await newMember();
      const state = await panel.whenLoaded();
      const requests = requestCount(f.emu);
      await panel.handleMessage({
        type: 'save',
        values: { ...state.values, ...person('late.person'), activation: 'date', activationDate: Date.now() - DAY },
      });
      const failed = lastPosted<{ fieldErrors?: Array<{ field: string; message: string }> }>(panel, 'failed');
      assert.deepEqual(failed?.fieldErrors, [
        { field: 'activationDate', message: 'Choose a date and time in the future.' },
      ]);
      await panel.handleMessage({
        type: 'save',
        values: {
          ...state.values,
          ...person('foreign.person'),
          groupsMode: 'chosen',
          groups: [{ id: f.groups.research as number, permission: 1 }],
        },
      });
      assert.equal(requestCount(f.emu), requests, 'nothing was sent');
    });

    it('gives a new member a permission in groups made later, and changes it from Edit Assignments', async () => {
      const panel = await newMember();
      const state = await panel.whenLoaded();
      await panel.handleMessage({
        type: 'save',
        values: { ...state.values, ...person('later.person'), assignToNewGroups: 16 },
      });
      assert.ok(lastPosted(panel, 'saved'), postedTypes(panel).join());
      const created = await f.get<MemberV3Json>(`/v3/accounts/${f.acme}/members/later.person`);
      assert.equal(groupLevel(created.assignToNewGroupsPermission), 16, 'administrator in new groups');

      const assignments = await openForm<FormPanel<AssignmentsState, AssignmentsValues>>(
        'portal.editMemberAssignments',
        await nodeOf({ kind: 'member', ...acme(), username: 'later.person' }),
      );
      const loaded = await assignments.whenLoaded();
      assert.equal(loaded.values.assignToNewGroups, 16, "the form starts from the portal's level");
      await assignments.handleMessage({ type: 'save', values: { ...loaded.values, assignToNewGroups: 4 } });
      assert.ok(lastPosted(assignments, 'saved'), postedTypes(assignments).join());
      const changed = await f.get<MemberV3Json>(`/v3/accounts/${f.acme}/members/later.person`);
      assert.equal(groupLevel(changed.assignToNewGroupsPermission), 4);
    });

    it("sets a member's new password: the member signs in with it, not with the old one", async () => {
      const panel = await editMember('member');
      const state = await panel.whenLoaded();
      const fresh = 'Fresh-Passw0rd-2026!';
      await panel.handleMessage({ type: 'save', values: { ...state.values, password: fresh } });
      assert.equal(lastPosted<{ message: string }>(panel, 'saved')?.message, 'Saved (the new password is set).');
      assert.ok(await passwordToken(f.emu.url, 'member', fresh));
      await assert.rejects(passwordToken(f.emu.url, 'member', 'demo'), /failed/);
      assert.equal((await panel.whenLoaded()).values.password, '', 'the form does not keep the password');
    });

    it("disables a member's two-factor authentication only after a confirmation", async () => {
      const panel = await editMember('demo-2fa');
      const state = await panel.whenLoaded();
      assert.equal(state.twoFactor, true);
      await withUi({ 'member.twoFactor.confirm': false }, async () => {
        await panel.handleMessage({ type: 'save', values: { ...state.values, disableTwoFactor: true } });
      });
      assert.equal(
        (await f.get<MemberV3Json>(`/v3/accounts/${f.acme}/members/demo-2fa`)).twoFactorAuthentication,
        true,
        'declined: still on',
      );
      await withUi({ 'member.twoFactor.confirm': true }, async (ui) => {
        await panel.handleMessage({ type: 'save', values: { ...state.values, disableTwoFactor: true } });
        assert.match(
          visible(ui.asked[0]?.texts.join('\n') ?? ''),
          /^Disable two-factor authentication for Tomás Twofactor\?/,
        );
      });
      assert.equal(
        lastPosted<{ message: string }>(panel, 'saved')?.message,
        'Saved. Two-factor authentication is off.',
      );
      assert.equal(
        (await f.get<MemberV3Json>(`/v3/accounts/${f.acme}/members/demo-2fa`)).twoFactorAuthentication,
        false,
      );
      assert.equal((await panel.whenLoaded()).twoFactor, false, 'the form shows it off now');
    });
  });
