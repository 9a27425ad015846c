// The Members view as the member suites open it: the demo organisation acme shown, at pages of 100 (one page for the
// demo seed's members), and acme's export with group columns opened in an editor.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startDemoPortal, stopDemoPortal, type DemoPortal, type PortalKind } from './demoPortal';
import { features, setPageSize, type Provider } from './tree';
import { withUi, type ScriptedUi } from './ui';
import { tempDir } from '../../support/tempDir';

/** acme as the Members view names it, on the portal `portalId`. */
export const acmeOf = (portalId: string) =>
  ({ kind: 'account', portalId, accountId: 1, label: 'Acme Corporation' }) as const;

/** Shows acme in the Members view at pages of 100 and gives the view's provider; undo with setPageSize(undefined). */
export async function showAcmeMembers(portalId: string): Promise<Provider> {
  await setPageSize(100);
  const t = await features();
  t.members.show(acmeOf(portalId));
  return t.members.provider as unknown as Provider;
}

/** Exports the shown organisation with its group columns to `dir/name` and opens the file in an editor. */
export async function exportWithGroups(
  dir: string,
  name: string,
): Promise<{ doc: vscode.TextDocument; ui: ScriptedUi }> {
  const file = path.join(dir, name);
  const ui = await withUi(
    { 'members.export.file': file, 'members.export.groups': 'Members and their group permissions' },
    async (u) => {
      await vscode.commands.executeCommand('portal.members.exportCsv');
      return u;
    },
  );
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc);
  return { doc, ui };
}

/**
 * Mocha hooks for a suite that plans on acme: a scratch folder, and a demo portal with acme shown in the Members view;
 * after the suite, editors closed, the page size reset, the portal stopped and the folder removed. `use` receives the
 * portal and the folder once they are ready.
 */
export function useAcmeMembers(
  prefix: string,
  kind: PortalKind,
  use: (s: { p: DemoPortal; dir: string }) => void,
): void {
  let s: { p: DemoPortal; dir: string } | undefined;
  before(async () => {
    const dir = tempDir(prefix);
    s = { dir, p: await startDemoPortal(kind) };
    await showAcmeMembers(s.p.portalId);
    use(s);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setPageSize(undefined);
    if (!s) return;
    await stopDemoPortal(s.p);
    fs.rmSync(s.dir, { recursive: true, force: true });
  });
}
