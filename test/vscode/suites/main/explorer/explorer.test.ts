import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../../../emulator';
import { isLiteral, PROFILES, startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { portalApi } from '../../../support/extension';
import { passwordToken, portalJson } from '../../../support/portalHttp';
import { byLabel, features, loadAll, portalRow, rows, setPageSize, walk, type Provider } from '../../../support/tree';
import { waitFor } from '../../../../support/wait';

/** API requests (the token endpoint excluded) since the last resetStats. */
function apiRequests(emu: Emulator): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [route, n] of Object.entries(emu.stats().byRoute)) if (!route.includes('/oauth/token')) out[route] = n;
  return out;
}

const total = (byRoute: Record<string, number>) => Object.values(byRoute).reduce((a, b) => a + b, 0);

for (const profile of PROFILES)
  describe(`Explorer: portal → accounts → groups → folders → files (${profile})`, function () {
    this.timeout(180_000);
    let emu: Emulator;
    let portalId: string;
    let explorer: Provider & { refresh(node?: unknown): void };
    // A portal that keeps to the spec answers the plain-array group list whole, whatever page size is asked.
    const literal = isLiteral(profile);

    before(async () => {
      ({ emu, portalId } = await startDemoPortal({ profile }));
      explorer = (await features()).explorer.provider as unknown as Provider & { refresh(node?: unknown): void };
    });

    after(async () => {
      await setPageSize(undefined);
      await stopDemoPortal({ emu, portalId });
    });

    it("shows every level with the portal's names, sizes, dates and icons", async () => {
      const portal = await portalRow(explorer, portalId);
      assert.equal(portal.contextValue, 'portal.signedIn');
      assert.equal(portal.description, 'demo');

      const accounts = await rows(explorer, portal.node);
      assert.deepEqual(accounts.map((r) => r.label).sort(), [
        'Acme Corporation',
        'Globex Research',
        'Initech (archived)',
      ]);
      const acme = byLabel(accounts, 'Acme Corporation');
      assert.equal(acme.contextValue, 'account.admin');
      assert.match(acme.description, /business-trial · trial/);
      assert.match(byLabel(accounts, 'Globex Research').description, /paused/);

      const groups = await rows(explorer, acme.node);
      // The portal's order (by unique name), not re-sorted here.
      assert.deepEqual(
        groups.map((r) => r.label),
        ['Engineering', 'Employee Handbook', 'Marketing', 'Social Club'],
      );
      const engineering = byLabel(groups, 'Engineering');
      assert.equal(engineering.contextValue, 'group');
      assert.match(engineering.description, /^\d+ members$/);

      const top = await rows(explorer, engineering.node);
      assert.deepEqual(
        top.map((r) => r.label),
        ['config.json', 'docs', 'README.md', 'releases.csv', 'src'],
      );
      const readme = byLabel(top, 'README.md');
      assert.equal(readme.contextValue, 'file');
      assert.equal(readme.icon, 'file-text');
      assert.match(readme.description, /^\d+(\.\d)? (bytes|KB) · \d{4}-\d\d-\d\d \d\d:\d\d$/);
      assert.equal(readme.command?.command, 'portal.file.openRecord');
      assert.equal(byLabel(top, 'config.json').icon, 'file-code');
      const src = byLabel(top, 'src');
      assert.equal(src.contextValue, 'folder');
      assert.ok(src.collapsible);

      const srcChildren = await rows(explorer, src.node);
      assert.deepEqual(
        srcChildren.map((r) => r.label),
        ['index.ts', 'utils'],
      );
      const format = byLabel(await rows(explorer, byLabel(srcChildren, 'utils').node), 'format.ts');
      assert.equal(format.icon, 'lock', 'a locked file record shows a lock');

      const diagram = await walk(explorer, portalId, [
        'Acme Corporation',
        'Engineering',
        'docs',
        'diagrams',
        'overview.png',
      ]);
      assert.equal(diagram.icon, 'file-media');
    });

    it('shows custom component names and plan details in tooltips, fetched on hover only', async () => {
      const provider = (await features()).explorer.provider;
      const portal = await portalRow(explorer, portalId);
      const globex = byLabel(await rows(explorer, portal.node), 'Globex Research');
      const research = byLabel(await rows(explorer, globex.node), 'Research & Development');
      emu.resetStats();
      const groupItem = await provider.resolveTreeItem(
        await provider.getTreeItem(research.node as never),
        research.node as never,
        new vscode.CancellationTokenSource().token,
      );
      assert.match(String(groupItem.tooltip), /Files are called "Documents" here/);
      const accountItem = await provider.resolveTreeItem(
        await provider.getTreeItem(globex.node as never),
        globex.node as never,
        new vscode.CancellationTokenSource().token,
      );
      assert.match(String(accountItem.tooltip), /Storage: .* of 100 GB/);
      assert.match(String(accountItem.tooltip), /Members: \d+ of 500/);
      assert.equal(apiRequests(emu)['GET /v3/accounts/:account/subscription'], 1);
      assert.equal(apiRequests(emu)['GET /v2/accounts/:account/custom'], 1, 'custom names are asked once per account');
    });

    it('costs exactly one request per expand, and nothing to expand again within the cache time', async () => {
      const portal = await portalRow(explorer, portalId);
      explorer.refresh(portal.node);
      emu.resetStats();
      const accounts = await rows(explorer, portal.node);
      assert.deepEqual(apiRequests(emu), { 'GET /v3/userinfo': 1 });

      const acme = byLabel(accounts, 'Acme Corporation');
      emu.resetStats();
      const groups = await rows(explorer, acme.node);
      assert.deepEqual(
        apiRequests(emu),
        { 'GET /v2/accounts/:account/groups': 1 },
        'opening an account costs no per-group request',
      );

      emu.resetStats();
      const files = await rows(explorer, byLabel(groups, 'Marketing').node);
      assert.deepEqual(apiRequests(emu), { 'GET /v2/accounts/:account/groups/:group/files': 1 });

      emu.resetStats();
      await rows(explorer, byLabel(files, 'campaigns').node);
      assert.deepEqual(apiRequests(emu), { 'GET /v2/accounts/:account/groups/:group/files/:file/children': 1 });

      // Collapse and expand again: VS Code asks for the children again; the cache answers.
      emu.resetStats();
      await rows(explorer, portal.node);
      await rows(explorer, acme.node);
      await rows(explorer, byLabel(groups, 'Marketing').node);
      assert.equal(total(apiRequests(emu)), 0);
    });

    it('pages to the end with "Load more…", never duplicating or skipping a group', async () => {
      const token = await passwordToken(emu.url, 'demo', 'demo');
      for (let i = 1; i <= 9; i++) {
        const created = await portalJson(emu.url, token, 'POST', '/v2/accounts/1/groups', {
          name: `paging-${i}`,
          friendlyName: `Paging ${i}`,
        });
        assert.equal(created.status, 200, JSON.stringify(created.body));
      }
      const all = await portalJson<Array<{ id: number; friendlyName: string }>>(
        emu.url,
        token,
        'GET',
        '/v2/accounts/1/groups',
      );
      assert.equal(all.body.length, 13);

      await setPageSize(5);
      const acme = await walk(explorer, portalId, ['Acme Corporation']);
      explorer.refresh(acme.node);
      emu.resetStats();
      const first = await rows(explorer, acme.node);
      if (literal) {
        // Longer than the page asked for: the whole list, so no "Load more…" ever.
        assert.deepEqual(
          first.map((r) => r.label),
          all.body.map((g) => g.friendlyName),
        );
        assert.deepEqual(apiRequests(emu), { 'GET /v2/accounts/:account/groups': 1 });
        await setPageSize(undefined);
        return;
      }
      assert.equal(first.length, 6, '5 groups and "Load more…"');
      const more = first[5];
      assert.equal(more?.contextValue, 'loadMore');
      assert.match(more?.label ?? '', /^Load more groups…$/);
      assert.equal(more?.description, '5 loaded', 'a plain-array list has no total');

      emu.resetStats();
      const loaded = await loadAll(explorer, acme.node, 'portal.explorer.loadMore');
      assert.deepEqual(
        loaded.map((r) => r.label),
        all.body.map((g) => g.friendlyName),
      );
      assert.equal(new Set(loaded.map((r) => r.id)).size, loaded.length);
      assert.deepEqual(apiRequests(emu), { 'GET /v2/accounts/:account/groups': 2 }, 'one request per page');
      await setPageSize(undefined);
    });

    it('turns a failing portal into an error row with a retry, never an empty tree', async () => {
      const acme = await walk(explorer, portalId, ['Acme Corporation']);
      explorer.refresh(acme.node);
      emu.setFaults([{ kind: 'status', status: 500, count: 10, path: '/v2/accounts' }]);
      let list: Awaited<ReturnType<typeof rows>>;
      try {
        list = await rows(explorer, acme.node);
      } finally {
        emu.clearFaults();
      }
      assert.equal(list.length, 1);
      const error = list[0];
      assert.equal(error?.contextValue, 'error');
      assert.ok((error?.label ?? '').length > 10, `the reason is shown: ${error?.label}`);
      assert.equal(error?.description, 'click to retry');
      assert.equal(error?.command?.command, 'portal.explorer.retry');

      await vscode.commands.executeCommand('portal.explorer.retry', error?.node);
      const after = await rows(explorer, acme.node);
      assert.ok(
        after.some((r) => r.label === 'Engineering'),
        after.map((r) => r.label).join(', '),
      );
    });

    it('a failing "Load more…" keeps the rows and offers to retry that page', async () => {
      await setPageSize(5);
      const acme = await walk(explorer, portalId, ['Acme Corporation']);
      explorer.refresh(acme.node);
      const first = await rows(explorer, acme.node);
      const more = first.find((r) => r.contextValue === 'loadMore');
      if (literal) {
        // The whole list came in the first answer: there is no later page to fail.
        assert.equal(more, undefined);
        assert.equal(first.filter((r) => r.contextValue === 'group').length, 13);
        await setPageSize(undefined);
        return;
      }
      emu.setFaults([{ kind: 'status', status: 500, count: 10, path: '/v2/accounts' }]);
      try {
        await vscode.commands.executeCommand('portal.explorer.loadMore', more?.node);
      } finally {
        emu.clearFaults();
      }
      const list = await rows(explorer, acme.node);
      assert.equal(list.length, 6);
      const error = list[5];
      assert.equal(error?.contextValue, 'error');
      assert.match(error?.label ?? '', /^Could not load more: /);
      await vscode.commands.executeCommand('portal.explorer.retry', error?.node);
      const again = await rows(explorer, acme.node);
      assert.equal(again.filter((r) => r.contextValue === 'group').length, 10);
      await setPageSize(undefined);
    });

    it('a revoked application shows "Sign in again…", and the portal as signed out', async () => {
      const api = await portalApi();
      const clientId = api.registry.get(portalId)?.clientId;
      assert.ok(clientId);
      const portal = await portalRow(explorer, portalId);
      explorer.refresh(portal.node);
      emu.revokeApplication(clientId);
      const list = await rows(explorer, portal.node);
      assert.equal(list.length, 1);
      assert.equal(list[0]?.contextValue, 'error.signedOut');
      assert.equal(list[0]?.label, 'Sign in again…');
      assert.deepEqual(list[0]?.command?.arguments, [list[0]?.node], 'the row itself, which names its portal');
      assert.equal((list[0]?.node as { ref: { portalId: string } }).ref.portalId, portalId);
      assert.equal(list[0]?.command?.command, 'portal.signIn');
      // The registry signs the portal out; the Explorer shows it so.
      await waitFor(() => !api.registry.get(portalId)?.client, 'the registry signed the portal out').catch(
        () => undefined,
      );
      const after = await portalRow(explorer, portalId);
      assert.equal(after.contextValue, 'portal.signedOut');
      const children = await rows(explorer, after.node);
      assert.equal(children[0]?.contextValue, 'error.signedOut');
    });
  });
