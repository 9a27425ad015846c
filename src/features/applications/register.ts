/**
 * The Applications feature: the signed-in user's API applications per portal, their commands, and the form that
 * creates one or rotates its secret.
 */
import { applicationDocument } from './applicationDocument';
import * as vscode from 'vscode';
import { formKeys, portalKey } from '../../shared/keys';
import { applicationFor, portalFor } from '../../targets/resolve';
import { registerCommand } from '../../ui/commands';
import type { PortalTreeNode } from '../../views/node';
import { registerViewCommands } from '../../views/viewCommands';
import type { ApplicationsHandle, FeatureDeps, RecordsHandle } from '../contracts';
import { ApplicationForm } from './applicationForm';
import { APPLICATIONS_VIEW, ApplicationsProvider } from './applicationsProvider';
import { registerApplicationCommands } from './commands';

export interface ApplicationsFeature extends ApplicationsHandle {
  readonly provider: ApplicationsProvider;
  readonly view: vscode.TreeView<PortalTreeNode>;
}

export function registerApplications(
  context: vscode.ExtensionContext,
  deps: FeatureDeps & { readonly records: RecordsHandle },
): ApplicationsFeature {
  const { auth, commands, forms, records } = deps;
  const { registry } = auth;
  const { settings } = deps;
  records.renders('application', applicationDocument);
  const provider = new ApplicationsProvider(registry, commands.ui);
  const view = vscode.window.createTreeView(APPLICATIONS_VIEW, { treeDataProvider: provider });
  const changed = (portalId: string) => provider.reload(portalKey('applications', portalId));
  let created = 0;
  context.subscriptions.push(
    provider,
    view,
    ...registerViewCommands(commands, 'applications', provider),
    ...registerApplicationCommands(commands, { registry, records, settings, changed }),
    registerCommand(commands, 'portal.createApplication', async (run) => {
      const portal = await portalFor(run, registry, vscode.l10n.t('Create the application on which portal?'));
      const ctx = { registry, settings, portalId: portal.portalId, afterSave: () => changed(portal.portalId) };
      return forms.show(
        formKeys.newApplication(portal.portalId, ++created),
        (e, key) => new ApplicationForm(e, key, ctx),
      );
    }),
    registerCommand(commands, 'portal.rotateApplicationSecret', async (run) => {
      const app = await applicationFor(run, registry);
      const ctx = {
        registry,
        settings,
        portalId: app.portalId,
        clientId: app.clientId,
        afterSave: () => changed(app.portalId),
      };
      return forms.show(formKeys.application(app.portalId, app.clientId), (e, key) => new ApplicationForm(e, key, ctx));
    }),
  );
  return { provider, view, refresh: () => provider.refresh() };
}
