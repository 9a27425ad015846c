import * as vscode from 'vscode';
import { ownValue, type CreatedGroup, type CustomNames, type Group, type GroupBody } from '../../../api';
import type { SettingsChange } from '../../../engine/settings/index';
import type { SettingsWriter } from '../../../ui/settingsWriter';
import {
  COLOUR,
  groupCommands,
  type ComponentChoice,
  type GroupCommand,
  type GroupState,
  type GroupValues,
} from './group.protocol';
import { FormPanel, type FormEnv, type SaveOutcome } from '../../../forms/formPanel';
import { clientOf, Gaps, type AccountContext } from '../../../forms/context';
import { checkApplied, inputError, type SentField } from '../../../forms/inputError';
import type { FormKey } from '../../../shared/keys';

/** Component names a group can have; the account's own list narrows them when it can be read. */
const GROUP_COMPONENTS = ['files', 'pages', 'events', 'tasks', 'activity', 'chat', 'discussions'];

type GroupContext = AccountContext & { readonly groupId?: number; readonly settings: SettingsWriter };

function blankValues(accountId: number): GroupValues {
  return {
    accountId,
    groupId: 0,
    name: '',
    friendlyName: '',
    components: ['files', 'activity'],
    chat: true,
    comments: true,
    widgets: true,
    accordionWidgets: true,
    headerColor: '',
    textColor: '',
  };
}

function valuesOf(accountId: number, g: Group): GroupValues {
  return {
    accountId,
    groupId: g.id,
    name: g.name,
    friendlyName: g.friendlyName,
    components: g.components.map((c) => c.name),
    chat: !g.disableChat,
    comments: !g.disableComments,
    // A portal that does not report the switch (see widgetsKnown) gets the default: widgets shown.
    widgets: !(g.disableWidgets ?? false),
    accordionWidgets: !g.disableAccordionWidgets,
    headerColor: g.branding?.headerColor ?? '',
    textColor: g.branding?.textColor ?? '',
  };
}

function label(name: string, custom: CustomNames): string {
  const title = name.charAt(0).toUpperCase() + name.slice(1);
  const own = ownValue(custom, name);
  return own && own.toLowerCase() !== name ? vscode.l10n.t('{0} (called "{1}" here)', title, own) : title;
}

/** What an update sent, next to what the portal answered with: a portal that ignored it answers the old group. */
function sentFields(body: GroupBody, answer: Group): SentField[] {
  const out: SentField[] = [];
  const add = (field: string, label: string, sent: unknown, now: unknown) => {
    if (sent !== undefined) out.push({ field, label, sent, now });
  };
  add('name', vscode.l10n.t('the name'), body.name, answer.name);
  add('friendlyName', vscode.l10n.t('the friendly name'), body.friendlyName, answer.friendlyName);
  add(
    'components',
    vscode.l10n.t('the components'),
    body.components && [...body.components].sort(),
    answer.components.map((c) => c.name).sort(),
  );
  add('chat', vscode.l10n.t('chat'), body.disableChat, answer.disableChat);
  add('comments', vscode.l10n.t('comments'), body.disableComments, answer.disableComments);
  add(
    'accordionWidgets',
    vscode.l10n.t('the Recent, Created by and I follow widgets'),
    body.disableAccordionWidgets,
    answer.disableAccordionWidgets,
  );
  // A portal that does not report the switch cannot show whether it took it.
  if (answer.disableWidgets !== null)
    add('widgets', vscode.l10n.t('the home widgets'), body.disableWidgets, answer.disableWidgets);
  add(
    'headerColor',
    vscode.l10n.t('the header colour'),
    body.branding?.headerColor?.toLowerCase(),
    answer.branding?.headerColor?.toLowerCase() ?? undefined,
  );
  add(
    'textColor',
    vscode.l10n.t('the text colour'),
    body.branding?.textColor?.toLowerCase(),
    answer.branding?.textColor?.toLowerCase() ?? undefined,
  );
  return out;
}

