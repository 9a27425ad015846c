import * as vscode from 'vscode';
import { collect, ownValue, type Group } from '../../api';
import { assignmentsCommands, type AssignmentsCommand, type AssignmentsState, type AssignmentsValues } from './assignments.protocol';
import { FormPanel, type FormEnv, type SaveOutcome } from '../../forms/formPanel';
import { foreignReference, planAssignments } from './assignmentsPlan';
import { clientOf, readOr, type AccountContext } from '../../forms/context';
import { accountLevel, groupLevel } from './levels';
import type { FormKey } from '../../shared/keys';

/** Groups the form loads at most; an account with more shows a notice (the v2 list has no search). */
export const MAX_GROUPS = 1_000;

/** The member's permission in each group: v2's detail keys groups by name, the form works by id. */
function groupLevels(groups: readonly Group[], byName: Record<string, number> | undefined): AssignmentsValues['groups'] {
  return groups.map((g) => ({ id: g.id, permission: groupLevel(ownValue(byName, g.name) ?? ownValue(byName, g.friendlyName)) }));
}

export type MemberContext = AccountContext & { readonly username: string };

export class AssignmentsForm extends FormPanel<AssignmentsState, AssignmentsValues, AssignmentsCommand> {
  private state: AssignmentsState | undefined;


  constructor(env: FormEnv, key: FormKey, private readonly ctx: MemberContext, title: string) {
    super(env, 'assignments', key, title, assignmentsCommands);
    this.start();
  }

  protected async load(): Promise<AssignmentsState> {
    const client = clientOf(this.ctx);
    const { accountId, username } = this.ctx;
    // v3 has the member's settings; only v2's detail has the group → permission map; v2 lists the groups.
    const [account, member, memberV2, listed, [tags]] = await Promise.all([
      client.v3.accounts.get(accountId),
      client.v3.members.get(accountId, username),
      client.v2.members.get(accountId, username),
      // One more than shown, to know whether the list was cut.
      collect(client.v2.groups.iterate(accountId), MAX_GROUPS + 1),
      // Suggestions are a convenience; the form works without them.
      readOr(client.v3.memberTags.list(accountId), [] as string[]),
    ]);
    const groupsTruncated = listed.length > MAX_GROUPS;
    const groups = listed.slice(0, MAX_GROUPS).sort((a, b) => a.friendlyName.localeCompare(b.friendlyName));
    this.state = {
      accountId,
      accountName: account.friendlyName,
      username,
      memberName: member.user.name || username,
      email: member.user.email,
      groups: groups.map((g) => ({ id: g.id, name: g.name, friendlyName: g.friendlyName })),
      groupsTruncated,
      tagSuggestions: [...new Set(tags)].sort((a, b) => a.localeCompare(b)),
      values: {
        accountId,
        username,
        groups: groupLevels(groups, memberV2.groups),
        accountPermission: accountLevel(member.permission ?? memberV2.accountPermission),
        tags: member.tags,
        enabled: member.user.enabled,
        locked: member.user.locked,
        assignToNewGroups: groupLevel(member.assignToNewGroupsPermission),
        notify: false,
      },
    };
    return this.state;
  }

  protected valuesOf(command: AssignmentsCommand): AssignmentsValues | string {
    if (command.type !== 'save') return 'not a save';
    if (!this.state) return 'the form has not loaded yet';
    return foreignReference(this.state, command.values) ?? command.values;
  }

  protected async save(values: AssignmentsValues): Promise<SaveOutcome<AssignmentsState>> {
    const state = this.state;
    if (!state) throw new Error(vscode.l10n.t('The form has not loaded yet.'));
    const plan = planAssignments(state.values, values);
    if (!plan.update) return { message: vscode.l10n.t('Nothing to save: no field was changed.'), state };
    await clientOf(this.ctx).v3.members.update(this.ctx.accountId, this.ctx.username, plan.update);
    this.ctx.afterSave();
    // Read back what the portal now holds, so the form shows the truth rather than what we hoped for.
    // A failed read-back does not undo the save: show the values that were sent.
    const fresh = await this.load().catch(() => ({ ...state, values }));
    return { message: vscode.l10n.t('Saved: {0}.', plan.summary.join(', ')), state: fresh };
  }

  protected fieldOf(apiField: string): string | undefined {
    const group = /^(?:assignGroupsRights|assignGroupsAdmin|removeGroups)\.(\d+)$/.exec(apiField);
    if (group) return `group-${group[1]}`;
    const fields: Record<string, string> = {
      permission: 'accountPermission',
      rights: 'accountPermission',
      tags: 'tags',
      enabled: 'enabled',
      lock: 'locked',
      assignToNewGroupsRights: 'assignToNewGroups',
      assignToNewGroupsAdmin: 'assignToNewGroups',
      assignmentNotification: 'notify',
    };
    return ownValue(fields, apiField.replace(/\[\d+\]$/, ''));
  }
}
