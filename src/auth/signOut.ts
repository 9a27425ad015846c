import * as vscode from 'vscode';
import type { Ui } from '../ui/ui';
import { noUndoText, type SettingsWriter } from '../ui/settingsWriter';
import { errorMessage } from '../shared/errors';
import type { PortalRegistry } from './portalRegistry';
import { askSignOut } from './questions';

/** What a sign-out needs: the registry, and the engine's way to delete the application (a user's change). */
export interface SignOutDeps {
  readonly registry: PortalRegistry;
  readonly settings: SettingsWriter;
}

/**
 * Sign-out removes the session and its secrets; it offers to delete the application too when this machine created
 * it. Deleting it is the user's change like any other: it goes through the engine (journaled, in the change history),
 * and the question says before anything is sent that it cannot be undone. Without `confirm` (the Accounts menu already
 * asked) it signs out at once. True when signed out.
 */
export async function signOut(deps: SignOutDeps, ui: Ui, portalId: string, confirm: boolean): Promise<boolean> {
  const { registry } = deps;
  const c = registry.get(portalId);
  if (!c) return false;
  const owned = c.client !== undefined && c.applicationCreatedHere && c.clientId !== undefined;
  const change = { resource: 'application', action: 'delete', clientId: c.clientId ?? '' } as const;
  const choice = confirm ? await askSignOut(ui, c.entry.label, owned ? noUndoText(change) : undefined) : 'signOut';
  if (!choice) return false;
  if (choice === 'signOutAndDelete' && owned) {
    try {
      await deps.settings.write(
        { portalId, accountId: 0 },
        change,
        {
          label: vscode.l10n.t('the application this machine signed in to {0} with', c.entry.label),
          title: vscode.l10n.t('Delete the application this machine signed in to {0} with', c.entry.label),
        },
        'single',
      );
    } catch (error) {
      ui.notify(
        'warning',
        vscode.l10n.t('Signed out, but the application could not be deleted on the portal: {0}', errorMessage(error)),
      );
    }
  }
  await registry.signOut(portalId);
  registry.signedOutByUser(c.entry);
  return true;
}
