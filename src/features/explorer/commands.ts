/** Group and account commands: details, duplicate, move to trash, copy id / name. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { uriOf } from '../records/fileSystem';
import { guarded, type CommandEnv } from '../../ui/commands';
import { pickAccount, pickGroup, type GroupRef } from '../../targets/pick';
import type { ViewsHandle } from '../views';
import type { Ui } from '../../ui/ui';

/** The group's name as the portal has it, when the argument did not carry it (palette, forms). */
async function groupName(registry: PortalRegistry, g: GroupRef): Promise<string> {
  if (g.label) return g.label;
  const group = await registry.client(g.portalId).v2.groups.get(g.accountId, g.groupId);
  return group.friendlyName || group.name;
}

async function duplicate(ui: Ui, registry: PortalRegistry, views: ViewsHandle, g: GroupRef): Promise<boolean> {
  const original = await groupName(registry, g);
  const name = (await ui.input({
    id: 'group.duplicate.name',
    title: `Duplicate ${original}`,
    prompt: 'Name of the copy',
    value: `${original} (copy)`,
    validate: (v) => (v.trim() ? undefined : 'Enter a name for the copy.'),
  }))?.trim();
  if (!name) return false;
  await ui.progress({ id: 'group.duplicate', title: `Asking the portal to copy ${original}…`, where: 'notification' }, () =>
    registry.client(g.portalId).v2.groups.duplicate(g.accountId, g.groupId, name),
  );
  // 202 Accepted: the portal makes the copy in its own time.
  ui.notify('info', `The portal accepted the copy "${name}"; it appears once the portal has made it.`);
  views.refreshAccount(g.portalId, g.accountId);
  return true;
}

async function trash(ui: Ui, registry: PortalRegistry, views: ViewsHandle, g: GroupRef): Promise<boolean> {
  const name = await groupName(registry, g);
  const ok = await ui.confirm({
    id: 'group.trash',
    message: `Move the group "${name}" to the trash?`,
    detail: 'Its members lose access to it and its content. An organisation administrator can restore it from the trash on the portal.',
    action: 'Move to Trash',
  });
  if (!ok) return false;
  await registry.client(g.portalId).v2.groups.delete(g.accountId, g.groupId);
  ui.notify('info', `"${name}" is in the trash.`);
  views.refreshAccount(g.portalId, g.accountId);
  return true;
}

export function registerGroupCommands(registry: PortalRegistry, views: ViewsHandle, env: CommandEnv): vscode.Disposable[] {
  const group = async (arg: unknown, then: (ui: Ui, g: GroupRef) => Promise<unknown>): Promise<unknown> => {
    const ui = env.ui();
    const g = await pickGroup(ui, registry, arg);
    return g ? then(ui, g) : false;
  };
  return [
    guarded(env, 'portal.account.details', async (arg?: unknown) => {
      const a = await pickAccount(env.ui(), registry, arg);
      if (!a) return;
      await vscode.window.showTextDocument(uriOf({ kind: 'account', portalId: a.portalId, accountId: a.accountId, name: a.label ?? `account ${a.accountId}` }), { preview: true });
    }),
    guarded(env, 'portal.group.details', (arg?: unknown) => group(arg, async (_ui, g) => {
      await vscode.window.showTextDocument(uriOf({ kind: 'group', portalId: g.portalId, accountId: g.accountId, groupId: g.groupId, name: g.label ?? `group ${g.groupId}` }), { preview: true });
    })),
    guarded(env, 'portal.group.duplicate', (arg?: unknown) => group(arg, (ui, g) => duplicate(ui, registry, views, g))),
    guarded(env, 'portal.group.trash', (arg?: unknown) => group(arg, (ui, g) => trash(ui, registry, views, g))),
    guarded(env, 'portal.group.copyId', (arg?: unknown) => group(arg, (ui, g) => ui.copy(String(g.groupId)))),
    guarded(env, 'portal.group.copyName', (arg?: unknown) => group(arg, async (ui, g) => ui.copy(await groupName(registry, g)))),
  ];
}
