import * as vscode from 'vscode';
import {
  ownValue,
  PortalError,
  type Account,
  type AccountMembership,
  type AccountUpdate,
  type Component,
  type CustomNames,
  type PortalClient,
  type Subscription,
} from '../../../api';
import {
  overviewCommands,
  type ComponentView,
  type SubscriptionView,
  type OverviewCommand,
  type OverviewState,
  type OverviewValues,
} from './overview.protocol';
import { FormPanel, type FormEnv, type SaveOutcome } from '../../../forms/formPanel';
import type { SettingsWriter } from '../../../ui/settingsWriter';
import { clientOf, Gaps, type AccountContext } from '../../../forms/context';
import { checkApplied, inputError } from '../../../forms/inputError';
import type { FormKey } from '../../../shared/keys';

/**
 * Custom names are keyed by the singular and plural of each content type (the portal does not name the fields);
 * a component named after a content type ("files") takes the plural, as the portal's menus do.
 */
function customNameOf(component: string, custom: CustomNames): string | null {
  const singular = component.endsWith('s') ? component.slice(0, -1) : component;
  return ownValue(custom, component) ?? ownValue(custom, `${singular}s`) ?? null;
}

function componentView(c: Component, custom: CustomNames): ComponentView {
  return {
    name: c.name,
    title: c.title || c.name,
    customName: customNameOf(c.name, custom),
    description: c.description,
    beta: c.beta,
  };
}

function subscriptionView(subscription: Subscription | null): SubscriptionView | null {
  const p = subscription?.accountPackage;
  if (!subscription || !p) return null;
  return {
    plan: subscription.plan,
    code: p.code,
    trialExpires: p.trialExpires,
    paused: p.paused,
    pausedBillingCycles: p.pausedBillingCycles,
    datePausedAt: p.datePausedAt,
    suspended: p.suspended,
    storage: { used: subscription.storageUsed, allowed: p.storage },
    members: { used: subscription.membersUsed, allowed: p.members },
    emails: { used: subscription.emailsUsed, allowed: p.emailQuota },
  };
}

/** The component names sign-in details carry, when the portal has no component list: names only. */
function componentsOf(membership: AccountMembership | undefined): Component[] {
  return (membership?.components ?? []).map((name) => ({
    name,
    beta: false,
    title: name,
    description: '',
    iconName: '',
  }));
}

const fieldWords = (): Record<keyof AccountUpdate, string> => ({
  friendlyName: vscode.l10n.t('friendly name'),
  name: vscode.l10n.t('name'),
  locale: vscode.l10n.t('locale'),
});

/**
 * Everything the overview shows, read at once. Only the user info is required; each other read the portal refuses
 * leaves a notice in `gaps` and its fallback in place.
 */
function readOverview(client: PortalClient, id: number, gaps: Gaps) {
  return Promise.all([
    gaps.read(
      client.v3.accounts.get(id).then((a): Account | undefined => a),
      undefined,
      {
        read: vscode.l10n.t('the organisation read'),
        lost: vscode.l10n.t('what is shown comes from your sign-in details'),
      },
    ),
    client.v3.userinfo(),
    gaps.read(
      client.v3.accounts.subscription(id).then((s): Subscription | null => s),
      null,
      {
        read: vscode.l10n.t('the subscription read'),
        lost: vscode.l10n.t('usage and limits are not shown'),
      },
    ),
    gaps.read(
      client.v3.accounts.components(id).then((cs): Component[] | undefined => cs),
      undefined,
      {
        read: vscode.l10n.t('the component list'),
        lost: vscode.l10n.t('components are listed by name only, from your sign-in details'),
      },
    ),
    gaps.read(client.v2.accounts.custom(id), {} as CustomNames, {
      read: vscode.l10n.t('the custom names read'),
      lost: vscode.l10n.t("the organisation's own names for components are not shown"),
    }),
  ]);
}

export class OverviewForm extends FormPanel<OverviewState, OverviewValues, OverviewCommand> {
  private state: OverviewState | undefined;

