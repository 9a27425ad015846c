/**
 * "Change a member's permission in a group": a quick-pick path for the most common edit, no webview.
 * Member (from the row or picked) → group (with the member's current permission shown) → permission.
 * Sent through the engine as a v3 PATCH naming just that group (journaled with the level before, so Undo puts it back).
 */
import * as vscode from 'vscode';
import { ownValue, type Group } from '../../../api/index';
import { groupPermissionWords } from '../../../shared/permissions';
import { count } from '../../../shared/format';
import type { AccountRef, MemberRef } from '../../../shared/refs';
import { memberFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv } from '../../../ui/commands';
import { answered, type PickItem, type Ui } from '../../../ui/ui';
import { groupLevelChoices, type GroupLevel } from '../forms/assignments/assignments.protocol';
import { bulkEdit, changeOne, selectedMembers, type BulkDeps } from '../bulk/bulk';

/** -1: not known (several members at once). */
const levelWords = (level: number): string =>
  level < 0 ? '' : level ? groupPermissionWords(level) : vscode.l10n.t('not a member');

function askGroup(ui: Ui, title: string, groups: Group[], current: (g: Group) => number): Promise<Group | undefined> {
  const items = [...groups]
    .sort((a, b) => a.friendlyName.localeCompare(b.friendlyName))
    .map((g): PickItem<Group> => ({ label: g.friendlyName, description: levelWords(current(g)), value: g }));
  return ui.pick(items, {
    id: 'permission.group',
    title,
    placeHolder: vscode.l10n.t('In which group?'),
    matchOnDescription: true,
  });
}

function askLevel(ui: Ui, memberName: string, group: Group, was: number): Promise<GroupLevel | undefined> {
  const items = groupLevelChoices().map((l): PickItem<GroupLevel> => ({
    label: l.label,
    detail: l.detail,
    ...(l.value === was ? { description: vscode.l10n.t('(current)') } : {}),
    value: l.value,
  }));
  return ui.pick(items, {
    id: 'permission.level',
    title: vscode.l10n.t('{0} in {1}', memberName, group.friendlyName),
    placeHolder: was < 0 ? vscode.l10n.t('Which permission?') : vscode.l10n.t('Currently {0}', levelWords(was)),
  });
}

async function changePermission(deps: BulkDeps, ui: Ui, m: MemberRef): Promise<boolean> {
  const { portalId, accountId } = m.account;
  const client = deps.registry.client(portalId);
  const [detail, groups] = await Promise.all([
    client.v2.members.get(accountId, m.username),
    client.v2.groups.list(accountId),
  ]);
  const current = (g: { name: string; friendlyName: string }): number =>
    ownValue(detail.groups, g.name) ?? ownValue(detail.groups, g.friendlyName) ?? 0;
  const memberName = detail.user.name || m.username;
  const group = answered(await askGroup(ui, vscode.l10n.t("Change {0}'s permission", memberName), groups, current));
  const was = current(group);
  const level = answered(await askLevel(ui, memberName, group, was));
  if (level === was) {
    ui.notify('info', vscode.l10n.t('{0} already has that permission in {1}.', memberName, group.friendlyName));
    return false;
  }
  const done =
    level === 0
      ? vscode.l10n.t('{0} was removed from {1}.', memberName, group.friendlyName)
      : vscode.l10n.t('{0} is now {1} in {2}.', memberName, groupPermissionWords(level), group.friendlyName);
  const title = vscode.l10n.t('Change {0} in {1}', m.username, group.friendlyName);
  const change = { kind: 'setGroupPermission' as const, groupId: group.id, permission: level };
  const changed = await changeOne(
    deps,
    ui,
    m,
    change,
    { title, done },
    { groupPermissions: new Map([[group.id, was]]) },
  );
  deps.provider.reloadAccount(m.account);
  return changed;
}

/** Several selected members: one group, one level, the same change for all of them as one bulk edit. */
async function changePermissions(
  deps: BulkDeps,
  ui: Ui,
  members: readonly MemberRef[],
  account: AccountRef,
): Promise<unknown> {
  const client = deps.registry.client(account.portalId);
  const groups = await client.v2.groups.list(account.accountId);
  const who = vscode.l10n.t('{0} members', count(members.length));
  const group = answered(await askGroup(ui, vscode.l10n.t('Change the permission of {0}', who), groups, () => -1));
  const level = answered(await askLevel(ui, who, group, -1));
  return bulkEdit(
    deps,
    ui,
    account,
    members,
    { kind: 'setGroupPermission', groupId: group.id, permission: level },
    group.friendlyName,
  );
}

export function registerPermissionCommand(env: CommandEnv, deps: BulkDeps): vscode.Disposable {
  const { registry, provider } = deps;
  return registerCommand(env, 'portal.changeMemberGroupPermission', async (run) => {
    const many = selectedMembers(run);
    if (many?.[0]) return changePermissions(deps, run.ui, many, many[0].account);
    return changePermission(deps, run.ui, await memberFor(run, registry, provider.account));
  });
}
