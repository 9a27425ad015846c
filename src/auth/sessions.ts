import * as vscode from 'vscode';
import type { PickItem, Ui } from '../ui/ui';
import type { PortalEntry } from './portalEntry';
import { signOut, type SignOutDeps } from './signOut';
import type { PortalStatusBar } from './statusBar';

interface SessionActions extends SignOutDeps {
  readonly statusBar: PortalStatusBar;
  signIn(ui: Ui, known?: PortalEntry): Promise<unknown>;
}

/** The sessions list (status bar, "Show sessions"): make a portal active, sign out, sign in again, or add one. */
export async function showSessions(ui: Ui, s: SessionActions): Promise<void> {
  const items: Array<PickItem<() => Promise<unknown>>> = [];
  for (const c of s.registry.list()) {
    const id = c.entry.id;
    if (c.client) {
      items.push({
        icon: 'account',
        label: `${c.username ?? ''} @ ${c.entry.label}`,
        description: c.entry.baseUrl,
        detail: vscode.l10n.t('Make this the active portal'),
        value: async () => s.statusBar.setActive(id),
      });
      items.push({
        icon: 'sign-out',
        label: vscode.l10n.t('Sign out of {0}', c.entry.label),
        value: () => signOut(s, ui, id, true),
      });
    } else {
      items.push({
        icon: 'sign-in',
        label: vscode.l10n.t('Sign in again to {0}', c.entry.label),
        description: c.entry.baseUrl,
        detail: c.signedOutReason ?? '',
        value: () => s.signIn(ui, c.entry),
      });
    }
  }
  items.push({ icon: 'add', label: vscode.l10n.t('Sign in to another portal…'), value: () => s.signIn(ui) });
  const picked = await ui.pick(items, {
    id: 'sessions.pick',
    placeHolder: vscode.l10n.t('Portal sessions'),
    matchOnDescription: true,
  });
  await picked?.();
}
