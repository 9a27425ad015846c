import * as vscode from 'vscode';
import { collect, ownValue, type Group, type Member, type MemberUpdate, type MemberV2 } from '../../../../api/index';
import {
  assignmentsCommands,
  UNKNOWN_LEVEL,
  type AssignmentsCommand,
  type AssignmentsState,
  type AssignmentsValues,
} from './assignments.protocol';
import { FormPanel, type FormEnv, type SaveOutcome } from '../../../../forms/formPanel';
import { assignmentsEdit, foreignReference, planAssignments } from './assignmentsPlan';
import { clientOf, Gaps } from '../../../../forms/context';
import { offerFormUndo, saveEdit, type WriteContext } from '../writeContext';
import { checkApplied, type SentField } from '../../../../forms/inputError';
import { accountLevel, groupLevel } from '../levels';
import type { FormKey } from '../../../../shared/keys';

/** Groups the form loads at most; an account with more shows a notice (the v2 list has no search). */
const MAX_GROUPS = 1_000;

/**
 * The member's permission in each group: v2's detail keys groups by name, the form works by id. Without the v2
 * read every group is unknown.
 */
function groupLevels(groups: readonly Group[], memberV2: MemberV2 | undefined): AssignmentsValues['groups'] {
  if (!memberV2) return groups.map((g) => ({ id: g.id, permission: UNKNOWN_LEVEL }));
  const byName = memberV2.groups;
  return groups.map((g) => ({
    id: g.id,
    permission: groupLevel(ownValue(byName, g.name) ?? ownValue(byName, g.friendlyName)),
  }));
}

/** The words for each field of the form, as a not-applied message names them. */
const fieldWords = () => ({
  accountPermission: vscode.l10n.t('organisation permission'),
  tags: vscode.l10n.t('tags'),
  enabled: vscode.l10n.t('enabled'),
  locked: vscode.l10n.t('locked'),
  assignToNewGroups: vscode.l10n.t('permission in new groups'),
});

/**
 * What the save sent, next to what the portal holds now: the PATCH's answer for the member's own fields (it carries
 * no groups), the read after the save for group permissions, when the portal shows them.
 */
function sentFields(
  sent: AssignmentsValues,
  update: MemberUpdate,
  baseline: AssignmentsValues,
  answer: Member,
  fresh: AssignmentsState | undefined,
): SentField[] {
  const words = fieldWords();
  const out: SentField[] = [];
  const add = (field: keyof ReturnType<typeof fieldWords>, asked: boolean, value: unknown, now: unknown) => {
    if (asked) out.push({ field, label: words[field], sent: value, now });
  };
  add('accountPermission', update.permission !== undefined, sent.accountPermission, accountLevel(answer.permission));
  add('tags', update.tags !== undefined, [...(update.tags ?? [])].sort(), [...answer.tags].sort());
  add('enabled', update.enabled !== undefined, sent.enabled, answer.user.enabled);
  add('locked', update.lock !== undefined, sent.locked, answer.user.locked);
  const newGroups = update.assignToNewGroupsRights !== undefined || update.assignToNewGroupsAdmin !== undefined;
  add('assignToNewGroups', newGroups, sent.assignToNewGroups, groupLevel(answer.assignToNewGroupsPermission));
  if (!fresh?.groupsKnown) return out;
  const before = new Map(baseline.groups.map((g) => [g.id, g.permission]));
  const held = new Map(fresh.values.groups.map((g) => [g.id, g.permission]));
  for (const g of sent.groups) {
    if (g.permission === UNKNOWN_LEVEL || g.permission === before.get(g.id)) continue;
    const name = fresh.groups.find((x) => x.id === g.id)?.friendlyName ?? String(g.id);
    out.push({
      field: `group-${g.id}`,
      label: vscode.l10n.t('the permission in {0}', name),
      sent: g.permission,
      now: held.get(g.id) ?? 0,
    });
  }
  return out;
}

