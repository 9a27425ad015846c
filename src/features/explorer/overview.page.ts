// Account overview: subscription usage, state, components, features and capabilities; renaming the account.
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import type { OverviewState, OverviewValues, SubscriptionView, Usage } from './overview.protocol';
import { el, type Child } from '../../forms/page/dom';
import { section, textField } from '../../forms/page/fields';
import { calendarDate, count, humanSize, relativeDays } from '../../shared/format';
import { FormView } from '../../forms/page/form';

/** A labelled bar: used against allowed, with the numbers in words for screen readers. */
function meter(label: string, usage: Usage, show: (n: number) => string): HTMLElement {
  const { used, allowed } = usage;
  const share = allowed && allowed > 0 ? used / allowed : null;
  const words = allowed === null ? `${show(used)} used (no limit given)` : `${show(used)} of ${show(allowed)}${share !== null ? ` (${Math.round(share * 100)}%)` : ''}`;
  const bar = el('vscode-progress-bar', { ariaLabel: `${label}: ${words}` });
  bar.max = allowed && allowed > 0 ? allowed : Math.max(used, 1);
  bar.value = Math.min(used, bar.max);
  const node = el('div', { classes: ['meter'], attrs: { role: 'group', 'aria-label': label } },
    el('div', { classes: ['meter-label'] }, el('span', { textContent: label }), el('span', { textContent: words })),
    bar);
  if (share !== null && share >= 0.9) node.classList.add('over');
  return node;
}

function stateLine(state: OverviewState, s: SubscriptionView | null): HTMLElement {
  const items: Array<[string, 'ok' | 'warn' | 'bad']> = [];
  items.push(state.enabled ? ['Enabled', 'ok'] : ['Disabled', 'bad']);
  if (s?.suspended) items.push(['Suspended', 'bad']);
  if (s?.paused) {
    const since = s.datePausedAt !== null ? ` since ${calendarDate(s.datePausedAt)}` : '';
    const cycles = s.pausedBillingCycles !== null ? ` for ${s.pausedBillingCycles} billing ${s.pausedBillingCycles === 1 ? 'cycle' : 'cycles'}` : '';
    items.push([`Paused${since}${cycles}`, 'warn']);
  }
  if (s && s.trialExpires !== null) {
    const ended = s.trialExpires < Date.now();
    items.push([ended ? `Trial ended ${calendarDate(s.trialExpires)}` : `Trial until ${calendarDate(s.trialExpires)} (${relativeDays(s.trialExpires)})`, ended ? 'bad' : 'warn']);
  }
  const line = el('p', { attrs: { 'aria-label': 'Account state' } });
  items.forEach(([text, level], i) => {
    if (i > 0) line.append(' · ');
    line.append(el('span', { classes: ['state', ...(level === 'ok' ? [] : [level])], textContent: text }));
  });
  return line;
}

function chips(values: readonly string[], empty: string): Child {
  if (values.length === 0) return el('p', { classes: ['hint'], textContent: empty });
  return el('ul', { classes: ['chips'], attrs: { role: 'list' } }, ...values.map((v) => el('li', { classes: ['chip'], textContent: v })));
}

/** Renders this form in the page the host opened; nothing of it runs for another form. */
export function startOverviewPage(): void {
  let read: () => OverviewValues = () => {
    throw new Error('not rendered');
  };
  new FormView<OverviewState, OverviewValues>({
    saveLabel: () => 'Save',
    draftKey: (s) => `overview:${s.accountId}`,
    valuesOf: (s) => s.values,
    read: () => read(),
    render(form, state, values) {
      const s = state.subscription;
      const friendlyName = textField(form, { id: 'friendlyName', label: 'Friendly name', value: values.friendlyName, maxLength: 200, hint: 'The full name people see.' });
      const name = textField(form, { id: 'name', label: 'Name', value: values.name, maxLength: 63, hint: 'The short name used in addresses: lower-case letters, digits and dashes.' });
      const locale = textField(form, { id: 'locale', label: 'Locale', value: values.locale, maxLength: 20, placeholder: 'en_GB' });
      const text = (f: { control: VscodeTextfield }) => f.control.value;
      read = () => ({ accountId: state.accountId, friendlyName: text(friendlyName), name: text(name), locale: text(locale) });

      const subtitle = [state.name, state.domain, state.dateCreated !== null ? `created ${calendarDate(state.dateCreated)}` : null].filter(Boolean).join(' · ');
      const components = state.components.length === 0
        ? el('p', { classes: ['hint'], textContent: 'No components listed.' })
        : el('table', { classes: ['grid'], attrs: { 'aria-label': 'Enabled components' } },
          el('thead', {}, el('tr', {}, ...['Component', 'Called here', 'Description'].map((h) => el('th', { textContent: h, attrs: { scope: 'col' } })))),
          el('tbody', {}, ...state.components.map((c) => el('tr', {},
            el('td', { classes: ['name'] }, c.title, c.beta ? el('span', { classes: ['chip'], textContent: 'beta' }) : null),
            el('td', { textContent: c.customName ?? '—' }),
            el('td', { textContent: c.description })))));

      return [
        el('h1', { textContent: state.friendlyName }),
        el('p', { classes: ['subtitle'], textContent: subtitle }),
        stateLine(state, s),
        section('Subscription',
          s
            ? el('div', {},
              el('p', { textContent: `Plan ${s.plan || '—'} (${s.code || 'no code'})` }),
              meter('Storage', s.storage, humanSize),
              meter('Members', s.members, count),
              meter('E-mails today', s.emails, count))
            : el('p', { classes: ['hint'], textContent: `The subscription could not be read: ${state.subscriptionProblem ?? 'no answer'}` })),
        section('Components', components),
        section('Features', chips(state.features, 'No features listed.')),
        section('Capabilities', chips(state.capabilities, 'No capabilities listed for you in this account.')),
        section('Rename the account', friendlyName.node, name.node, locale.node),
        form.actions(),
      ];
    },
  });
}
