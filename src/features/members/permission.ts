import * as vscode from 'vscode';
import { groupPermissionLabel, ownValue, type Group } from '../../api';
import { refreshViews } from '../refresh';
import { groupUpdate } from './assignmentsPlan';
import type { GroupLevel } from './assignments.protocol';
import { guarded, type CommandEnv } from '../../ui/commands';
import { groupFromArg, pickMember, type MemberRef } from '../../targets/pick';
import type { FormsDeps } from '../../forms/formHost';
import type { PickItem, Ui } from '../../ui/ui';

const LEVELS: ReadonlyArray<{ level: GroupLevel; label: string; detail: string }> = [
  { level: 1, label: 'Basic', detail: 'Read only' },
  { level: 4, label: 'Standard', detail: 'Read and write' },
  { level: 16, label: 'Group administrator', detail: 'Manages the group and its members' },
  { level: 0, label: 'None', detail: 'Remove the member from the group' },
];

const levelWords = (level: number): string => (level ? groupPermissionLabel(level) : 'not a member');

function askGroup(ui: Ui, memberName: string, groups: Group[], current: (g: Group) => number): Promise<Group | undefined> {
  const items = groups
    .sort((a, b) => a.friendlyName.localeCompare(b.friendlyName))
    .map((g): PickItem<Group> => ({ label: g.friendlyName, description: levelWords(current(g)), value: g }));
  return ui.pick(items, { id: 'permission.group', title: `Change ${memberName}'s permission`, placeHolder: 'In which group?', matchOnDescription: true });
}

function askLevel(ui: Ui, memberName: string, group: Group, was: number): Promise<GroupLevel | undefined> {
  const items = LEVELS.map((l): PickItem<GroupLevel> => ({ label: l.label, detail: l.detail, ...(l.level === was ? { description: '(current)' } : {}), value: l.level }));
  return ui.pick(items, { id: 'permission.level', title: `${memberName} in ${group.friendlyName}`, placeHolder: `Currently ${levelWords(was)}` });
}

/** A member named by a caller (a link, a keybinding, another extension) is a request, not a choice. */
function confirmNamed(ui: Ui, memberName: string, group: Group, level: GroupLevel): Promise<boolean> {
  const change = level === 0 ? `Remove ${memberName} from ${group.friendlyName}` : `Make ${memberName} ${groupPermissionLabel(level)} in ${group.friendlyName}`;
  return ui.confirm({ id: 'member.named', message: `${change}?`, detail: 'This change was asked for by a link, a keybinding or another extension. Nothing changes unless you confirm.', action: 'Change Permission' });
}

/**
 * "Change a member's permission in a group": a quick-pick path for the most common edit, no webview.
 * Member (from the node or picked) → group (with the member's current permission shown) → permission.
 * Sent as a v3 PATCH naming just that group, for the reason given in assignmentsPlan.ts.
 */
export async function changeMemberGroupPermission(deps: FormsDeps, ui: Ui, t: MemberRef, groupId: number | undefined): Promise<boolean> {
  const client = deps.registry.client(t.portalId);
  const [detail, groups] = await Promise.all([client.v2.members.get(t.accountId, t.username), client.v2.groups.list(t.accountId)]);
  const current = (g: { name: string; friendlyName: string }): number => ownValue(detail.groups, g.name) ?? ownValue(detail.groups, g.friendlyName) ?? 0;
  const memberName = detail.user.name || t.username;
  // A member shown under a group (if a view offers that) brings the group along.
  const group = groupId !== undefined ? groups.find((g) => g.id === groupId) : await askGroup(ui, memberName, groups, current);
  if (!group) return false;
  const was = current(group);
  const level = await askLevel(ui, memberName, group, was);
  if (level === undefined) return false;
  if (level === was) {
    ui.notify('info', `${memberName} already has that permission in ${group.friendlyName}.`);
    return false;
  }
  if (!t.chosenHere && !(await confirmNamed(ui, memberName, group, level))) return false;
  await client.v3.members.update(t.accountId, t.username, groupUpdate([{ id: group.id, to: level }]));
  refreshViews({ kind: 'member', portalId: t.portalId, accountId: t.accountId, username: t.username });
  ui.notify('info', level === 0 ? `${memberName} was removed from ${group.friendlyName}.` : `${memberName} is now ${groupPermissionLabel(level)} in ${group.friendlyName}.`);
  return true;
}

export function registerMemberPermissionCommand(deps: FormsDeps, env: CommandEnv): vscode.Disposable {
  return guarded(env, 'portal.changeMemberGroupPermission', async (arg?: unknown) => {
    const ui = env.ui();
    const member = await pickMember(ui, deps.registry, arg, undefined);
    return member ? changeMemberGroupPermission(deps, ui, member, groupFromArg(arg)?.groupId) : false;
  });
}