/**
 * Create and edit a group. v3 has no group endpoints, so both go through v2: create is a POST of
 * the body; update is a POST of the same body on the group's path. An update carries every field this form
 * shows (taken from the group as loaded, plus the user's edits) and the branding fields it does not show, so
 * a portal that treats the body as the whole group keeps them.
 */
export class GroupForm extends FormPanel<GroupState, GroupValues, GroupCommand> {
  private state: GroupState | undefined;
  private group: Group | undefined;
  private groupId: number | undefined;

  constructor(
    env: FormEnv,
    key: FormKey,
    private readonly ctx: GroupContext,
    title: string,
  ) {
    super(env, 'group', key, title, groupCommands);
    this.groupId = ctx.groupId;
    this.start();
  }

  protected async load(): Promise<GroupState> {
    const client = clientOf(this.ctx);
    const { accountId } = this.ctx;
    const groupId = this.groupId;
    const gaps = new Gaps();
    const [accountName, group, available, custom] = await Promise.all([
      gaps.read(
        client.v2.accounts.get(accountId).then((a) => a.friendlyName || a.name),
        '',
        {
          read: vscode.l10n.t('the organisation read'),
          lost: vscode.l10n.t("the organisation's name is not shown"),
        },
      ),
      groupId ? client.v2.groups.get(accountId, groupId) : Promise.resolve(undefined),
      gaps.read(
        client.v3.accounts.components(accountId).then((cs) => cs.map((c) => c.name)),
        GROUP_COMPONENTS,
        {
          read: vscode.l10n.t('the component list'),
          lost: vscode.l10n.t("every component is offered, whether or not the organisation's package includes it"),
        },
      ),
      gaps.read(client.v2.accounts.custom(accountId), {} as CustomNames, {
        read: vscode.l10n.t('the custom names read'),
        lost: vscode.l10n.t("the organisation's own names for components are not shown"),
      }),
    ]);
    this.group = group;
    const values = group ? valuesOf(accountId, group) : blankValues(accountId);
    // Offer what the account's package allows (in the spec's order), plus anything the group already has.
    const names = GROUP_COMPONENTS.filter((n) => available.includes(n) || values.components.includes(n));
    for (const n of values.components) if (!names.includes(n)) names.push(n);
    const components: ComponentChoice[] = names.map((n) => ({ name: n, label: label(n, custom) }));
    values.components = values.components.filter((n) => names.includes(n));
    this.state = {
      mode: group ? 'edit' : 'create',
      accountId,
      accountName,
      groupId: group?.id ?? 0,
      components,
      widgetsKnown: group === undefined || group.disableWidgets !== null,
      values,
      notices: gaps.notices,
    };
    return this.state;
  }

  protected valuesOf(command: GroupCommand): GroupValues | string {
    if (command.type !== 'save') return 'not a save';
    const state = this.state;
    if (!state) return 'the form has not loaded yet';
    const v = command.values;
    if (v.accountId !== state.accountId) return 'it names another account';
    if (v.groupId !== state.groupId) return 'it names another group';
    const offered = new Set(state.components.map((c) => c.name));
    if (v.components.some((c) => !offered.has(c))) return 'it names a component the form did not offer';
    return v;
  }

