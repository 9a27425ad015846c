import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type {
  AssignmentsState,
  AssignmentsValues,
} from '../../../../../src/features/members/forms/assignments/assignments.protocol';
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
import { DISMISS, withUi, type Answers } from '../../../support/ui';

interface MemberV2Json {
  groups: Record<string, number>;
  accountPermission: number;
}
interface MemberV3Json {
  permission: number;
  tags: string[];
  user: { locked: boolean; enabled: boolean };
  assignToNewGroupsPermission: number;
}

for (const profile of PROFILES)
  describe(`Forms: edit member assignments (${profile})`, function () {
    this.timeout(180_000);
    let f: FormsFixture;
    const node = (username: string) => nodeOf({ kind: 'member', portalId: f.portalId, accountId: f.acme, username });
    const open = async (username: string) => {
      const panel = await openForm<FormPanel<AssignmentsState, AssignmentsValues>>(
        'portal.editMemberAssignments',
        await node(username),
      );
      return { panel, state: await panel.whenLoaded() };
    };
    const save = (panel: FormPanel, values: AssignmentsValues) => panel.handleMessage({ type: 'save', values });
    const permissionIn = (state: AssignmentsState, values: AssignmentsValues, groupName: string) => {
      const id = state.groups.find((g) => g.name === groupName)?.id;
      return values.groups.find((g) => g.id === id)?.permission;
    };
    const withGroup = (
      values: AssignmentsValues,
      groupId: number | undefined,
      permission: 0 | 1 | 4 | 16,
    ): AssignmentsValues => ({
      ...values,
      groups: values.groups.map((g) => (g.id === groupId ? { ...g, permission } : g)),
    });

    useFormsFixture((x) => (f = x), { profile });

    it("loads every group of the account with the member's permission in it", async () => {
      const { state } = await open('member');
      assert.deepEqual(state.groups.map((g) => g.name).sort(), ['engineering', 'handbook', 'marketing', 'social']);
      assert.equal(permissionIn(state, state.values, 'engineering'), 4);
      assert.equal(permissionIn(state, state.values, 'marketing'), 1);
      assert.equal(permissionIn(state, state.values, 'social'), 16);
      assert.equal(permissionIn(state, state.values, 'handbook'), 0);
      assert.equal(state.values.accountPermission, 1);
      assert.deepEqual([...state.values.tags].sort(), ['frontend', 'new-hire']);
      assert.ok(state.tagSuggestions.includes('design'));
    });

    // That the bundle runs under this CSP and says "ready" is shown by the Playwright flow (test/e2e/forms.e2e.ts),
    // which renders every form: here, webviews created and closed in quick succession often never load.
    it('serves a page with a nonce CSP, one script, no inline handlers, and only the bundle folder', async () => {
      const { panel } = await open('member');
      const html = panel.panel.webview.html;
      const nonce = /script-src 'nonce-([^']+)'/.exec(html)?.[1];
      assert.ok(nonce, html);
      assert.match(html, /default-src 'none'/);
      assert.ok(html.includes(`<script nonce="${nonce}" src=`), 'the one script carries the nonce');
      assert.equal((html.match(/<script/g) ?? []).length, 1, 'no other script');
      assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handlers');
      const roots = panel.panel.webview.options.localResourceRoots?.map((u) => u.path) ?? [];
      assert.equal(roots.length, 1);
      assert.match(roots[0] ?? '', /\/dist\/webview$/);
    });

    it('sends only what changed, and the portal then holds it', async () => {
      const { panel, state } = await open('member');
      const values: AssignmentsValues = {
        ...withGroup(
          withGroup(withGroup(state.values, f.groups.engineering, 16), f.groups.marketing, 0),
          f.groups.handbook,
          4,
        ),
        accountPermission: 4,
        tags: [...state.values.tags, 'design'],
        notify: true,
      };
      const before = f.emu.stats().byRoute;
      await save(panel, values);
      const after = f.emu.stats().byRoute;
      const patch = 'PATCH /v3/accounts/:account/members/:username';
      assert.equal((after[patch] ?? 0) - (before[patch] ?? 0), 1, 'one PATCH');
      assert.equal(
        Object.keys(after)
          .filter((k) => k.startsWith('POST /v2'))
          .reduce((n, k) => n + (after[k] ?? 0) - (before[k] ?? 0), 0),
        0,
        'no v2 POST',
      );
      assert.equal(
        lastPosted<{ message: string }>(panel, 'saved')?.message.startsWith('Saved'),
        true,
        postedTypes(panel).join(),
      );

      const v2 = await f.get<MemberV2Json>(`/v2/accounts/${f.acme}/members/member`);
      assert.deepEqual(v2.groups, { engineering: 16, handbook: 4, social: 16 });
      const v3 = await f.get<MemberV3Json>(`/v3/accounts/${f.acme}/members/member`);
      assert.equal(v3.permission, 4);
      assert.deepEqual([...v3.tags].sort(), ['design', 'frontend', 'new-hire']);
    });

    it("marks the panel's title while the form holds unsaved changes, and clears it once they are saved", async () => {
      const { panel, state } = await open('lena.locked');
      const title = panel.panel.title;
      assert.ok(!title.startsWith('\u25CF'), `no marker on open: ${title}`);
      // The page says so on its first edit (and when an edit is undone).
      await panel.handleMessage({ type: 'dirty', dirty: true });
      assert.equal(panel.panel.title, `\u25CF ${title}`);
      // A forged flag is dropped, not read as "changed" or "clean".
      await panel.handleMessage({ type: 'dirty', dirty: 'no' });
      assert.equal(panel.panel.title, `\u25CF ${title}`);
      await panel.handleMessage({ type: 'dirty', dirty: false });
      assert.equal(panel.panel.title, title);
      // Marked again, then saved: the form shows what the portal holds, so nothing is unsaved.
      await panel.handleMessage({ type: 'dirty', dirty: true });
      await save(panel, { ...state.values, tags: [...state.values.tags, 'reviewed'] });
      assert.ok(lastPosted(panel, 'saved'), postedTypes(panel).join());
      assert.equal(panel.panel.title, title);
      // A failed save keeps the input, so the marker stays.
      await panel.handleMessage({ type: 'dirty', dirty: true });
      f.emu.setFaults([{ kind: 'status', status: 500, path: '/v3/accounts', method: 'PATCH', count: 1 }]);
      await save(panel, { ...state.values, tags: [] });
      assert.ok(lastPosted(panel, 'failed'), postedTypes(panel).join());
      assert.equal(panel.panel.title, `\u25CF ${title}`);
    });

    it('keeps the input and says what failed when the portal answers 500', async () => {
      const { panel, state } = await open('member');
      const values = { ...withGroup(state.values, f.groups.engineering, 1), locked: true };
      f.emu.setFaults([{ kind: 'status', status: 500, path: '/v3/accounts', method: 'PATCH', count: 1 }]);
      const from = posted(panel).length;
      await save(panel, values);
      assert.deepEqual(postedTypes(panel, from), ['busy', 'failed', 'busy']);
      assert.ok((lastPosted<{ message: string }>(panel, 'failed')?.message ?? '').length > 0);
      assert.deepEqual(panel.draft, values, 'the host keeps what the user sent');
      // A reloaded webview (VS Code unloads hidden ones) gets the input back with the state.
      await panel.handleMessage({ type: 'ready' });
      assert.deepEqual(lastPosted<{ draft: unknown }>(panel, 'init')?.draft, values);
      const v3 = await f.get<MemberV3Json>(`/v3/accounts/${f.acme}/members/member`);
      assert.equal(v3.user.locked, false, 'nothing changed on the portal');
    });

    it('a save the portal answers with the old member says it was not applied, naming each field and group', async () => {
      const { panel, state } = await open('member');
      f.emu.setFaults([{ kind: 'ignore-writes', path: `/v3/accounts/${f.acme}/members/member`, count: 1 }]);
      const values = {
        ...withGroup(state.values, f.groups.marketing, 4),
        locked: true,
        tags: [...state.values.tags, 'ops'],
      };
      const from = posted(panel).length;
      await panel.handleMessage({ type: 'save', values });
      assert.deepEqual(postedTypes(panel, from), ['busy', 'failed', 'busy'], 'never "saved"');
      const failed = lastPosted<{ message: string; fieldErrors: Array<{ field: string }> }>(panel, 'failed');
      assert.match(
        failed?.message ?? '',
        /^The portal accepted the request but did not apply tags, locked, the permission in Marketing\./,
      );
      assert.deepEqual(failed?.fieldErrors.map((e) => e.field).sort(), [
        `group-${f.groups.marketing}`,
        'locked',
        'tags',
      ]);
      assert.deepEqual(panel.draft, values, 'the input is kept');
    });

    it("shows the portal's field errors next to the fields", async () => {
      const { panel, state } = await open('member');
      await save(panel, { ...state.values, tags: ['x'.repeat(60)] });
      const failed = lastPosted<{ fieldErrors: Array<{ field: string; message: string }> }>(panel, 'failed');
      assert.ok(
        failed?.fieldErrors.some((e) => e.field === 'tags'),
        JSON.stringify(failed),
      );
      assert.deepEqual(panel.draft?.tags, ['x'.repeat(60)]);
    });

    it('sends one request for a double click on Save', async () => {
      const { panel, state } = await open('member');
      const values = withGroup(state.values, f.groups.marketing, 4);
      const patch = 'PATCH /v3/accounts/:account/members/:username';
      const before = f.emu.stats().byRoute[patch] ?? 0;
      await Promise.all([save(panel, values), save(panel, values)]);
      assert.equal((f.emu.stats().byRoute[patch] ?? 0) - before, 1);
    });

    it('drops forged messages: wrong type, unknown command, ids of another account or member', async () => {
      const { panel, state } = await open('member');
      const globexGroup = f.groups.research;
      const forged: unknown[] = [
        'save',
        { type: 42 },
        { type: 'deleteMember', username: 'member' },
        { type: 'save', values: { ...state.values, accountId: f.globex } },
        { type: 'save', values: { ...state.values, username: 'demo' } },
        { type: 'save', values: { ...state.values, groups: [{ id: globexGroup, permission: 16 }] } },
        { type: 'save', values: { ...state.values, groups: [{ id: f.groups.engineering, permission: 8 }] } },
        { type: 'save', values: { ...state.values, accountPermission: 16, admin: true } },
        { type: 'save', values: { ...state.values, tags: 'a,b' } },
      ];
      const requests = requestCount(f.emu);
      const from = posted(panel).length;
      for (const m of forged) await panel.handleMessage(m);
      assert.equal(requestCount(f.emu), requests, 'no request reached the portal');
      assert.deepEqual(postedTypes(panel, from), [], 'nothing was acted on');
      const v2 = await f.get<MemberV2Json>(`/v2/accounts/${f.globex}/groups/${globexGroup}`);
      assert.ok(v2);
    });

    it("changes one group permission through the quick-pick path, offering only the groups of the member's organisation", async () => {
      const lena = await node('lena.locked');
      const answers: Answers = {
        'permission.group': [(g: { id: number }) => g.id === f.groups.social, DISMISS],
        'permission.level': (level: number) => level === 4,
      };
      await withUi(answers, async (ui) => {
        assert.equal(await vscode.commands.executeCommand('portal.changeMemberGroupPermission', lena), true);
        assert.match(ui.told.map((t) => t.text).join('\n'), /Lena Locke is now Standard in Social Club/);
        const v2 = await f.get<MemberV2Json>(`/v2/accounts/${f.acme}/members/lena.locked`);
        assert.equal(v2.groups.social, 4);
        assert.equal(v2.groups.handbook, 1, 'other groups untouched');
        assert.equal(
          await vscode.commands.executeCommand('portal.changeMemberGroupPermission', lena),
          undefined,
          'dismissed: nothing changes',
        );
        const offered = ui.asked.filter((q) => q.id === 'permission.group').at(-1)?.items ?? [];
        assert.ok(offered.includes('Social Club'), offered.join(', '));
        assert.ok(!offered.includes('Research & Development'), 'a group of another organisation is never offered');
      });
    });
  });