  constructor(
    env: FormEnv,
    key: FormKey,
    private readonly ctx: AccountContext & { readonly settings: SettingsWriter },
    label: string,
  ) {
    super(env, 'overview', key, vscode.l10n.t('Organisation: {0}', label), overviewCommands);
    this.start();
  }

  protected async load(): Promise<OverviewState> {
    const client = clientOf(this.ctx);
    const id = this.ctx.accountId;
    const gaps = new Gaps();
    const [read, info, subscription, listed, custom] = await readOverview(client, id, gaps);
    const membership = info.accounts.find((a) => a.account.id === id);
    const account = read ?? membership?.account;
    if (!account) {
      throw new PortalError({
        kind: 'not-found',
        endpoint: '',
        message: vscode.l10n.t('The portal no longer lists this organisation for you.'),
      });
    }
    this.state = {
      accountId: id,
      friendlyName: account.friendlyName,
      name: account.name,
      enabled: account.enabled,
      domain: account.domain,
      dateCreated: account.dateCreated,
      subscription: subscriptionView(subscription),
      components: (listed ?? componentsOf(membership)).map((c) => componentView(c, custom)),
      features: membership?.features ?? [],
      capabilities: membership?.capabilities ?? [],
      permission: membership?.permission ?? null,
      values: { accountId: id, friendlyName: account.friendlyName, name: account.name, locale: account.locale ?? '' },
      notices: gaps.notices,
    };
    return this.state;
  }

  protected valuesOf(command: OverviewCommand): OverviewValues | string {
    if (command.type !== 'save') return 'not a save';
    if (!this.state) return 'the form has not loaded yet';
    if (command.values.accountId !== this.state.accountId) return 'it names another account';
    return command.values;
  }

  protected async save(values: OverviewValues): Promise<SaveOutcome<OverviewState>> {
    const state = this.state;
    if (!state) throw new Error(vscode.l10n.t('The form has not loaded yet.'));
    const before = state.values;
    const update: AccountUpdate = {};
    const problems = [];
    for (const key of ['friendlyName', 'name', 'locale'] as const) {
      const v = values[key].trim();
      if (v === before[key]) continue;
      // Blank means "leave as it is" would surprise; the portal needs a value for each, so say so.
      if (!v) problems.push({ field: key, message: vscode.l10n.t('Enter a value.') });
      else update[key] = v;
    }
    if (problems.length > 0) throw inputError(problems);
    if (Object.keys(update).length === 0)
      return { message: vscode.l10n.t('Nothing to save: no field was changed.'), state };
    // v3 PATCH names just the changed fields; v2 has no account update at all.
    const change = { resource: 'organisation', action: 'update', update } as const;
    const label = state.values.friendlyName || state.values.name;
    const sent = await this.ctx.settings.write(this.ctx, change, {
      label,
      title: vscode.l10n.t('Edit the organisation {0}', label),
    });
    const answer = sent.answer as Account;
    this.ctx.afterSave();
    checkApplied(
      (Object.keys(update) as Array<keyof AccountUpdate>).map((k) => ({
        field: k,
        label: fieldWords()[k],
        sent: update[k],
        now: answer[k],
      })),
    );
    const fresh = await this.load().catch(() => ({ ...state, ...update, values: { ...values } }));
    const words = fieldWords();
    const message = vscode.l10n.t(
      'Saved: {0}.',
      (Object.keys(update) as Array<keyof AccountUpdate>).map((k) => words[k]).join(', '),
    );
    void this.ctx.settings.summary(this.env.ui(), sent.applyId, change, message);
    return { message, state: fresh };
  }

  protected override conflictField(values: OverviewValues): string | undefined {
    // The short name is the one unique field here.
    return values.name.trim() !== this.state?.values.name ? 'name' : undefined;
  }

  protected fieldOf(apiField: string): string | undefined {
    return ['friendlyName', 'name', 'locale'].includes(apiField) ? apiField : undefined;
  }
}
