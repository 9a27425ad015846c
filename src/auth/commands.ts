/** The sign-in, sign-out and session commands. A portal row names its portal; from the palette they ask. */
import * as vscode from 'vscode';
import { refPortalId } from '../shared/refs';
import type { Run } from '../ui/commands';
import { pickPortal } from './portalPick';
import type { PortalEntry } from './portalEntry';
import type { PortalRegistry } from './portalRegistry';
import { signOut, type SignOutDeps } from './signOut';

/** The portal a row names, when it is still listed. */
export function knownEntry(registry: PortalRegistry, run: Run): PortalEntry | undefined {
  return run.target ? registry.get(refPortalId(run.target))?.entry : undefined;
}

async function portalOf(
  registry: PortalRegistry,
  run: Run,
  placeHolder: string,
  filter: 'signed-in' | 'any',
): Promise<string | undefined> {
  return knownEntry(registry, run)?.id ?? (await pickPortal(run.ui, registry, placeHolder, filter));
}

export async function signOutCommand(deps: SignOutDeps, run: Run): Promise<boolean> {
  const id = await portalOf(deps.registry, run, vscode.l10n.t('Sign out of which portal?'), 'signed-in');
  return id ? signOut(deps, run.ui, id, true) : false;
}

/** Forgets a portal on this machine: its entry and its stored credentials. Nothing changes on the portal. */
export async function removePortal(registry: PortalRegistry, run: Run): Promise<boolean> {
  const id = await portalOf(registry, run, vscode.l10n.t('Remove which portal from this list?'), 'any');
  const c = id ? registry.get(id) : undefined;
  if (!c) return false;
  const ok = await run.ui.confirm({
    id: 'portal.remove',
    message: vscode.l10n.t('Remove {0} from the Portal views?', c.entry.label),
    detail: vscode.l10n.t(
      'Its entry and any stored credentials are removed from this machine. Nothing changes on the portal.',
    ),
    action: vscode.l10n.t('Remove'),
  });
  if (ok) await registry.remove(c.entry.id);
  return ok;
}
