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
import { waitFor } from '../../support/wait';

interface PanelLike {
  readonly session: {
    readonly matrix: { readonly size: number; readCount(): number; columnOf(name: string): number | undefined };
    read(ui: () => unknown): Promise<{ outcome: string } | undefined>;
  };
  show(view: object): void;
  restoreState(): unknown;
  dispose(): void;
}

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
    // The web workbench writes its editor layout (the tabs it reopens) only when it saves its state: every 5 seconds
    // while the window has focus and is idle, or at a shutdown. The runner ends the phase by closing the browser,
    // with no shutdown, so the layout must have been saved before the phase ends: three of those saves' time.
    assert.ok(vscode.window.state.focused, 'the workbench saves its state only while its window has focus');
    await new Promise((r) => setTimeout(r, 15_000));
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
