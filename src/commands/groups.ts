/** Group and account commands: details, duplicate, move to trash, copy id / name. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../auth/portalRegistry';
import { uriOf } from '../records/provider';
import { prompts } from './prompts';
import { guarded } from './run';
import { pickAccount, pickGroup, type GroupRef } from './targets';
import type { ViewsHandle } from './views';
import * as notify from '../shared/notify';
import { plain } from '../shared/plainText';

/** The group's name as the portal has it, when the argument did not carry it (palette, forms). */
async function groupName(registry: PortalRegistry, g: GroupRef): Promise<string> {
  if (g.label) return g.label;
  const group = await registry.client(g.portalId).v2.groups.get(g.accountId, g.groupId);
  return group.friendlyName || group.name;
}

export function registerGroupCommands(registry: PortalRegistry, views: ViewsHandle, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    guarded(log, 'portal.account.details', async (arg?: unknown) => {
      const a = await pickAccount(registry, arg);
      if (!a) return;
      await vscode.window.showTextDocument(uriOf({ kind: 'account', portalId: a.portalId, accountId: a.accountId, name: a.label ?? `account ${a.accountId}` }), { preview: true });
    }),
    guarded(log, 'portal.group.details', async (arg?: unknown) => {
      const g = await pickGroup(registry, arg);
      if (!g) return;
      await vscode.window.showTextDocument(uriOf({ kind: 'group', portalId: g.portalId, accountId: g.accountId, groupId: g.groupId, name: g.label ?? `group ${g.groupId}` }), { preview: true });
    }),
    guarded(log, 'portal.group.duplicate', async (arg?: unknown) => {
      const g = await pickGroup(registry, arg);
      if (!g) return false;
      const original = await groupName(registry, g);
      const name = await prompts().input({
        title: plain(`Duplicate ${original}`),
        prompt: 'Name of the copy',
        value: `${original} (copy)`,
        validateInput: (v) => (v.trim() ? undefined : 'Enter a name for the copy.'),
      });
      if (!name?.trim()) return false;
      await notify.progress({ location: vscode.ProgressLocation.Notification, title: `Asking the portal to copy ${original}…` }, () =>
        registry.client(g.portalId).v2.groups.duplicate(g.accountId, g.groupId, name.trim()),
      );
      // 202 Accepted: the portal makes the copy in its own time.
      void notify.info(`The portal accepted the copy "${name.trim()}"; it appears once the portal has made it.`);
      views.refreshAccount(g.portalId, g.accountId);
      return true;
    }),
    guarded(log, 'portal.group.trash', async (arg?: unknown) => {
      const g = await pickGroup(registry, arg);
      if (!g) return false;
      const name = await groupName(registry, g);
      const ok = await prompts().confirm(
        `Move the group "${name}" to the trash?`,
        'Its members lose access to it and its content. An organisation administrator can restore it from the trash on the portal.',
        'Move to Trash',
      );
      if (!ok) return false;
      await registry.client(g.portalId).v2.groups.delete(g.accountId, g.groupId);
      void notify.info(`"${name}" is in the trash.`);
      views.refreshAccount(g.portalId, g.accountId);
      return true;
    }),
    guarded(log, 'portal.group.copyId', async (arg?: unknown) => {
      const g = await pickGroup(registry, arg);
      if (g) await vscode.env.clipboard.writeText(String(g.groupId));
    }),
    guarded(log, 'portal.group.copyName', async (arg?: unknown) => {
      const g = await pickGroup(registry, arg);
      if (g) await vscode.env.clipboard.writeText(await groupName(registry, g));
    }),
  ];
}
