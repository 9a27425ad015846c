// The second half of "a reload restores the Explorer, the Members view and the access matrix" (the first:
// suites/main/zz-reload-state.test.ts). First of this phase's suites, so no other suite has changed the views yet.
// The matrix comes back through the serializer, given the state its page kept, from the reads stored before the
// restart: the emulator sees no request at all while it does.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { portalApi } from '../../support/extension';
import { control } from '../../support/portalHttp';
import { RELOAD_RESTART, takeReloadRecord } from '../../support/reloadRestart';
import { nodeOf } from '../../support/tree';

interface RevivedLike {
  readonly session: { readonly matrix: { readonly size: number; columnOf(name: string): number | undefined } };
  readonly onDidPost: vscode.Event<{ type: string; [key: string]: unknown }>;
  readonly panel: vscode.WebviewPanel;
  dispose(): void;
}

async function requests(url: string): Promise<number> {
  return ((await control(url, 'GET', 'stats')) as { requests: number }).requests;
}

/** Waits (bounded: 40 looks, 250 ms apart) until the portal has had no request for one look: startup reads done. */
async function quiet(url: string): Promise<void> {
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const now = await requests(url);
    if (now === last) return;
    last = now;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe(`Members: ${RELOAD_RESTART} (after the restart)`, function () {
  this.timeout(60_000);

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
    for (let i = 0; i < 40 && !t.members.provider.account; i++) await new Promise((r) => setTimeout(r, 250));
    assert.deepEqual(t.members.provider.account, globex);
    assert.deepEqual(t.members.provider.query, before.membersQuery);

    // The Explorer: Globex's row is drawn expanded.
    const node = await nodeOf({ kind: 'account', portalId: before.portalId, accountId: before.accountId });
    const item = t.explorer.provider.getTreeItem(node as never);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);

    // The matrix: revived exactly as VS Code revives it, from the kept state, while the emulator counts.
    // Counted as a difference, not reset: later suites of this phase read what the start itself asked.
    await quiet(url);
    const before0 = await requests(url);
    const tab = vscode.window.createWebviewPanel('portal.accessMatrix', 'restored', vscode.ViewColumn.Active, {
      enableScripts: true,
    });
    const posted: Array<{ type: string; [key: string]: unknown }> = [];
    const panels = t.members.access.panels as unknown as {
      revive(p: vscode.WebviewPanel, s: unknown): RevivedLike | undefined;
    };
    const revived = panels.revive(tab, before.matrixState);
    assert.ok(revived, 'the kept state is accepted');
    try {
      const shown = new Promise<void>((resolve) => {
        revived.onDidPost((m) => {
          posted.push(m);
          if (m.type === 'progress') resolve();
        });
      });
      await Promise.race([
        shown,
        new Promise((_, no) => setTimeout(() => no(new Error('the page never asked')), 30_000)),
      ]);
      const init = posted.find((m) => m.type === 'init') as unknown as {
        view: { group?: number; inactiveDays?: number };
      };
      assert.deepEqual(
        init.view,
        {
          group: revived.session.matrix.columnOf('research'),
          inactiveDays: 90,
        },
        'the filter as it was: the group found again by its name',
      );
      const rows = posted.filter((m) => m.type === 'rows').reduce((n, m) => n + (m.rows as unknown[]).length, 0);
      assert.equal(rows, before.matrixRows, 'every stored row is shown');
      assert.equal((await requests(url)) - before0, 0, 'no request: the matrix came from the stored reads');
    } finally {
      revived.dispose();
    }
  });
});
