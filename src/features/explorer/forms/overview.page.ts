// Account overview: subscription usage, state, components, features and capabilities; renaming the account.
import * as l10n from '@vscode/l10n';
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import type { OverviewState, OverviewValues, SubscriptionView, Usage } from './overview.protocol';
import { el, type Child } from '../../../forms/page/dom';
import { section, textFieldOf } from '../../../forms/page/fields';
import { calendarDate, count, humanSize, relativeDays } from '../../../shared/format';
import { FormView, type Rendered } from '../../../forms/page/form';

/** A labelled bar: used against allowed, with the numbers in words for screen readers. */
function meter(label: string, usage: Usage, show: (n: number) => string): HTMLElement {
  const { used, allowed } = usage;
  const share = allowed && allowed > 0 ? used / allowed : null;
  const words =
    allowed === null
      ? l10n.t('{0} used, limit not reported', show(used))
      : share !== null
        ? l10n.t('{0} of {1} ({2}%)', show(used), show(allowed), Math.round(share * 100))
        : l10n.t('{0} of {1}', show(used), show(allowed));
  const bar = el('vscode-progress-bar', { ariaLabel: l10n.t('{0}: {1}', label, words) });
  bar.max = allowed && allowed > 0 ? allowed : Math.max(used, 1);
  bar.value = Math.min(used, bar.max);
  const node = el(
    'div',
    { classes: ['meter'], attrs: { role: 'group', 'aria-label': label } },
    el('div', { classes: ['meter-label'] }, el('span', { textContent: label }), el('span', { textContent: words })),
    bar,
  );
  if (share !== null && share >= 0.9) node.classList.add('over');
  return node;
}

/** "Paused since 3 Mar 2025 for 2 billing cycles", with whichever of the two the portal reported. */
function pausedText(s: SubscriptionView): string {
  const since = s.datePausedAt !== null ? calendarDate(s.datePausedAt) : undefined;
  const cycles = s.pausedBillingCycles;
  if (since !== undefined && cycles !== null) {
    return cycles === 1
      ? l10n.t('Paused since {0} for 1 billing cycle', since)
      : l10n.t('Paused since {0} for {1} billing cycles', since, cycles);
  }
  if (since !== undefined) return l10n.t('Paused since {0}', since);
  if (cycles !== null)
    return cycles === 1 ? l10n.t('Paused for 1 billing cycle') : l10n.t('Paused for {0} billing cycles', cycles);
  return l10n.t('Paused');
}

function stateLine(state: OverviewState, s: SubscriptionView | null): HTMLElement {
  const items: Array<[string, 'ok' | 'warn' | 'bad']> = [];
  items.push(state.enabled ? [l10n.t('Enabled'), 'ok'] : [l10n.t('Disabled'), 'bad']);
  if (s?.suspended) items.push([l10n.t('Suspended'), 'bad']);
  if (s?.paused) items.push([pausedText(s), 'warn']);
  if (s && s.trialExpires !== null) {
    const ended = s.trialExpires < Date.now();
    items.push([
      ended
        ? l10n.t('Trial ended {0}', calendarDate(s.trialExpires))
        : l10n.t('Trial until {0} ({1})', calendarDate(s.trialExpires), relativeDays(s.trialExpires)),
      ended ? 'bad' : 'warn',
    ]);
  }
  const line = el('p', { attrs: { 'aria-label': l10n.t('Organisation state') } });
  items.forEach(([text, level], i) => {
    if (i > 0) line.append(' · ');
    line.append(el('span', { classes: ['state', ...(level === 'ok' ? [] : [level])], textContent: text }));
  });
  return line;
}

function chips(values: readonly string[], empty: string): Child {
  if (values.length === 0) return el('p', { classes: ['hint'], textContent: empty });
  return el(
    'ul',
    { classes: ['chips'], attrs: { role: 'list' } },
    ...values.map((v) => el('li', { classes: ['chip'], textContent: v })),
  );
}

type Form = FormView<OverviewState, OverviewValues>;

