/** Application commands: details, delete, copy the client id. Rotating the secret is a form (src/commands/forms.ts). */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { uriOf } from '../records/fileSystem';
import { guarded, type CommandEnv } from '../../ui/commands';
import { pickApplication } from '../../targets/pick';
import type { ViewsHandle } from '../views';

export function registerApplicationCommands(registry: PortalRegistry, views: ViewsHandle, env: CommandEnv): vscode.Disposable[] {
  return [
    guarded(env, 'portal.application.details', async (arg?: unknown) => {
      const app = await pickApplication(env.ui(), registry, arg);
      if (!app) return;
      await vscode.window.showTextDocument(uriOf({ kind: 'application', portalId: app.portalId, clientId: app.clientId, name: app.label ?? app.clientId }), { preview: true });
    }),
    guarded(env, 'portal.application.delete', async (arg?: unknown) => {
      const ui = env.ui();
      const app = await pickApplication(ui, registry, arg);
      if (!app) return false;
      const connection = registry.get(app.portalId);
      const isCurrent = connection?.clientId === app.clientId;
      const name = app.label ?? app.clientId;
      const ok = await ui.confirm({
        id: 'application.delete',
        message: `Delete the application "${name}"?`,
        detail: `Its client id and secret stop working at once, everywhere they are used.${isCurrent ? `\n\nThis VS Code window signs in with it: ${connection?.entry.label ?? 'the portal'} will be signed out.` : ''}`,
        action: 'Delete Application',
      });
      if (!ok) return false;
      await registry.client(app.portalId).v3.applications.delete(app.clientId);
      if (isCurrent) await registry.signOut(app.portalId, 'The application this window used was deleted.');
      ui.notify('info', `"${name}" was deleted.`);
      views.refreshApplications(app.portalId);
      return true;
    }),
    guarded(env, 'portal.application.copyClientId', async (arg?: unknown) => {
      const ui = env.ui();
      const app = await pickApplication(ui, registry, arg);
      if (app) await ui.copy(app.clientId);
    }),
  ];
}
