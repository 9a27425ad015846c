import * as vscode from 'vscode';
import type { PortalRegistry } from '../auth/portalRegistry';
import { signInWithClientCredentials, signInWithPassword, signOut, type SignInContext } from '../auth/signIn';
import type { PortalStatusBar } from '../auth/statusBar';
import * as notify from '../shared/notify';
import { plain } from '../shared/plainText';

/** A command argument that names a portal: a tree node with a portalId, or the id itself. */
export function portalIdFromArg(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { portalId?: unknown }).portalId === 'string') {
    return (arg as { portalId: string }).portalId;
  }
  return undefined;
}

/** Asks which portal, when a command runs from the palette without a tree selection. */
export async function pickPortal(registry: PortalRegistry, placeHolder: string, filter: 'signed-in' | 'signed-out' | 'any' = 'any'): Promise<string | undefined> {
  const choices = registry
    .list()
    .filter((c) => filter === 'any' || (filter === 'signed-in') === Boolean(c.client))
    .map((c) => ({ label: plain(c.entry.label), description: c.client ? `signed in as ${plain(c.username)}` : 'signed out', detail: plain(c.entry.baseUrl), id: c.entry.id }));
  if (choices.length === 0) return undefined;
  if (choices.length === 1) return choices[0]?.id;
  return (await vscode.window.showQuickPick(choices, { placeHolder }))?.id;
}

export function registerAuthCommands(ctx: SignInContext, statusBar: PortalStatusBar): vscode.Disposable[] {
  const { registry } = ctx;
  const knownEntry = (arg: unknown) => {
    const id = portalIdFromArg(arg);
    return id ? registry.get(id)?.entry : undefined;
  };
  return [
    vscode.commands.registerCommand('portal.signIn', (arg?: unknown) => signInWithPassword(ctx, knownEntry(arg))),
    vscode.commands.registerCommand('portal.signInWithClientCredentials', (arg?: unknown) => signInWithClientCredentials(ctx, knownEntry(arg))),
    vscode.commands.registerCommand('portal.signOut', async (arg?: unknown) => {
      const id = portalIdFromArg(arg) ?? (await pickPortal(registry, 'Sign out of which portal?', 'signed-in'));
      if (id) await signOut(ctx, id, true);
    }),
    vscode.commands.registerCommand('portal.removePortal', async (arg?: unknown) => {
      const id = portalIdFromArg(arg) ?? (await pickPortal(registry, 'Remove which portal from this list?'));
      const c = id ? registry.get(id) : undefined;
      if (!c) return;
      const ok = await notify.ask(
        `Remove ${c.entry.label} from the Portal views?`,
        'Its entry and any stored credentials are removed from this machine. Nothing changes on the portal.',
        'Remove',
      );
      if (ok === 'Remove') await registry.remove(c.entry.id);
    }),
    vscode.commands.registerCommand('portal.showSessions', async () => {
      type Item = vscode.QuickPickItem & { run: () => Thenable<unknown> | Promise<unknown> };
      const items: Item[] = [];
      for (const c of registry.list()) {
        const id = c.entry.id;
        if (c.client) {
          items.push({ label: `$(account) ${plain(c.username)} @ ${plain(c.entry.label)}`, description: plain(c.entry.baseUrl), detail: 'Make this the active portal', run: async () => statusBar.setActive(id) });
          items.push({ label: `$(sign-out) Sign out of ${plain(c.entry.label)}`, run: () => signOut(ctx, id, true) });
        } else {
          items.push({ label: `$(sign-in) Sign in again to ${plain(c.entry.label)}`, description: plain(c.entry.baseUrl), detail: plain(c.signedOutReason), run: () => signInWithPassword(ctx, c.entry) });
        }
      }
      items.push({ label: '$(add) Sign in to another portal…', run: () => signInWithPassword(ctx) });
      const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Portal sessions', matchOnDescription: true });
      await picked?.run();
    }),
  ];
}
