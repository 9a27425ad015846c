import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type { OverviewState, OverviewValues } from '../../../../../src/features/explorer/forms/overview.protocol';
import { formKeys, portalKey } from '../../../../../src/shared/keys';
import { portalApi } from '../../../support/extension';
import { openForm, postedTypes, useFormsFixture, type FormsFixture } from '../../../support/forms';
import { byLabel, features, rows, type Provider, type Row } from '../../../support/tree';
import { ScriptedUi, withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

/**
 * A context-menu entry does not hand the command its node: VS Code sends the row's handle, and the extension
 * host turns it back into the node through the rows the view last drew. From the moment a view asks for a
 * parent's rows again until getChildren answers, that lookup finds nothing and the command runs with
 * `undefined`, so it asks "Which member?" as if run from the palette. These tests send the menu's own argument
 * (through `runCommands`, so it takes the same way into the extension host as a menu click) while a view
 * reloads after a save.
 */
describe('Tree context menus while a view reloads', function () {
  this.timeout(180_000);
  let f: FormsFixture;

  useFormsFixture((x) => (f = x));

  /** VS Code 1.100's handle of a tree item that has an id. */
  const handleOf = (row: Row): string => `1/${row.id}`;

  /** Runs a command as a context-menu entry of `row` in `viewId` would, without waiting for it to finish. */
  const fromMenu = (command: string, viewId: string, row: Row): Thenable<unknown> =>
    vscode.commands.executeCommand('runCommands', {
      commands: [{ command, args: [{ $treeViewId: viewId, $treeItemHandle: handleOf(row) }] }],
    });

  /**
   * Runs a menu entry and says what it did: `wanted` when it opened that form panel, else the questions it asked.
   * A command that lost its row asks which one; no answer is scripted, so that question ends it, and the command
   * always ends: nothing here waits for a time.
   */
  const fromMenuNow = async (command: string, viewId: string, row: Row, wanted: string): Promise<string> => {
    const api = await portalApi();
    const ui = new ScriptedUi({});
    api.testing.useUi(ui);
    try {
      await Promise.resolve(fromMenu(command, viewId, row)).then(undefined, () => undefined);
    } finally {
      api.testing.useUi(undefined);
    }
    if (api.testing.forms.panels().some((p) => p.key === wanted)) return wanted;
    return `no panel; asked: ${ui.questions.join(', ') || 'nothing'}`;
  };

  /**
   * Holds every read of exactly `path` (a list, not its members) until released: from the moment the view asks it
   * again until the release, the view's reload is surely in flight, however slow the machine.
   */
  const hold = (path: string): (() => void) => {
    f.emu.setFaults([{ kind: 'latency', delayMs: 120_000, path, exactPath: true, method: 'GET' }]);
    return () => {
      f.emu.clearFaults();
      f.emu.releaseDelays();
    };
  };
  /** Waits until the view has asked `route` again since `before` arrivals: the reload reached the portal. */
  const asked = (route: string, before: number): Promise<void> =>
    waitFor(() => arrivals(route) > before, `the view asked the portal again (${route})`);
  const arrivals = (route: string): number => f.emu.stats().byRoute[route] ?? 0;
  const acmeIds = () => ({ portalId: f.portalId, accountId: f.acme });
  const assignmentsKey = (username: string) => formKeys.assignments({ account: acmeIds(), username });

  it('"Edit Assignments…" on a member row opens that member while the Members view reloads after a save', async () => {
    const t = await features();
    const members = t.members.provider as unknown as Provider;
    t.members.show({ kind: 'account', portalId: f.portalId, accountId: f.acme, label: 'Acme Corporation' });
    await vscode.commands.executeCommand('portal.members.focus');
    const mia = byLabel(await rows(members), 'Mia Member');
    const lena = byLabel(await rows(members), 'Lena Locke');
    // Drawn by VS Code, so its handle resolves.
    await t.members.view.reveal(mia.node as never, { select: false, focus: false });

    // The menu's argument reaches the command as the row (this also checks the handle is VS Code's).
    assert.equal(
      await fromMenuNow('portal.editMemberAssignments', 'portal.members', mia, assignmentsKey('member')),
      assignmentsKey('member'),
      'the menu argument became the row',
    );
    for (const p of (await portalApi()).testing.forms.panels()) p.dispose();

    // A save elsewhere reloads the Members view from a slow portal...
    const before = t.members.snapshot();
    assert.ok(before.shown > 0);
    const answers = {
      'permission.group': (g: { id: number }) => g.id === f.groups.social,
      'permission.level': (level: number) => level === 4,
    };
    // Held from before the save, so nothing is left to how soon after it the view reloads; the save's own reads
    // of one member are below the list's path and go through.
    const route = 'GET /v3/accounts/:account/members';
    const asks = arrivals(route);
    const release = hold(`/v3/accounts/${f.acme}/members`);
    const wanted = assignmentsKey('member');
    try {
      const saved = await withUi(answers, () =>
        Promise.resolve(vscode.commands.executeCommand('portal.changeMemberGroupPermission', lena.node)),
      );
      assert.equal(saved, true);
      await asked(route, asks);
      assert.equal(
        await fromMenuNow('portal.editMemberAssignments', 'portal.members', mia, wanted),
        wanted,
        'the command got its row, not a question',
      );
      assert.match(
        t.members.view.description ?? '',
        /^Acme Corporation · \d+ of \d+$/,
        'the count stays while the rows are reloaded',
      );
    } finally {
      release();
    }

    // The reload still happens: the rows are replaced by the portal's answer once it arrives.
    await waitFor(() => t.members.snapshot().generation > before.generation, 'the list was loaded again');
    assert.ok(byLabel(await rows(members), 'Mia Member'));
  });

  it('"Organisation Overview" on an organisation row opens that organisation while the Explorer reloads after a save', async () => {
    const t = await features();
    const explorer = t.explorer.provider as unknown as Provider;
    await vscode.commands.executeCommand('portal.explorer.focus');
    const portal = (await rows(explorer)).find((r) => r.id === portalKey('explorer', f.portalId));
    assert.ok(portal);
    const acme = byLabel(await rows(explorer, portal.node), 'Acme Corporation');
    await t.explorer.view.reveal(acme.node as never, { select: false, focus: false });
    const wanted = formKeys.overview(acmeIds());
    assert.equal(
      await fromMenuNow('portal.accountOverview', 'portal.explorer', acme, wanted),
      wanted,
      'the menu argument became the row',
    );
    for (const p of (await portalApi()).testing.forms.panels()) p.dispose();

    // Saving the overview reloads the organisations (GET /v3/userinfo), which the portal holds back.
    const overview = await openForm<FormPanel<OverviewState, OverviewValues>>('portal.accountOverview', acme.node);
    const state = await overview.whenLoaded();
    const route = 'GET /v3/userinfo';
    await overview.handleMessage({ type: 'save', values: { ...state.values, locale: 'en_GB' } });
    assert.ok(postedTypes(overview).includes('saved'), postedTypes(overview).join());
    overview.dispose();
    const asks = arrivals(route);
    const release = hold('/v3/userinfo');
    try {
      await asked(route, asks);
      assert.equal(
        await fromMenuNow('portal.accountOverview', 'portal.explorer', acme, wanted),
        wanted,
        'the command got its row, not "Which organisation?"',
      );
    } finally {
      release();
    }
  });
});