type MemberContext = WriteContext & { readonly username: string };

export class AssignmentsForm extends FormPanel<AssignmentsState, AssignmentsValues, AssignmentsCommand> {
  private state: AssignmentsState | undefined;

  constructor(
    env: FormEnv,
    key: FormKey,
    private readonly ctx: MemberContext,
    title: string,
  ) {
    super(env, 'assignments', key, title, assignmentsCommands);
    this.start();
  }

  protected async load(): Promise<AssignmentsState> {
    const client = clientOf(this.ctx);
    const { accountId, username } = this.ctx;
    const gaps = new Gaps();
    // v3 has the member's settings; only v2's detail has the group → permission map; v2 lists the groups.
    const [accountName, member, memberV2, listed, tags] = await Promise.all([
      gaps.read(
        client.v3.accounts.get(accountId).then((a) => a.friendlyName || a.name),
        '',
        {
          read: vscode.l10n.t('the organisation read'),
          lost: vscode.l10n.t("the organisation's name is not shown"),
        },
      ),
      client.v3.members.get(accountId, username),
      gaps.read(
        client.v2.members.get(accountId, username).then((m): MemberV2 | undefined => m),
        undefined,
        {
          read: vscode.l10n.t("the member's v2 read"),
          lost: vscode.l10n.t("the member's permission in each group is unknown; only the groups you change are sent"),
        },
      ),
      // One more than shown, to know whether the list was cut.
      collect(client.v2.groups.iterate(accountId), MAX_GROUPS + 1),
      // Suggestions are a convenience; the form works without them.
      gaps.read(client.v3.memberTags.list(accountId), [] as string[], {
        read: vscode.l10n.t('the tag list'),
        lost: vscode.l10n.t("the organisation's tags are not suggested"),
      }),
    ]);
    const groupsTruncated = listed.length > MAX_GROUPS;
    const groups = listed.slice(0, MAX_GROUPS).sort((a, b) => a.friendlyName.localeCompare(b.friendlyName));
    this.state = {
      accountId,
      accountName,
      username,
      memberName: member.user.name || username,
      email: member.user.email,
      groups: groups.map((g) => ({ id: g.id, name: g.name, friendlyName: g.friendlyName })),
      groupsTruncated,
      groupsKnown: memberV2 !== undefined,
      tagSuggestions: [...new Set(tags)].sort((a, b) => a.localeCompare(b)),
      values: {
        accountId,
        username,
        groups: groupLevels(groups, memberV2),
        accountPermission: accountLevel(member.permission ?? memberV2?.accountPermission),
        tags: member.tags,
        enabled: member.user.enabled,
        locked: member.user.locked,
        assignToNewGroups: groupLevel(member.assignToNewGroupsPermission),
        notify: false,
      },
      notices: gaps.notices,
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
    const title = vscode.l10n.t('Edit the assignments of {0}', state.memberName);
    const done = await saveEdit(this.ctx, title, assignmentsEdit(this.ctx.username, state.values, plan.update));
    const answer = done.answer ?? (await clientOf(this.ctx).v3.members.get(this.ctx.accountId, this.ctx.username));
    this.ctx.afterSave();
    // Read back what the portal now holds, so the form shows the truth rather than what we hoped for.
    // A failed read-back does not undo the save: show the values that were sent.
    const fresh = await this.load().catch(() => undefined);
    try {
      checkApplied(sentFields(values, plan.update, state.values, answer, fresh));
    } catch (err) {
      // The user's input stays on screen; what the portal holds is the baseline of the next save.
      if (fresh) this.state = fresh;
      throw err;
    }
    const message = vscode.l10n.t('Saved: {0}.', plan.summary.join(', '));
    offerFormUndo(this.env.ui(), this.ctx, done, vscode.l10n.t('{0}: {1}', state.memberName, message));
    return { message, state: fresh ?? { ...state, values } };
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
