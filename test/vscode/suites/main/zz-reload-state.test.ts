// The first half of "a reload restores the Explorer, the Members view and the access matrix" (the second:
// suites/restart/a0-reload-state.test.ts). Here Globex's matrix is read in full and filtered to "inactive 90+ days in
// Research & Development", the Members view shows Globex filtered, and Globex's row is expanded in the Explorer.
// The matrix tab is left open for VS Code itself to bring back after the restart.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { portalIdOf } from '../../../../src/auth/portalEntry';
import { portalApi, signInForTest } from '../../support/extension';
import { matrixTabs, RELOAD_RESTART, writeReloadRecord } from '../../support/reloadRestart';
import { nodeOf } from '../../support/tree';
import { withUi } from '../../support/ui';
import { waitFor } from '../../../support/wait';
import { FREEZE_LAYOUT_LINE, layoutSavedSince, markLogs } from '../../support/savedLayout';
import { MATRIX_VIEW_TYPE } from '../../../../src/features/members/access/matrixPanel';

interface PanelLike {
  readonly session: {
    readonly matrix: {
      readonly size: number;
      readonly columns: readonly string[];
      readCount(): number;
      columnOf(name: string): number | undefined;
    };
    read(ui: () => unknown): Promise<{ outcome: string } | undefined>;
  };
  show(view: object): void;
  restoreState(): unknown;
  dispose(): void;
}

/** Far beyond need: the workbench saves at its next idle moment with focus, which a busy machine delays. */
const LAYOUT_SAVE_PATIENCE_MS = 200_000;

describe(`Members: ${RELOAD_RESTART} (before the restart)`, function () {
  this.timeout(180_000);

  it("reads Globex's matrix, filters it, the Members view and the Explorer, and leaves them so as the phase ends", async function () {
    this.timeout(270_000);
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const portalId = portalIdOf(url, 'portal');
    const script = await signInForTest({ baseUrl: url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
    const t = (await portalApi()).testing;
    // Before the tab opens: the layout that holds it is a write made after this.
    const logs = markLogs();
    const globex = { kind: 'account' as const, portalId, accountId: 2, label: 'Globex Research' };
    const node = await nodeOf({ kind: 'account', portalId, accountId: 2 });
    await t.explorer.view.reveal(node as never, { expand: true, select: false, focus: false });

    t.members.show(globex);
    const query = { activity: { inactiveDays: 90 } };
    t.members.provider.setQuery(query);

    const panel = await withUi(
      { 'access.read.confirm': true },
      async (ui) => {
        const p = t.members.access.panels.show(globex, {}) as unknown as PanelLike;
        const result = await p.session.read(() => ui);
        assert.equal(result?.outcome, 'done');
        return p;
      },
      { allUsed: false },
    );
    const research = panel.session.matrix.columnOf('research');
    assert.ok(research !== undefined, 'members of Research & Development were read');
    panel.show({ group: research, inactiveDays: 90 });
    assert.equal(panel.session.matrix.readCount(), panel.session.matrix.size);
    // The tab as VS Code lists it (its tab model follows the panel a moment later).
    await waitFor(() => matrixTabs().length > 0, 'the matrix is an open tab').catch(() => undefined);
    assert.equal(matrixTabs().length, 1, 'the matrix is an open tab');
    // The workbench must have saved its layout with the tab, as filtered, before the phase ends (see savedLayout.ts).
    assert.ok(vscode.window.state.focused, 'the workbench saves its state only while its window has focus');
    if (logs) {
      const group = panel.session.matrix.columns[research];
      assert.ok(group, 'the column has its name');
      await waitFor(
        () => layoutSavedSince(logs, [MATRIX_VIEW_TYPE, group, 'inactiveDays']),
        'the workbench saved its layout with the filtered matrix tab',
        LAYOUT_SAVE_PATIENCE_MS,
      );
      console.log(FREEZE_LAYOUT_LINE);
    }
    writeReloadRecord({
      portalId,
      accountId: 2,
      label: globex.label,
      matrixState: { key: 'access', values: panel.restoreState() },
      matrixRows: panel.session.matrix.size,
      membersQuery: query,
      recordedAt: Date.now(),
    });
  });
});
