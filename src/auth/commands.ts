import * as vscode from 'vscode';
import type { PortalRegistry } from './portalRegistry';
import { signInWithClientCredentials, signInWithPassword, type SignInContext } from './signIn';
import { signOut } from './signOut';
import type { PortalStatusBar } from './statusBar';
import type { PickItem, Ui } from '../ui/ui';

/** A command argument that names a portal: a tree node with a portalId, or the id itself. */
export function portalIdFromArg(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { portalId?: unknown }).portalId === 'string') {
    return (arg as { portalId: string }).portalId;
  }
  return undefined;
}

/** Asks which portal, when a command runs from the palette without a tree selection. */
export async function pickPortal(ui: Ui, registry: PortalRegistry, placeHolder: string, filter: 'signed-in' | 'signed-out' | 'any' = 'any'): Promise<string | undefined> {
  const choices = registry
    .list()
    .filter((c) => filter === 'any' || (filter === 'signed-in') === Boolean(c.client))
    .map((c): PickItem<string> => ({ label: c.entry.label, description: c.client ? `signed in as ${c.username ?? ''}` : 'signed out', detail: c.entry.baseUrl, value: c.entry.id }));
  if (choices.length === 0) return undefined;
  if (choices.length === 1) return choices[0]?.value;
  return ui.pick(choices, { id: 'pick.portal', placeHolder });
}

/** The sessions list: make a portal active, sign out, sign in again, or sign in to another one. */
export async function showSessions(ctx: SignInContext, ui: Ui, statusBar: PortalStatusBar): Promise<void> {
  const items: Array<PickItem<() => Promise<unknown>>> = [];
  for (const c of ctx.registry.list()) {
    const id = c.entry.id;
    if (c.client) {
      items.push({ icon: 'account', label: `${c.username ?? ''} @ ${c.entry.label}`, description: c.entry.baseUrl, detail: 'Make this the active portal', value: async () => statusBar.setActive(id) });
      items.push({ icon: 'sign-out', label: `Sign out of ${c.entry.label}`, value: () => signOut(ctx.registry, ui, id, true) });
    } else {
      items.push({ icon: 'sign-in', label: `Sign in again to ${c.entry.label}`, description: c.entry.baseUrl, detail: c.signedOutReason ?? '', value: () => signInWithPassword(ctx, ui, c.entry) });
    }
  }
  items.push({ icon: 'add', label: 'Sign in to another portal…', value: () => signInWithPassword(ctx, ui) });
  const picked = await ui.pick(items, { id: 'sessions.pick', placeHolder: 'Portal sessions', matchOnDescription: true });
  await picked?.();
}

export function registerAuthCommands(ctx: SignInContext, statusBar: PortalStatusBar, ui: () => Ui): vscode.Disposable[] {
  const { registry } = ctx;
  const knownEntry = (arg: unknown) => {
    const id = portalIdFromArg(arg);
    return id ? registry.get(id)?.entry : undefined;
  };
  return [
    vscode.commands.registerCommand('portal.signIn', (arg?: unknown) => signInWithPassword(ctx, ui(), knownEntry(arg))),
    vscode.commands.registerCommand('portal.signInWithClientCredentials', (arg?: unknown) => signInWithClientCredentials(ctx, ui(), knownEntry(arg))),
    vscode.commands.registerCommand('portal.signOut', async (arg?: unknown) => {
      const id = portalIdFromArg(arg) ?? (await pickPortal(ui(), registry, 'Sign out of which portal?', 'signed-in'));
      if (id) await signOut(registry, ui(), id, true);
    }),
    vscode.commands.registerCommand('portal.removePortal', async (arg?: unknown) => {
      const id = portalIdFromArg(arg) ?? (await pickPortal(ui(), registry, 'Remove which portal from this list?'));
      const c = id ? registry.get(id) : undefined;
      if (!c) return;
      const ok = await ui().confirm({
        id: 'portal.remove',
        message: `Remove ${c.entry.label} from the Portal views?`,
        detail: 'Its entry and any stored credentials are removed from this machine. Nothing changes on the portal.',
        action: 'Remove',
      });
      if (ok) await registry.remove(c.entry.id);
    }),
    vscode.commands.registerCommand('portal.showSessions', () => showSessions(ctx, ui(), statusBar)),
  ];
}
