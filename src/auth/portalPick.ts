import * as vscode from 'vscode';
import type { PickItem, Ui } from '../ui/ui';
import type { PortalRegistry } from './portalRegistry';

type PortalFilter = 'signed-in' | 'signed-out' | 'any';

/** Asks which portal, when a command runs without a row; with one portal there is nothing to ask. */
export async function pickPortal(
  ui: Ui,
  registry: PortalRegistry,
  placeHolder: string,
  filter: PortalFilter = 'any',
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
  return ui.pick(choices, { id: 'pick.portal', placeHolder });
}