/** The fields that rename the organisation. */
function renameFields(form: Form, values: OverviewValues) {
  const friendlyName = textFieldOf(form, values, 'friendlyName', l10n.t('Friendly name'), {
    maxLength: 200,
    hint: l10n.t('The full name people see.'),
  });
  const name = textFieldOf(form, values, 'name', l10n.t('Name'), {
    maxLength: 63,
    hint: l10n.t('The short name used in addresses: lower-case letters, digits and dashes.'),
  });
  const locale = textFieldOf(form, values, 'locale', l10n.t('Locale'), { maxLength: 20, placeholder: 'en_GB' });
  return { friendlyName, name, locale };
}

/** "name · domain · created 3 Mar 2025", leaving out what the portal did not report. */
function subtitleText(state: OverviewState): string {
  return [
    state.name,
    state.domain,
    state.dateCreated !== null ? l10n.t('created {0}', calendarDate(state.dateCreated)) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

function componentsTable(components: OverviewState['components']): HTMLElement {
  if (components.length === 0) return el('p', { classes: ['hint'], textContent: l10n.t('No components listed.') });
  return el(
    'table',
    { classes: ['grid'], attrs: { 'aria-label': l10n.t('Enabled components') } },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...[l10n.t('Component'), l10n.t('Called here'), l10n.t('Description')].map((h) =>
          el('th', { textContent: h, attrs: { scope: 'col' } }),
        ),
      ),
    ),
    el(
      'tbody',
      {},
      ...components.map((c) =>
        el(
          'tr',
          {},
          el(
            'td',
            { classes: ['name'] },
            c.title,
            c.beta ? el('span', { classes: ['chip'], textContent: l10n.t('beta') }) : null,
          ),
          el('td', { textContent: c.customName ?? '—' }),
          el('td', { textContent: c.description }),
        ),
      ),
    ),
  );
}

/** The plan and its usage meters, or why they are not shown. */
function subscriptionBody(s: SubscriptionView | null): HTMLElement {
  if (!s)
    return el('p', {
      classes: ['hint'],
      textContent: l10n.t('Not shown: the portal did not answer the subscription read.'),
    });
  return el(
    'div',
    {},
    el('p', {
      textContent: s.code ? l10n.t('Plan {0} ({1})', s.plan || '—', s.code) : l10n.t('Plan {0}', s.plan || '—'),
    }),
    meter(l10n.t('Storage'), s.storage, humanSize),
    meter(l10n.t('Members'), s.members, count),
    meter(l10n.t('E-mails today'), s.emails, count),
  );
}

function renderOverview(form: Form, state: OverviewState, values: OverviewValues): Rendered<OverviewValues> {
  const s = state.subscription;
  const { friendlyName, name, locale } = renameFields(form, values);
  const text = (f: { control: VscodeTextfield }) => f.control.value;
  const read = (): OverviewValues => ({
    accountId: state.accountId,
    friendlyName: text(friendlyName),
    name: text(name),
    locale: text(locale),
  });

  const nodes = [
    el('h1', { textContent: state.friendlyName }),
    el('p', { classes: ['subtitle'], textContent: subtitleText(state) }),
    stateLine(state, s),
    section(l10n.t('Subscription'), subscriptionBody(s)),
    section(l10n.t('Components'), componentsTable(state.components)),
    section(l10n.t('Features'), chips(state.features, l10n.t('No features listed.'))),
    section(
      l10n.t('Capabilities'),
      chips(state.capabilities, l10n.t('No capabilities listed for you in this organisation.')),
    ),
    section(l10n.t('Rename the organisation'), friendlyName.node, name.node, locale.node),
    form.actions(),
  ];
  return { nodes, read };
}

/** Renders this form in the page the host opened; nothing of it runs for another form. */
export function startOverviewPage(): void {
  new FormView<OverviewState, OverviewValues>({
    saveLabel: () => l10n.t('Save'),
    draftKey: (s) => `overview:${s.accountId}`,
    valuesOf: (s) => s.values,
    render: renderOverview,
  });
}
