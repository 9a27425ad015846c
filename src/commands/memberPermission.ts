import * as vscode from 'vscode';
import { groupPermissionLabel, ownValue } from '../api';
import { refreshViews } from '../webview/refresh';
import { groupUpdate } from '../webview/forms/assignmentsPlan';
import type { GroupLevel } from '../webview/protocol/assignments';
import { prompts } from './prompts';
import { guarded } from './run';
import { groupFromArg, pickMember } from './targets';
import type { FormsDeps } from '../webview/index';
import * as notify from '../shared/notify';
import { plain } from '../shared/plainText';

const LEVELS: ReadonlyArray<{ level: GroupLevel; label: string; detail: string }> = [
  { level: 1, label: 'Basic', detail: 'Read only' },
  { level: 4, label: 'Standard', detail: 'Read and write' },
  { level: 16, label: 'Group administrator', detail: 'Manages the group and its members' },
  { level: 0, label: 'None', detail: 'Remove the member from the group' },
];

/** Answers given by a caller instead of quick picks (tests, or another command that already knows). */
interface Preset {
  groupId?: number;
  permission?: GroupLevel;
}

function presetOf(arg: unknown): Preset {
  // A tree context menu passes (node, selectedNodes[]): an array is not a preset.
  if (typeof arg !== 'object' || arg === null || Array.isArray(arg)) return {};
  const o = arg as Record<string, unknown>;
  const out: Preset = {};
  if (typeof o.groupId === 'number' && Number.isSafeInteger(o.groupId) && o.groupId > 0) out.groupId = o.groupId;
  const level = LEVELS.find((l) => l.level === o.permission);
  if (level) out.permission = level.level;
  return out;
}

/**
 * "Change a member's permission in a group": a quick-pick path for the most common edit, no webview.
 * Member (from the node or picked) → group (with the member's current permission shown) → permission.
 * Sent as a v3 PATCH naming just that group, for the reason given in assignmentsPlan.ts.
 */
export async function changeMemberGroupPermission(deps: FormsDeps, arg: unknown, presetArg: unknown): Promise<boolean> {
  const preset = presetOf(presetArg);
  const t = await pickMember(deps.registry, arg, undefined);
  if (!t) return false;
  const client = deps.registry.client(t.portalId);
  const [detail, groups] = await Promise.all([client.v2.members.get(t.accountId, t.username), client.v2.groups.list(t.accountId)]);
  const current = (g: { name: string; friendlyName: string }): number => ownValue(detail.groups, g.name) ?? ownValue(detail.groups, g.friendlyName) ?? 0;
  const memberName = detail.user.name || t.username;

  // A member shown under a group (if a view offers that) brings the group along.
  let groupId = preset.groupId ?? groupFromArg(arg)?.groupId;
  if (groupId === undefined) {
    const picked = await vscode.window.showQuickPick(
      groups
        .sort((a, b) => a.friendlyName.localeCompare(b.friendlyName))
        .map((g) => ({ label: plain(g.friendlyName), description: current(g) ? groupPermissionLabel(current(g)) : 'not a member', id: g.id })),
      { title: plain(`Change ${memberName}'s permission`), placeHolder: 'In which group?', matchOnDescription: true },
    );
    groupId = picked?.id;
  }
  const group = groups.find((g) => g.id === groupId);
  if (!group) {
    if (groupId !== undefined) void notify.error(`Group ${groupId} is not in this account.`);
    return false;
  }
  const was = current(group);
  let level = preset.permission;
  if (level === undefined) {
    const picked = await vscode.window.showQuickPick(
      LEVELS.map((l) => ({ label: l.label, detail: l.detail, description: l.level === was ? '(current)' : undefined, level: l.level })),
      { title: plain(`${memberName} in ${group.friendlyName}`), placeHolder: `Currently ${was ? groupPermissionLabel(was) : 'not a member'}` },
    );
    level = picked?.level;
  }
  if (level === undefined) return false;
  if (level === was) {
    void notify.info(`${memberName} already has that permission in ${group.friendlyName}.`);
    return false;
  }
  // A permission or member named by a caller (a link, a keybinding, another extension) is a request, not a choice.
  if (preset.permission !== undefined || !t.chosenHere) {
    const change = level === 0 ? `Remove ${memberName} from ${group.friendlyName}` : `Make ${memberName} ${groupPermissionLabel(level)} in ${group.friendlyName}`;
    const ok = await prompts().confirm(`${change}?`, 'This change was asked for by a link, a keybinding or another extension. Nothing changes unless you confirm.', 'Change Permission');
    if (!ok) return false;
  }
  await client.v3.members.update(t.accountId, t.username, groupUpdate([{ id: group.id, to: level }]));
  refreshViews({ kind: 'member', portalId: t.portalId, accountId: t.accountId, username: t.username });
  void notify.info(
    level === 0 ? `${memberName} was removed from ${group.friendlyName}.` : `${memberName} is now ${groupPermissionLabel(level)} in ${group.friendlyName}.`,
  );
  return true;
}

export function registerMemberPermissionCommand(deps: FormsDeps): vscode.Disposable {
  return guarded(deps.log, 'portal.changeMemberGroupPermission', (arg?: unknown, preset?: unknown) => changeMemberGroupPermission(deps, arg, preset));
}
