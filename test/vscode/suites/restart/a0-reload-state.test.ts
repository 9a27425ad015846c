// The second half of "a reload restores the Explorer, the Members view and the access matrix" (the first:
// suites/main/zz-reload-state.test.ts). First of this phase's suites, so no other suite has changed the views yet.
// The matrix tab comes back because VS Code reopens it (its layout was saved before the restart) and hands it to the
// extension's serializer with the state its page kept; it shows the reads stored before the restart, and the
// emulator sees no request for it.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { portalApi } from '../../support/extension';
import { control } from '../../support/portalHttp';
import { matrixTabs, RELOAD_RESTART, takeReloadRecord } from '../../support/reloadRestart';
import { nodeOf } from '../../support/tree';
import { waitFor } from '../../../support/wait';

/** Index of the read time in a row as the page gets it (shared/accessRow.ts). */
const READ_AT = 9;

interface RevivedLike {
  readonly session: {
    readonly matrix: { readonly size: number; columnOf(name: string): number | undefined; all(): Iterable<unknown[]> };
    progress(): { state: string };
    readonly onProgress: vscode.Event<{ state: string }>;
  };
  readonly onDidPost: vscode.Event<{ type: string; [key: string]: unknown }>;
  readonly panel: vscode.WebviewPanel;
  readonly currentView: object;
  handleMessage(raw: unknown): Promise<void>;
  dispose(): void;
}

/**
 * The reads only the matrix makes: one member with their groups (v2), per row. The window's other views read the
 * portal as it starts, in waves no event ends, so the matrix's own route is what tells a read of its rows.
 */
async function matrixReads(url: string): Promise<number> {
  const stats = (await control(url, 'GET', 'stats')) as { byRoute: Record<string, number> };
  return stats.byRoute['GET /v2/accounts/:account/members/:username'] ?? 0;
}

/** Shows a tab as a click on it would: its group focused, then the editor at its place in the group. */
async function showTab(tab: vscode.Tab | undefined): Promise<void> {
  if (!tab || tab.isActive) return;
  const column = tab.group.viewColumn;
  const focusGroup = ['workbench.action.focusFirstEditorGroup', 'workbench.action.focusSecondEditorGroup'][column - 1];
  if (focusGroup) await vscode.commands.executeCommand(focusGroup);
  await vscode.commands.executeCommand('workbench.action.openEditorAtIndex', tab.group.tabs.indexOf(tab));
}

describe(`Members: ${RELOAD_RESTART} (after the restart)`, function () {
  this.timeout(180_000);

  it('the Explorer, the Members view and the matrix are as they were left; the matrix is shown with no request', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const before = takeReloadRecord();
    const t = (await portalApi()).testing;
    const globex = {
      kind: 'account' as const,
      portalId: before.portalId,
      accountId: before.accountId,
      label: before.label,
    };

    // The Members view: the organisation and its filter (shown once the portal's session is back).
    await waitFor(() => !!t.members.provider.account, 'the Members view has its organisation').catch(() => undefined);
    assert.deepEqual(t.members.provider.account, globex);
    assert.deepEqual(t.members.provider.query, before.membersQuery);

    // The Explorer: Globex's row is drawn expanded.
    const node = await nodeOf({ kind: 'account', portalId: before.portalId, accountId: before.accountId });
    const item = t.explorer.provider.getTreeItem(node as never);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);

    // The matrix: VS Code itself brought its tab back, and the extension's serializer (activated by the panel) showed
    // it from the reads stored before the restart. The test creates and revives nothing. VS Code revives a restored
    // webview only once its tab is shown: when another editor came last, the tab is clicked, as a person would.
    await waitFor(() => matrixTabs().length > 0, 'the matrix tab is back').catch(() => undefined);
    assert.equal(matrixTabs().length, 1, 'VS Code reopened the matrix tab');
    await showTab(matrixTabs()[0]);
    const panels = t.members.access.panels as unknown as { get(a: typeof globex): RevivedLike | undefined };
    await waitFor(() => !!panels.get(globex), 'the serializer took the matrix panel').catch(() => undefined);
    const revived = panels.get(globex);
    assert.ok(revived, 'the serializer took the tab VS Code brought back');
    assert.equal(matrixTabs()[0]?.label, revived.panel.title);
    const research = revived.session.matrix.columnOf('research');
    assert.deepEqual(
      revived.currentView,
      { group: research, inactiveDays: 90 },
      'the filter as it was: the group found again by its name',
    );
    assert.equal(revived.session.matrix.size, before.matrixRows, 'every stored row is there');
    assert.equal(revived.session.progress().state, 'idle', 'no read was started for the matrix');

    // The page is sent everything again while the emulator counts: every row, and still no read of one.
    const before0 = await matrixReads(url);
    const progress: string[] = [];
    const reading = revived.session.onProgress((p) => progress.push(p.state));
    const posted: Array<{ type: string; [key: string]: unknown }> = [];
    const listening = revived.onDidPost((m) => posted.push(m));
    try {
      await revived.handleMessage({ type: 'ready' });
      const init = posted.find((m) => m.type === 'init') as unknown as { view: object } | undefined;
      assert.deepEqual(init?.view, { group: research, inactiveDays: 90 });
      const rows = posted.filter((m) => m.type === 'rows').reduce((n, m) => n + (m.rows as unknown[]).length, 0);
      assert.equal(rows, before.matrixRows, 'every stored row is shown');
      assert.equal((await matrixReads(url)) - before0, 0, 'no member read: the matrix came from the stored reads');
      assert.deepEqual(progress, [], 'no read of the matrix was started');
      const readSince = [...revived.session.matrix.all()].filter((r) => (r[READ_AT] as number) > before.recordedAt);
      assert.deepEqual(readSince, [], 'no member was read since the restart: every row is as stored before it');
    } finally {
      listening.dispose();
      reading.dispose();
      revived.dispose();
    }
  });
});
