// Changes to a group, the organisation and an application go through the write engine: each summary offers Undo,
// which shows what it sends back and puts the portal's values back; the change history lists each one.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type { GroupState, GroupValues } from '../../../../../src/features/explorer/forms/group.protocol';
import type { OverviewState, OverviewValues } from '../../../../../src/features/explorer/forms/overview.protocol';
import { portalKey } from '../../../../../src/shared/keys';
import { lastPosted, openForm, postedTypes, useFormsFixture, type FormsFixture } from '../../../support/forms';
import { byLabel, features, nodeOf, rows } from '../../../support/tree';
import { withUi, type ScriptedUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

/** The summary's Undo is clicked, and the undo's confirmation (what it sends back) is accepted. */
const UNDO = { 'settings.change.done': 'undo', 'settings.undo.confirm': true } as const;

const undoShown = (ui: ScriptedUi): string[] =>
  ui.asked.filter((q) => q.id === 'settings.undo.confirm').flatMap((q) => q.texts);

describe('Settings changes: undone from their summary', function () {
  this.timeout(180_000);
  let f: FormsFixture;
  useFormsFixture((x) => (f = x));

  it("a group's rename is undone from its summary's Undo, and the history lists both", async () => {
    const groupId = f.groups['engineering'];
    assert.ok(groupId);
    const before = await f.get<{ friendlyName: string }>(`/v2/accounts/${f.acme}/groups/${groupId}`);
    await withUi(UNDO, async (ui) => {
      const panel = await openForm<FormPanel<GroupState, GroupValues>>(
        'portal.editGroup',
        await nodeOf({ kind: 'group', portalId: f.portalId, accountId: f.acme, groupId }),
      );
      const state = await panel.whenLoaded();
      await panel.handleMessage({ type: 'save', values: { ...state.values, friendlyName: 'Engineering Guild' } });
      assert.ok(lastPosted(panel, 'saved'), postedTypes(panel).join());
      await waitFor(
        async () =>
          (await f.get<{ friendlyName: string }>(`/v2/accounts/${f.acme}/groups/${groupId}`)).friendlyName ===
          before.friendlyName,
        'the rename is undone on the portal',
      );
      assert.ok(
        undoShown(ui).some((t) => t.includes('Engineering Guild → ' + before.friendlyName)),
        `the undo names what it sends back: ${undoShown(ui).join(' | ')}`,
      );
    });
    // The change history lists the change and its undo; choosing the change, undone already, sends nothing.
    await withUi(
      {
        'plan.history.pick': ((v: { settings?: { record: { begin: { title?: string } } } }) =>
          v.settings?.record.begin.title === 'Edit the group Engineering Guild') as never,
      },
      async (ui) => {
        await vscode.commands.executeCommand('portal.plan.showHistory');
        const labels = ui.asked.find((a) => a.id === 'plan.history.pick')?.texts ?? [];
        assert.ok(
          labels.some((l) => l.includes('Edit the group Engineering Guild')),
          labels.join(' | '),
        );
        assert.ok(
          labels.some((l) => l.includes('Undo Edit the group')),
          labels.join(' | '),
        );
        assert.ok(
          ui.told.some((t) => /undone already/.test(t.text)),
          'an undone change is not undone twice',
        );
      },
    );
  });

  it("the organisation's update is undone from its summary's Undo", async () => {
    const before = await f.get<{ friendlyName: string }>(`/v3/accounts/${f.globex}`);
    await withUi(UNDO, async () => {
      const panel = await openForm<FormPanel<OverviewState, OverviewValues>>(
        'portal.accountOverview',
        await nodeOf({ kind: 'account', portalId: f.portalId, accountId: f.globex }),
      );
      const state = await panel.whenLoaded();
      await panel.handleMessage({ type: 'save', values: { ...state.values, friendlyName: 'Globex Worldwide' } });
      assert.ok(lastPosted(panel, 'saved'), postedTypes(panel).join());
      await waitFor(
        async () =>
          (await f.get<{ friendlyName: string }>(`/v3/accounts/${f.globex}`)).friendlyName === before.friendlyName,
        'the update is undone on the portal',
      );
    });
  });

  it("an application's rename is undone from its summary's Undo", async () => {
    const applications = (await features()).applications.provider;
    const portalRow = (await rows(applications)).find((r) => r.id === portalKey('applications', f.portalId));
    assert.ok(portalRow);
    const sync = byLabel(await rows(applications, portalRow.node), 'Portal Sync (laptop)');
    const name = async () =>
      (await f.get<Array<{ clientId: string; name: string }>>('/v3/applications')).find(
        (a) => a.clientId === (sync.node as { ref: { clientId: string } }).ref.clientId,
      )?.name;
    await withUi({ ...UNDO, 'application.rename': 'Portal Sync (old laptop)' }, async (ui) => {
      assert.equal(await vscode.commands.executeCommand('portal.application.rename', sync.node), true);
      await waitFor(async () => (await name()) === 'Portal Sync (laptop)', 'the rename is undone on the portal');
      assert.ok(undoShown(ui).some((t) => t.includes('Portal Sync (old laptop) → Portal Sync (laptop)')));
    });
  });
});
