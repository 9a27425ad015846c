import * as vscode from 'vscode';
import { ownValue, type AccountUpdate, type Component, type CustomNames } from '../../api';
import { overviewCommands, type ComponentView, type OverviewCommand, type OverviewState, type OverviewValues } from './overview.protocol';
import { FormPanel, type FormEnv, type SaveOutcome } from '../../forms/formPanel';
import { clientOf, readOr, type AccountContext } from '../../forms/context';
import { inputError } from '../../forms/inputError';
import type { FormKey } from '../../shared/keys';

/**
 * Custom names are keyed by the singular and plural of each content type (the portal does not name the fields);
 * a component named after a content type ("files") takes the plural, as the portal's menus do.
 */
function customNameOf(component: string, custom: CustomNames): string | null {
  const singular = component.endsWith('s') ? component.slice(0, -1) : component;
  return ownValue(custom, component) ?? ownValue(custom, `${singular}s`) ?? null;
}

function componentView(c: Component, custom: CustomNames): ComponentView {
  return { name: c.name, title: c.title || c.name, customName: customNameOf(c.name, custom), description: c.description, beta: c.beta };
}

export class OverviewForm extends FormPanel<OverviewState, OverviewValues, OverviewCommand> {
  private state: OverviewState | undefined;


  constructor(env: FormEnv, key: FormKey, private readonly ctx: AccountContext, label: string) {
    super(env, 'overview', key, vscode.l10n.t('Account: {0}', label), overviewCommands);
    this.start();
  }

  protected async load(): Promise<OverviewState> {
    const client = clientOf(this.ctx);
    const id = this.ctx.accountId;
    const [account, info, [subscription, subscriptionProblem], [components], [custom]] = await Promise.all([
      client.v3.accounts.get(id),
      client.v3.userinfo(),
      readOr(client.v3.accounts.subscription(id).then((s) => s as typeof s | null), null),
      readOr(client.v3.accounts.components(id), [] as Component[]),
      readOr(client.v2.accounts.custom(id), {} as CustomNames),
    ]);
    const membership = info.accounts.find((a) => a.account.id === id);
    const p = subscription?.accountPackage;
    this.state = {
      accountId: id,
      friendlyName: account.friendlyName,
      name: account.name,
      enabled: account.enabled,
      domain: account.domain,
      dateCreated: account.dateCreated,
      subscription: subscription && p
        ? {
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
        }
        : null,
      subscriptionProblem,
      components: components.map((c) => componentView(c, custom)),
      features: membership?.features ?? [],
      capabilities: membership?.capabilities ?? [],
      permission: membership?.permission ?? null,
      values: { accountId: id, friendlyName: account.friendlyName, name: account.name, locale: account.locale ?? '' },
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
    if (Object.keys(update).length === 0) return { message: vscode.l10n.t('Nothing to save: no field was changed.'), state };
    // v3 PATCH names just the changed fields; v2 has no account update at all.
    await clientOf(this.ctx).v3.accounts.update(this.ctx.accountId, update);
    this.ctx.afterSave();
    const fresh = await this.load().catch(() => ({ ...state, ...update, values: { ...values } }));
    const words: Record<keyof AccountUpdate, string> = { friendlyName: vscode.l10n.t('friendly name'), name: vscode.l10n.t('name'), locale: vscode.l10n.t('locale') };
    return { message: vscode.l10n.t('Saved: {0}.', (Object.keys(update) as Array<keyof AccountUpdate>).map((k) => words[k]).join(', ')), state: fresh };
  }

  protected fieldOf(apiField: string): string | undefined {
    return ['friendlyName', 'name', 'locale'].includes(apiField) ? apiField : undefined;
  }
}
