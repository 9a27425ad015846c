/** Application commands: details, rename, edit the description, delete, copy the client id. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { ApplicationRef } from '../../shared/refs';
import { applicationFor } from '../../targets/resolve';
import { registerCommand, type CommandEnv } from '../../ui/commands';
import { noUndoText, type SettingsWriter } from '../../ui/settingsWriter';
import type { Ui } from '../../ui/ui';
import type { RecordsHandle } from '../contracts';
import { editApplicationField } from './edit';

interface ApplicationDeps {
  readonly registry: PortalRegistry;
  readonly records: RecordsHandle;
  readonly settings: SettingsWriter;
  /** The portal's applications changed: the view asks again. */
  readonly changed: (portalId: string) => void;
}

async function deleteApplication(deps: ApplicationDeps, ui: Ui, app: ApplicationRef): Promise<boolean> {
  const connection = deps.registry.get(app.portalId);
  const isCurrent = connection?.clientId === app.clientId;
  const change = { resource: 'application', action: 'delete', clientId: app.clientId } as const;
  const ok = await ui.confirm({
    id: 'application.delete',
    message: vscode.l10n.t('Delete the application "{0}"?', app.label),
    detail: [
      vscode.l10n.t('Its client id and secret stop working at once, everywhere they are used.'),
      ...(isCurrent
        ? [
            vscode.l10n.t(
              'This VS Code window signs in with it: {0} will be signed out.',
              connection?.entry.label ?? app.portalId,
            ),
          ]
        : []),
      noUndoText(change),
    ].join('\n\n'),
    action: vscode.l10n.t('Delete Application'),
  });
  if (!ok) return false;
  await deps.settings.write(
    { portalId: app.portalId, accountId: 0 },
    change,
    { label: app.label, title: vscode.l10n.t('Delete the application {0}', app.label) },
    'single',
  );
  if (isCurrent)
    await deps.registry.signOut(app.portalId, vscode.l10n.t('The application this window used was deleted.'));
  ui.notify('info', vscode.l10n.t('"{0}" was deleted.', app.label));
  deps.changed(app.portalId);
  return true;
}

export function registerApplicationCommands(env: CommandEnv, deps: ApplicationDeps): vscode.Disposable[] {
  const { registry, records } = deps;
  return [
    registerCommand(env, 'portal.application.details', async (run) =>
      records.open({ kind: 'application', application: await applicationFor(run, registry) }),
    ),
    registerCommand(env, 'portal.application.rename', async (run) =>
      editApplicationField(deps, run.ui, await applicationFor(run, registry), 'name'),
    ),
    registerCommand(env, 'portal.application.editDescription', async (run) =>
      editApplicationField(deps, run.ui, await applicationFor(run, registry), 'description'),
    ),
    registerCommand(env, 'portal.application.delete', async (run) =>
      deleteApplication(deps, run.ui, await applicationFor(run, registry)),
    ),
    registerCommand(env, 'portal.application.copyClientId', async (run) =>
      run.ui.copy((await applicationFor(run, registry)).clientId),
    ),
  ];
}
