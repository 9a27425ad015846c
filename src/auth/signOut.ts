import * as vscode from 'vscode';
import type { Ui } from '../ui/ui';
import { errorMessage } from '../shared/errors';
import type { PortalRegistry } from './portalRegistry';
import { askSignOut } from './questions';

/**
 * Sign-out removes the session and its secrets; it offers to delete the application too when this machine created
 * it. Without `confirm` (the Accounts menu already asked) it signs out at once. True when signed out.
 */
export async function signOut(registry: PortalRegistry, ui: Ui, portalId: string, confirm: boolean): Promise<boolean> {
  const c = registry.get(portalId);
  if (!c) return false;
  const owned = c.client !== undefined && c.applicationCreatedHere;
  const choice = confirm ? await askSignOut(ui, c.entry.label, owned) : 'signOut';
  if (!choice) return false;
  if (choice === 'signOutAndDelete' && c.client && c.clientId) {
    try {
      await c.client.v3.applications.delete(c.clientId);
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
