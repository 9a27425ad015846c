/**
 * An application a sign-in registered for this machine and no longer uses is deleted through the write engine, as
 * every portal write is: journaled, and listed in Show Change History… as a change that cannot be undone (the API
 * cannot restore a deleted application). Two sign-in steps need it: a registration whose credentials could not be
 * kept, and a sign-in that replaced an earlier one whose application this extension created.
 *
 * Nobody is asked first, unlike a person's delete (the sign-out's question, the Applications view's confirmation):
 * this is the extension cleaning up after itself. The application's secret was only ever this extension's and is
 * forgotten now, so the application can serve nobody, and left on the portal it would be a live credential for no
 * one's use; a question there could only be answered one way, in the middle of a sign-in that failed or was repeated.
 */
import * as vscode from 'vscode';
import type { SettingsClient } from '../engine/settings/index';
import { plain } from '../shared/plainText';
import type { SettingsWriter } from '../ui/settingsWriter';

/** How long a name the journal keeps may be: the rest is cut, as a person reads only the start. */
const MAX_NAME = 200;

/**
 * Deletes the application `clientId` (called `name` on the portal) with `client`, which holds credentials that may
 * not be the signed-in ones. Throws as the portal's delete would; callers treat it as best effort.
 */
export async function removeUnusedApplication(
  settings: SettingsWriter,
  client: SettingsClient,
  portalId: string,
  application: { readonly clientId: string; readonly name: string },
): Promise<void> {
  const name = plain(application.name, { maxLength: MAX_NAME });
  await settings.write(
    { portalId, accountId: 0 },
    { resource: 'application', action: 'delete', clientId: application.clientId },
    {
      label: vscode.l10n.t('the application {0}', name),
      title: vscode.l10n.t('Remove the sign-in’s unused application {0}', name),
    },
    'single',
    client,
  );
}
