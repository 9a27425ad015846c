/** Application commands: details, delete, copy the client id. Rotating the secret is a form (src/commands/forms.ts). */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../auth/portalRegistry';
import { uriOf } from '../records/provider';
import { prompts } from './prompts';
import { guarded } from './run';
import { pickApplication } from './targets';
import type { ViewsHandle } from './views';
import * as notify from '../shared/notify';

export function registerApplicationCommands(registry: PortalRegistry, views: ViewsHandle, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    guarded(log, 'portal.application.details', async (arg?: unknown) => {
      const app = await pickApplication(registry, arg);
      if (!app) return;
      await vscode.window.showTextDocument(uriOf({ kind: 'application', portalId: app.portalId, clientId: app.clientId, name: app.label ?? app.clientId }), { preview: true });
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
      void notify.info(`"${name}" was deleted.`);
      views.refreshApplications(app.portalId);
      return true;
    }),
    guarded(log, 'portal.application.copyClientId', async (arg?: unknown) => {
      const app = await pickApplication(registry, arg);
      if (app) await vscode.env.clipboard.writeText(app.clientId);
    }),
  ];
}