  protected async save(values: GroupValues): Promise<SaveOutcome<GroupState>> {
    const state = this.state;
    if (!state) throw new Error(vscode.l10n.t('The form has not loaded yet.'));
    const problems = [];
    if (!values.name.trim()) problems.push({ field: 'name', message: vscode.l10n.t('Enter a name.') });
    if (!values.friendlyName.trim())
      problems.push({ field: 'friendlyName', message: vscode.l10n.t('Enter a friendly name.') });
    for (const key of ['headerColor', 'textColor'] as const) {
      if (!COLOUR.test(values[key]))
        problems.push({ field: key, message: vscode.l10n.t('Use a hex colour such as #1e40af, or leave it empty.') });
    }
    if (problems.length > 0) throw inputError(problems);

    const body = this.body(state, values);
    const client = clientOf(this.ctx);
    const { accountId, settings } = this.ctx;
    const label = body.friendlyName ?? body.name ?? state.values.friendlyName;
    let message: string;
    let answer: Group | undefined;
    let done: { change: SettingsChange; applyId: string };
    if (state.mode === 'create') {
      const change = { resource: 'group', action: 'create', body } as const;
      const sent = await settings.write(this.ctx, change, {
        label,
        title: vscode.l10n.t('Create the group {0}', label),
      });
      const created = sent.answer as CreatedGroup;
      // The create answer may carry a null id: find the new group by its unique name.
      this.groupId = created.id ?? (await client.v2.groups.list(accountId)).find((g) => g.name === body.name)?.id;
      message = vscode.l10n.t('Created the group "{0}".', label);
      done = { change, applyId: sent.applyId };
    } else {
      const change = { resource: 'group', action: 'update', groupId: state.groupId, body } as const;
      const sent = await settings.write(this.ctx, change, { label, title: vscode.l10n.t('Edit the group {0}', label) });
      answer = sent.answer as Group;
      message = vscode.l10n.t('Saved the group.');
      done = { change, applyId: sent.applyId };
    }
    this.ctx.afterSave();
    void settings.summary(this.env.ui(), done.applyId, done.change, message);
    if (answer) checkApplied(sentFields(body, answer));
    // After a create the panel becomes the new group's edit form.
    const fresh = this.groupId
      ? await this.load().catch(() => ({ ...state, values }))
      : { ...state, values: blankValues(accountId) };
    return { message, state: fresh };
  }

  private body(state: GroupState, v: GroupValues): GroupBody {
    const loaded = this.group?.branding;
    const body: GroupBody = {
      friendlyName: v.friendlyName.trim(),
      components: v.components,
      disableChat: !v.chat,
      disableComments: !v.comments,
      disableAccordionWidgets: !v.accordionWidgets,
      branding: {
        // Kept as loaded: this form does not show them, and the update must not reset them.
        ...(loaded
          ? {
              logo: loaded.logo,
              background: loaded.background,
              hideBackgroundGradient: loaded.hideBackgroundGradient,
              hideLogoBackground: loaded.hideLogoBackground,
              hideGroupName: loaded.hideGroupName,
              ...(loaded.alignment !== null ? { alignment: loaded.alignment } : {}),
              ...(loaded.backgroundPositionX !== null ? { backgroundPositionX: loaded.backgroundPositionX } : {}),
              ...(loaded.backgroundPositionY !== null ? { backgroundPositionY: loaded.backgroundPositionY } : {}),
            }
          : {}),
        ...(v.headerColor ? { headerColor: v.headerColor } : {}),
        ...(v.textColor ? { textColor: v.textColor } : {}),
      },
    };
    if (state.mode === 'create' || v.name.trim() !== state.values.name) body.name = v.name.trim();
    if (state.widgetsKnown || v.widgets !== state.values.widgets) body.disableWidgets = !v.widgets;
    return body;
  }

  protected override conflictField(values: GroupValues): string | undefined {
    // Of this form's fields only the name is unique in the organisation.
    return values.name.trim() !== this.state?.values.name ? 'name' : undefined;
  }

  protected fieldOf(apiField: string): string | undefined {
    const map: Record<string, string> = {
      name: 'name',
      friendlyName: 'friendlyName',
      components: 'components',
      disableChat: 'chat',
      disableComments: 'comments',
      disableWidgets: 'widgets',
      disableAccordionWidgets: 'accordionWidgets',
      'branding.headerColor': 'headerColor',
      'branding.textColor': 'textColor',
    };
    return ownValue(map, apiField);
  }
}
