/** Organisation and group commands: details, duplicate, move to trash, copy id and name, refresh a row. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { GroupRef } from '../../shared/refs';
import { accountFor, groupFor } from '../../targets/resolve';
import { registerCommand, type CommandEnv } from '../../ui/commands';
import { answered, type Ui } from '../../ui/ui';
import { PortalTreeNode } from '../../views/node';
import type { RecordsHandle } from '../contracts';
import type { ExplorerProvider } from './tree/explorerProvider';

interface ExplorerCommandDeps {
  readonly registry: PortalRegistry;
  readonly records: RecordsHandle;
  readonly provider: ExplorerProvider;
  /** The account's groups changed on the portal: its list is asked again. */
  readonly groupsChanged: (group: GroupRef) => void;
}

async function duplicate(deps: ExplorerCommandDeps, ui: Ui, g: GroupRef): Promise<boolean> {
  const name = answered(
    await ui.input({
      id: 'group.duplicate.name',
      title: vscode.l10n.t('Duplicate {0}', g.label),
      prompt: vscode.l10n.t('Name of the copy'),
      value: vscode.l10n.t('{0} (copy)', g.label),
      validate: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a name for the copy.')),
    }),
  ).trim();
  await ui.progress(
    { id: 'group.duplicate', title: vscode.l10n.t('Asking the portal to copy {0}…', g.label), where: 'notification' },
    () => deps.registry.client(g.account.portalId).v2.groups.duplicate(g.account.accountId, g.groupId, name),
  );
  // 202 Accepted: the portal makes the copy in its own time.
  ui.notify('info', vscode.l10n.t('The portal accepted the copy "{0}"; it appears once the portal has made it.', name));
  deps.groupsChanged(g);
  return true;
}

async function trash(deps: ExplorerCommandDeps, ui: Ui, g: GroupRef): Promise<boolean> {
  const ok = await ui.confirm({
    id: 'group.trash',
    message: vscode.l10n.t('Move the group "{0}" to the trash?', g.label),
    detail: vscode.l10n.t(
      'Its members lose access to it and its content. A Super administrator can restore it from the trash on the portal.',
    ),
    action: vscode.l10n.t('Move to Trash'),
  });
  if (!ok) return false;
  await deps.registry.client(g.account.portalId).v2.groups.delete(g.account.accountId, g.groupId);
  ui.notify('info', vscode.l10n.t('"{0}" is in the trash.', g.label));
  deps.groupsChanged(g);
  return true;
}

export function registerExplorerCommands(env: CommandEnv, deps: ExplorerCommandDeps): vscode.Disposable[] {
  const { registry, records } = deps;
  return [
    registerCommand(env, 'portal.explorer.refreshNode', (run) =>
      deps.provider.refresh(run.node instanceof PortalTreeNode ? run.node : undefined),
    ),
    registerCommand(env, 'portal.account.details', async (run) =>
      records.open({ kind: 'account', account: await accountFor(run, registry) }),
    ),
    registerCommand(env, 'portal.group.details', async (run) =>
      records.open({ kind: 'group', group: await groupFor(run, registry) }),
    ),
    registerCommand(env, 'portal.group.duplicate', async (run) =>
      duplicate(deps, run.ui, await groupFor(run, registry)),
    ),
    registerCommand(env, 'portal.group.trash', async (run) => trash(deps, run.ui, await groupFor(run, registry))),
    registerCommand(env, 'portal.group.copyId', async (run) =>
      run.ui.copy(String((await groupFor(run, registry)).groupId)),
    ),
    registerCommand(env, 'portal.group.copyName', async (run) => run.ui.copy((await groupFor(run, registry)).label)),
  ];
}
