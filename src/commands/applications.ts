/** Application commands: details, rotate secret, delete. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../auth/portalRegistry';
import { uriOf } from '../records/provider';
import { prompts } from './prompts';
import { guarded } from './run';
import { pickApplication } from './targets';
import type { ViewsHandle } from './views';

export function registerApplicationCommands(registry: PortalRegistry, views: ViewsHandle, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    guarded(log, 'portal.application.details', async (arg?: unknown) => {
      const app = await pickApplication(registry, arg);
      if (!app) return;
      await vscode.window.showTextDocument(uriOf({ kind: 'application', portalId: app.portalId, clientId: app.clientId, name: app.label ?? app.clientId }), { preview: true });
    }),
    guarded(log, 'portal.application.rotateSecret', async (arg?: unknown) => {
      const app = await pickApplication(registry, arg);
      if (!app) return false;
      const connection = registry.get(app.portalId);
      const isCurrent = connection?.clientId === app.clientId;
      const name = app.label ?? app.clientId;
      const ok = await prompts().confirm(
        `Rotate the client secret of "${name}"?`,
        isCurrent
          ? 'This VS Code window signs in with this application. Its current secret stops working at once; you can keep the new one for this window in the next step.'
          : 'Its current secret stops working at once. Whatever uses this application must be given the new secret.',
        'Rotate Secret',
      );
      if (!ok) return false;
      const client = registry.client(app.portalId);
      const rotated = await client.v3.applications.update(app.clientId, { rotateSecret: true });
      const secret = rotated.clientSecret;
      if (!secret) throw new Error('The portal rotated the secret but did not return the new one. Rotate again to get a secret you can use.');
      const choice = await prompts().showSecret(name, secret, isCurrent && connection !== undefined);
      if (choice === 'copy') {
        await vscode.env.clipboard.writeText(secret);
        void vscode.window.showInformationMessage('The new secret is on the clipboard.');
      }
      if (isCurrent && connection) {
        if (choice === 'use-here') {
          // The registry replaces the session's client and SecretStorage entry with the new secret.
          await registry.add(connection.entry, {
            clientId: app.clientId,
            clientSecret: secret,
            username: connection.username ?? '',
            applicationCreatedHere: connection.applicationCreatedHere,
          });
          void vscode.window.showInformationMessage(`${connection.entry.label} now signs in with the new secret.`);
        } else {
          // The old secret no longer works: say so now rather than at the next token renewal.
          await registry.signOut(app.portalId, 'The client secret of this window\'s application was rotated.');
        }
      }
      views.refreshApplications(app.portalId);
      return true;
    }),
    guarded(log, 'portal.application.delete', async (arg?: unknown) => {
      const app = await pickApplication(registry, arg);
      if (!app) return false;
      const connection = registry.get(app.portalId);
      const isCurrent = connection?.clientId === app.clientId;
      const name = app.label ?? app.clientId;
      const ok = await prompts().confirm(
        `Delete the application "${name}"?`,
        `Its client id and secret stop working at once, everywhere they are used.${isCurrent ? `\n\nThis VS Code window signs in with it: ${connection?.entry.label ?? 'the portal'} will be signed out.` : ''}`,
        'Delete Application',
      );
      if (!ok) return false;
      await registry.client(app.portalId).v3.applications.delete(app.clientId);
      if (isCurrent) await registry.signOut(app.portalId, 'The application this window used was deleted.');
      void vscode.window.showInformationMessage(`"${name}" was deleted.`);
      views.refreshApplications(app.portalId);
      return true;
    }),
    guarded(log, 'portal.application.copyClientId', async (arg?: unknown) => {
      const app = await pickApplication(registry, arg);
      if (app) await vscode.env.clipboard.writeText(app.clientId);
    }),
  ];
}
