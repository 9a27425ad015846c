import assert from 'node:assert/strict';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type { GroupState, GroupValues } from '../../../../../src/features/explorer/forms/group.protocol';
import type { MemberFormState, MemberValues } from '../../../../../src/features/members/forms/member.protocol';
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
import { passwordToken } from '../../../support/portalHttp';
import { recordSecret } from '../../../support/leaks';

interface GroupJson {
  id: number;
  name: string;
  friendlyName: string;
  components: Array<{ name: string }>;
  disableChat: boolean;
  disableComments: boolean;
  branding: { headerColor: string | null; textColor: string | null; alignment: string | null };
}
interface MemberV2Json {
  user: { name: string; email: string; jobTitle: string | null; telephone: string | null; enabled: boolean };
  groups: Record<string, number>;
  accountPermission: number;
}
interface MemberV3Json {
  permission: number;
  tags: string[];
  user: { enabled: boolean; name: string };
}

for (const profile of PROFILES)
  describe(`Forms: create / edit group and member (${profile})`, function () {
    this.timeout(180_000);
    let f: FormsFixture;

    useFormsFixture((x) => (f = x), { profile });

    const acme = () => ({ portalId: f.portalId, accountId: f.acme });
    /** Edit Group on a group's row, or New Group on the organisation's row. */
    const groupForm = async (arg: { groupId?: number | undefined }) =>
      openForm<FormPanel<GroupState, GroupValues>>(
        arg.groupId ? 'portal.editGroup' : 'portal.createGroup',
        await nodeOf(arg.groupId ? { kind: 'group', ...acme(), groupId: arg.groupId } : { kind: 'account', ...acme() }),
      );
    /** Edit Member on a member's row, or New Member on the organisation's row. */
    const memberForm = async (arg: { username?: string }) =>
      openForm<FormPanel<MemberFormState, MemberValues>>(
        arg.username ? 'portal.editMember' : 'portal.createMember',
        await nodeOf(
          arg.username ? { kind: 'member', ...acme(), username: arg.username } : { kind: 'account', ...acme() },
        ),
      );

    it('creates a group with its components, switches and colours', async () => {
      const panel = await groupForm({});
      const state = await panel.whenLoaded();
      assert.equal(state.mode, 'create');
      assert.ok(state.components.some((c) => c.name === 'tasks'));
      await panel.handleMessage({
        type: 'save',
        values: {
          ...state.values,
          name: 'design-team',
          friendlyName: 'Design Team',
          components: ['files', 'tasks'],
          chat: false,
          headerColor: '#1e40af',
          textColor: '#fff',
        },
      });
      assert.ok(lastPosted(panel, 'saved'), postedTypes(panel).join());
      const groups = await f.get<GroupJson[]>(`/v2/accounts/${f.acme}/groups`);
      const g = groups.find((x) => x.name === 'design-team');
      assert.ok(g, 'the group exists');
      assert.equal(g.friendlyName, 'Design Team');
      assert.deepEqual(g.components.map((c) => c.name).sort(), ['files', 'tasks']);
      assert.equal(g.disableChat, true);
      assert.equal(g.branding.headerColor, '#1e40af');
      const after = await panel.whenLoaded();
      assert.equal(after.mode, 'edit', 'the panel now edits the new group');
      assert.equal(after.groupId, g.id);
    });

    it('edits a group and keeps the branding fields the form does not show', async () => {
      const before = await f.get<GroupJson>(`/v2/accounts/${f.acme}/groups/${f.groups.engineering}`);
      const panel = await groupForm({ groupId: f.groups.engineering });
      const state = await panel.whenLoaded();
      await panel.handleMessage({
        type: 'save',
        values: { ...state.values, friendlyName: 'Engineering & Ops', comments: false },
      });
      assert.ok(lastPosted(panel, 'saved'), postedTypes(panel).join());
      const g = await f.get<GroupJson>(`/v2/accounts/${f.acme}/groups/${f.groups.engineering}`);
      assert.equal(g.friendlyName, 'Engineering & Ops');
      assert.equal(g.disableComments, true);
      assert.equal(g.name, 'engineering');
      assert.equal(g.branding.alignment, before.branding.alignment);
    });

    it('a group save the portal answers with the old group says it was not applied, names the fields, and keeps the input', async () => {
      const panel = await groupForm({ groupId: f.groups.marketing });
      const state = await panel.whenLoaded();
      f.emu.setFaults([
        { kind: 'ignore-writes', path: `/v2/accounts/${f.acme}/groups/${f.groups.marketing}`, count: 1 },
      ]);
      const values = { ...state.values, friendlyName: 'Marketing & Sales', chat: !state.values.chat };
      const from = posted(panel).length;
      await panel.handleMessage({ type: 'save', values });
      assert.deepEqual(postedTypes(panel, from), ['busy', 'failed', 'busy'], 'never "saved"');
      const failed = lastPosted<{ message: string; fieldErrors: Array<{ field: string }> }>(panel, 'failed');
      assert.match(
        failed?.message ?? '',
        /^The portal accepted the request but did not apply the friendly name, chat\./,
      );
      assert.deepEqual(failed?.fieldErrors.map((e) => e.field).sort(), ['chat', 'friendlyName']);
      assert.deepEqual(panel.draft, values, 'the input is kept');
      assert.equal(
        (await f.get<GroupJson>(`/v2/accounts/${f.acme}/groups/${f.groups.marketing}`)).friendlyName,
        'Marketing',
      );
    });

    it('refuses a bad colour before sending, and keeps the input on a name conflict', async () => {
      const panel = await groupForm({ groupId: f.groups.social });
      const state = await panel.whenLoaded();
      const requests = requestCount(f.emu);
      await panel.handleMessage({ type: 'save', values: { ...state.values, headerColor: 'blue' } });
      assert.deepEqual(
        lastPosted<{ fieldErrors: Array<{ field: string }> }>(panel, 'failed')?.fieldErrors.map((e) => e.field),
        ['headerColor'],
      );
      assert.equal(requestCount(f.emu), requests);

      const taken = { ...state.values, name: 'marketing' };
      await panel.handleMessage({ type: 'save', values: taken });
      assert.deepEqual(
        lastPosted<{ fieldErrors: Array<{ field: string }> }>(panel, 'failed')?.fieldErrors.map((e) => e.field),
        ['name'],
      );
      assert.deepEqual(panel.draft, taken);
    });

    it('drops forged group messages: another group, another account, a component it did not offer', async () => {
      const panel = await groupForm({ groupId: f.groups.social });
      const state = await panel.whenLoaded();
      const requests = requestCount(f.emu);
      const from = posted(panel).length;
      for (const values of [
        { ...state.values, groupId: f.groups.research },
        { ...state.values, accountId: f.globex },
        { ...state.values, components: ['files', 'admin-console'] },
        { ...state.values, chat: 'off' },
      ])
        await panel.handleMessage({ type: 'save', values });
      assert.equal(requestCount(f.emu), requests);
      assert.deepEqual(postedTypes(panel, from), []);
    });

    it('adds a member through v3 with a password that works and is never sent back', async () => {
      const password = `Pw-${Date.now().toString(36)}-form`;
      recordSecret('password', password);
      const panel = await memberForm({});
      const state = await panel.whenLoaded();
      await panel.handleMessage({
        type: 'save',
        values: {
          ...state.values,
          username: 'new.person',
          name: 'New Person',
          email: 'new.person@acme.example',
          password,
          accountPermission: 4,
          tags: ['design'],
        },
      });
      assert.ok(lastPosted(panel, 'saved'), postedTypes(panel).join());
      const v3 = await f.get<MemberV3Json>(`/v3/accounts/${f.acme}/members/new.person`);
      assert.equal(v3.permission, 4);
      assert.deepEqual(v3.tags, ['design']);
      await passwordToken(f.emu.url, 'new.person', password);
      assert.ok(!JSON.stringify(posted(panel)).includes(password), 'the password never travels back to the webview');
      const after = await panel.whenLoaded();
      assert.equal(after.mode, 'edit');
      assert.equal(after.values.password, '');
    });

    it('edits the profile through v2 without touching groups, and "enabled" through v3', async () => {
      const groupsBefore = (await f.get<MemberV2Json>(`/v2/accounts/${f.acme}/members/victor.hale`)).groups;
      const panel = await memberForm({ username: 'victor.hale' });
      const state = await panel.whenLoaded();
      assert.equal(state.values.enabled, false);
      await panel.handleMessage({
        type: 'save',
        values: { ...state.values, jobTitle: 'Returning contractor', phone: '+44 20 7946 0999', enabled: true },
      });
      assert.ok(lastPosted(panel, 'saved'), postedTypes(panel).join());
      const v2 = await f.get<MemberV2Json>(`/v2/accounts/${f.acme}/members/victor.hale`);
      assert.equal(v2.user.jobTitle, 'Returning contractor');
      assert.equal(v2.user.telephone, '+44 20 7946 0999');
      assert.equal(v2.user.enabled, true);
      assert.deepEqual(v2.groups, groupsBefore);
    });

    it('a member save the portal answers with the old member says it was not applied, for each request', async () => {
      const panel = await memberForm({ username: 'member' });
      const state = await panel.whenLoaded();
      f.emu.setFaults([
        { kind: 'ignore-writes', path: `/v2/accounts/${f.acme}/members/member`, count: 1 },
        { kind: 'ignore-writes', path: `/v3/accounts/${f.acme}/members/member`, count: 1 },
      ]);
      const values = { ...state.values, jobTitle: 'Editor in chief', enabled: !state.values.enabled };
      await panel.handleMessage({ type: 'save', values });
      assert.equal(lastPosted(panel, 'saved'), undefined, 'never "Saved"');
      const failed = lastPosted<{ message: string; fieldErrors: Array<{ field: string }> }>(panel, 'failed');
      assert.match(failed?.message ?? '', /accepted the request but did not apply job title, enabled\./);
      assert.deepEqual(failed?.fieldErrors.map((e) => e.field).sort(), ['enabled', 'jobTitle']);
      assert.equal(panel.draft?.jobTitle, 'Editor in chief');
    });

    it("keeps the input on failure but never echoes the password, and drops another member's save", async () => {
      const panel = await memberForm({ username: 'member' });
      const state = await panel.whenLoaded();
      f.emu.setFaults([{ kind: 'status', status: 500, path: '/v2/accounts', method: 'POST', count: 1 }]);
      const values = { ...state.values, jobTitle: 'Senior writer', password: 'Typed-but-failed-1' };
      await panel.handleMessage({ type: 'save', values });
      assert.deepEqual(postedTypes(panel), ['busy', 'failed', 'busy']);
      assert.deepEqual(panel.draft, values, 'the host keeps the input');
      await panel.handleMessage({ type: 'ready' });
      const init = lastPosted<{ draft: MemberValues }>(panel, 'init');
      assert.equal(init?.draft.jobTitle, 'Senior writer');
      assert.equal(init?.draft.password, '', 'the password is not echoed back');

      const requests = requestCount(f.emu);
      await panel.handleMessage({ type: 'save', values: { ...state.values, username: 'demo', password: 'x' } });
      assert.equal(requestCount(f.emu), requests);
    });
  });
