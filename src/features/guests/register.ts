/**
 * "Show Guests and Invitations" on an organisation: its guest shares and pending invitations, read-only, in one pick.
 * Both lists come from endpoints only observed in public clients (api/endpoints/observed.ts): a portal that has
 * neither says so once, in one message, and nothing else is asked of it.
 */
import * as vscode from 'vscode';
import { readGuestsAndInvitations, type GuestsAndInvitations, type PortalClient } from '../../api/index';
import { plain } from '../../shared/plainText';
import type { AccountRef } from '../../shared/refs';
import { accountFor } from '../../targets/resolve';
import { registerCommand } from '../../ui/commands';
import type { Ui } from '../../ui/ui';
import type { FeatureDeps } from '../contracts';
import { guestRows, notOfferedWords } from './rows';
import { cancellableProgress } from '../../ui/cancellableProgress';

function read(ui: Ui, client: PortalClient, account: AccountRef): Promise<GuestsAndInvitations> {
  return cancellableProgress(
    ui,
    'guests.read',
    vscode.l10n.t('Reading the guests and invitations of {0}…', plain(account.label)),
    (_progress, signal) => readGuestsAndInvitations(client, account.accountId, signal),
  );
}

async function showGuests(ui: Ui, client: PortalClient, account: AccountRef): Promise<void> {
  const { shares, invitations, groupNames: names } = await read(ui, client, account);
  if (shares.kind === 'not-offered' && invitations.kind === 'not-offered') {
    const why =
      shares.reason === invitations.reason
        ? notOfferedWords(shares.reason)
        : `${notOfferedWords(shares.reason)}; ${notOfferedWords(invitations.reason)}`;
    ui.notify('info', vscode.l10n.t('No guests or invitations to show for {0}: {1}.', plain(account.label), why));
    return;
  }
  // Read-only: a chosen row changes nothing.
  await ui.pick(guestRows(shares, invitations, names, Date.now()), {
    id: 'guests.list',
    title: vscode.l10n.t('Guests and invitations of {0}', plain(account.label)),
    placeHolder: vscode.l10n.t('Type to filter by address, permission or date'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
}

export function registerGuests(context: vscode.ExtensionContext, deps: FeatureDeps): void {
  const { registry } = deps.auth;
  context.subscriptions.push(
    registerCommand(deps.commands, 'portal.account.showGuests', async (run) => {
      const account = await accountFor(run, registry);
      await showGuests(run.ui, registry.client(account.portalId), account);
    }),
  );
}
