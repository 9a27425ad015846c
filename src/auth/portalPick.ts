import * as vscode from 'vscode';
import type { PickItem, Ui } from '../ui/ui';
import type { PortalEntry } from './portalEntry';
import type { PortalRegistry } from './portalRegistry';

type PortalFilter = 'signed-in' | 'signed-out' | 'any';

/** Asks which portal, when a command runs without a row; with one portal there is nothing to ask. */
export async function pickPortal(
  ui: Ui,
  registry: PortalRegistry,
  placeHolder: string,
  filter: PortalFilter = 'any',
  title?: string,
): Promise<string | undefined> {
  const choices = registry
    .list()
    .filter((c) => filter === 'any' || (filter === 'signed-in') === Boolean(c.client))
    .map((c): PickItem<string> => ({
      label: c.entry.label,
      description: c.client ? vscode.l10n.t('signed in as {0}', c.username ?? '') : vscode.l10n.t('signed out'),
      detail: c.entry.baseUrl,
      value: c.entry.id,
    }));
  if (choices.length <= 1) return choices[0]?.value;
  return ui.pick(choices, { id: 'pick.portal', ...(title !== undefined ? { title } : {}), placeHolder });
}

/** The last row of the sign-in pick: a portal not listed yet. */
export const ANOTHER_PORTAL = 'another';

/**
 * Which portal to sign in to: the listed ones first (signed-out ones on top, as those are what a sign-in is usually
 * for), "Another portal…" last. Nothing listed: nothing to choose, straight to the address.
 */
export async function pickPortalToSignIn(
  ui: Ui,
  registry: PortalRegistry,
): Promise<PortalEntry | typeof ANOTHER_PORTAL | undefined> {
  const listed = registry.list();
  if (listed.length === 0) return ANOTHER_PORTAL;
  const signedOutFirst = [...listed.filter((c) => !c.client), ...listed.filter((c) => c.client)];
  const items: PickItem<PortalEntry | typeof ANOTHER_PORTAL>[] = [
    ...signedOutFirst.map((c) => ({
      label: c.entry.label,
      icon: c.client ? 'pass' : 'account',
      description: c.client ? vscode.l10n.t('signed in as {0}', c.username ?? '') : vscode.l10n.t('signed out'),
      detail: c.entry.baseUrl,
      value: c.entry,
    })),
    { label: vscode.l10n.t('Another portal…'), icon: 'add', value: ANOTHER_PORTAL },
  ];
  return ui.pick(items, { id: 'signIn.portal', placeHolder: vscode.l10n.t('Sign in to which portal?') });
}
