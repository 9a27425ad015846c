// The access review page: the rows as read, filtered here with the function the host checks a bulk decision with;
// decisions are asked of the host, which keeps them and sends them back. Only the first rows that show are drawn (more
// on demand). Server text is set as text only (dom.ts); nothing here is HTML from the portal.
import * as l10n from '@vscode/l10n';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import '../../forms/page/elements';
import { clear, el, onNextFrame } from '../../forms/page/dom';
import { adoptListPageStyles } from '../../forms/page/listPage';
import { onHostMessage, post, saveDraft } from '../../forms/page/host';
import { calendarDate, count } from '../../shared/format';
import css from './review.css';
import {
  decisionKindWords,
  decisionWords,
  DECISION_KINDS,
  kindWords,
  levelWords,
  LOWER_LEVELS,
  MEMBER_STATES,
  REVIEW_PAGE_STATE,
  ROW_KINDS,
  shows,
  stateWords,
  type Decision,
  type DecisionInput,
  type ReviewFilter,
  type ReviewMeta,
  type ReviewRow,
} from './core/review.protocol';

/** Rows drawn at first, and added by "Show more". */
const PAGE_ROWS = 300;
const DAYS = [30, 60, 90, 180, 365] as const;

function select(id: string, label: string): { wrap: HTMLElement; control: VscodeSingleSelect } {
  const control = el('vscode-single-select', { id });
  control.setAttribute('aria-label', label);
  return { wrap: el('label', {}, label, control), control };
}

function option(value: string, label: string, selected = false): HTMLElement {
  return el('vscode-option', { value, textContent: label, selected });
}

const numberOr = (v: string): number | undefined => (v === '' ? undefined : Number(v));

class ReviewPage {
  private rows: ReviewRow[] = [];
  private readonly decisions = new Map<string, Decision>();
  private meta: ReviewMeta | undefined;
  private filter: ReviewFilter = {};
  private limit = PAGE_ROWS;
  private shown: ReviewRow[] = [];
  private readonly queueDraw = onNextFrame(() => this.draw());

  private readonly title = el('h1', { textContent: l10n.t('Access review') });
  private readonly about = el('p', { classes: ['about'] });
  private readonly notes = el('div', { classes: ['notes'], attrs: { role: 'status' } });
  private readonly kind = select('filter-kind', l10n.t('Kind'));
  private readonly text = el('vscode-textfield', { id: 'filter-text', placeholder: l10n.t('Name, address or access') });
  private readonly state = select('filter-state', l10n.t('State'));
  private readonly inactive = select('filter-inactive', l10n.t('Last active'));
  /** Whether the activity filters keep members not started yet (memberStates.ts); they leave them out by default. */
  private readonly notStarted = el('vscode-checkbox', {
    id: 'filter-not-started',
    label: l10n.t('Include members not started yet'),
    title: l10n.t('Never active, with their activation e-mail still to come'),
  });
  private readonly group = select('filter-group', l10n.t('Group'));
  private readonly older = select('filter-older', l10n.t('Created'));
  private readonly decided = select('filter-decided', l10n.t('Decision'));
  private readonly noExpiry = el('vscode-checkbox', { id: 'filter-no-expiry', label: l10n.t('No expiry') });
  private readonly noPassword = el('vscode-checkbox', { id: 'filter-no-password', label: l10n.t('No password') });
  private readonly canEdit = el('vscode-checkbox', { id: 'filter-can-edit', label: l10n.t('Can edit') });
  private readonly choice = select('decision', l10n.t('Decide'));
  private readonly level = select('decision-level', l10n.t('Level'));
  private readonly reason = el('vscode-textfield', { id: 'reason', placeholder: l10n.t('Reason') });
  private readonly bulk = el('vscode-button', { id: 'decide-shown', textContent: l10n.t('Decide for the rows shown') });
  private readonly finishButton = el('vscode-button', { id: 'finish', textContent: l10n.t('Finish Review…') });
  private readonly decisionBar = el('div', { classes: ['toolbar'] });
  private readonly counts = el('span', { id: 'counts', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly body = el('tbody');
  private readonly more = el('vscode-button', { id: 'more', secondary: true, textContent: l10n.t('Show more') });

  start(): void {
    onHostMessage((m) => this.onMessage(m));
    post({ type: 'ready' });
  }

  private onMessage(m: { type: string } & Record<string, unknown>): void {
    switch (m.type) {
      case 'init':
        if (m.l10n && typeof m.l10n === 'object') l10n.config({ contents: m.l10n as Record<string, string> });
        this.rows = [];
        this.decisions.clear();
        this.meta = m.meta as ReviewMeta;
        // What a reload of the window brings the panel back from (the host's serializer checks it).
        saveDraft(REVIEW_PAGE_STATE, { portalId: this.meta.portalId, id: this.meta.id });
        this.build();
        return;
      case 'rows':
        this.rows.push(...(m.rows as ReviewRow[]));
        this.queueDraw();
        return;
      case 'decided':
        for (const [key, d] of m.changes as Array<[string, Decision | null]>)
          if (d) this.decisions.set(key, d);
          else this.decisions.delete(key);
        this.queueDraw();
        return;
      case 'meta':
        this.meta = m.meta as ReviewMeta;
        this.header();
        this.queueDraw();
        return;
    }
  }

  private build(): void {
    const app = document.getElementById('app');
    if (!app) return;
    clear(app);
    app.removeAttribute('aria-busy');
    const table = el(
      'table',
      { classes: ['rows'], attrs: { 'aria-label': l10n.t('Rows to review') } },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...[l10n.t('Kind'), l10n.t('Who'), l10n.t('Access as read'), l10n.t('Decision'), ''].map((h) =>
            el('th', { textContent: h }),
          ),
        ),
      ),
      this.body,
    );
    app.append(this.title, this.about, this.notes, this.filters(), this.decisionBar, table, this.more);
    this.fillDecisionBar();
    this.listen();
    this.header();
    this.queueDraw();
  }

  private filters(): HTMLElement {
    this.kind.control.append(option('', l10n.t('Any'), true), ...ROW_KINDS.map((k) => option(k, kindWords(k))));
    this.state.control.append(option('', l10n.t('Any'), true), ...MEMBER_STATES.map((s) => option(s, stateWords(s))));
    this.inactive.control.append(
      option('', l10n.t('Any time'), true),
      ...DAYS.map((d) => option(String(d), l10n.t('Inactive {0}+ days', d))),
    );
    this.older.control.append(
      option('', l10n.t('Any time'), true),
      ...DAYS.map((d) => option(String(d), l10n.t('Older than {0} days', d))),
    );
    this.decided.control.append(
      option('', l10n.t('Any'), true),
      option('undecided', l10n.t('Undecided')),
      ...DECISION_KINDS.map((k) => option(k, decisionKindWords(k))),
    );
    return el(
      'div',
      { classes: ['toolbar'] },
      this.kind.wrap,
      el('label', {}, l10n.t('Search'), this.text),
      this.state.wrap,
      this.inactive.wrap,
      this.notStarted,
      this.group.wrap,
      this.older.wrap,
      this.noExpiry,
      this.noPassword,
      this.canEdit,
      this.decided.wrap,
    );
  }

  private fillDecisionBar(): void {
    this.choice.control.append(...DECISION_KINDS.map((k, i) => option(k, this.choiceWords(k), i === 0)));
    this.level.control.append(...LOWER_LEVELS.map((l, i) => option(String(l), levelWords(l), i === 0)));
    this.decisionBar.append(
      this.choice.wrap,
      this.level.wrap,
      el('label', { classes: ['grow'] }, l10n.t('Reason'), this.reason),
      this.bulk,
      el('span', { classes: ['grow'] }),
      this.counts,
      this.finishButton,
    );
  }

  private choiceWords(kind: DecisionInput['kind']): string {
    if (kind === 'lower') return l10n.t('Lower to…');
    return decisionWords({ kind }, this.meta?.scope !== undefined);
  }

  private listen(): void {
    const on = (node: HTMLElement, event: string, f: () => void) => node.addEventListener(event, f);
    on(this.kind.control, 'change', () => this.changed({ kind: ROW_KINDS.find((k) => k === this.kind.control.value) }));
    on(this.text, 'input', () => this.changed({ text: this.text.value || undefined }));
    on(this.state.control, 'change', () =>
      this.changed({ state: MEMBER_STATES.find((s) => s === this.state.control.value) }),
    );
    on(this.inactive.control, 'change', () => this.changed({ inactiveDays: numberOr(this.inactive.control.value) }));
    on(this.group.control, 'change', () => this.changed({ group: this.group.control.value || undefined }));
    on(this.older.control, 'change', () => this.changed({ olderThanDays: numberOr(this.older.control.value) }));
    on(this.decided.control, 'change', () =>
      this.changed({
        decided: ['undecided', ...DECISION_KINDS].find(
          (k) => k === this.decided.control.value,
        ) as ReviewFilter['decided'],
      }),
    );
    for (const [box, key] of [
      [this.noExpiry, 'noExpiry'],
      [this.noPassword, 'noPassword'],
      [this.canEdit, 'canEdit'],
      [this.notStarted, 'notStarted'],
    ] as const)
      on(box, 'change', () => this.changed({ [key]: (box as VscodeCheckbox).checked || undefined }));
    on(this.choice.control, 'change', () => this.syncLevel());
    on(this.bulk, 'click', () => post({ type: 'decideShown', filter: this.wireFilter(), decision: this.input() }));
    on(this.finishButton, 'click', () => post({ type: 'finish' }));
    on(this.more, 'click', () => {
      this.limit += PAGE_ROWS;
      this.queueDraw();
    });
    this.syncLevel();
  }

  private syncLevel(): void {
    this.level.wrap.hidden = this.choice.control.value !== 'lower';
  }

  private input(): DecisionInput {
    const kind = DECISION_KINDS.find((k) => k === this.choice.control.value) ?? 'keep';
    const level = LOWER_LEVELS.find((l) => String(l) === this.level.control.value) ?? 1;
    return { kind, ...(kind === 'lower' ? { level } : {}), reason: this.reason.value.slice(0, 500) };
  }

  private wireFilter(): ReviewFilter {
    return Object.fromEntries(Object.entries(this.filter).filter(([, v]) => v !== undefined)) as ReviewFilter;
  }

  private changed(change: Partial<ReviewFilter>): void {
    this.filter = { ...this.filter, ...change };
    this.limit = PAGE_ROWS;
    this.queueDraw();
  }

  private header(): void {
    const m = this.meta;
    if (!m) return;
    this.title.textContent = m.title;
    const scope = m.scope ? l10n.t('group {0}', m.scope.label) : l10n.t('the whole organisation');
    const about = [
      m.portal,
      scope,
      l10n.t('reviewer {0}', m.reviewer),
      l10n.t('started {0}', calendarDate(m.startedAt)),
    ];
    if (m.finishedAt !== undefined) about.push(l10n.t('finished {0}: read-only', calendarDate(m.finishedAt)));
    this.about.textContent = about.join(' · ');
    clear(this.notes);
    for (const n of m.notes) this.notes.append(el('p', { textContent: n }));
    this.group.wrap.hidden = m.scope !== undefined;
    clear(this.group.control);
    this.group.control.append(option('', l10n.t('Any'), true), ...m.groups.map((g) => option(g.name, g.label)));
    this.decisionBar.hidden = m.readOnly;
  }

  private draw(): void {
    const now = Date.now();
    this.shown = this.rows.filter((r) => shows(r, this.decisions.get(r.key), this.filter, now));
    clear(this.body);
    for (const row of this.shown.slice(0, this.limit)) this.body.append(this.rowOf(row));
    this.more.hidden = this.shown.length <= this.limit;
    this.bulk.textContent = l10n.t('Decide for the {0} rows shown', count(this.shown.length));
    this.counts.textContent = l10n.t('{0} of {1} decided', count(this.decisions.size), count(this.rows.length));
  }

  private rowOf(row: ReviewRow): HTMLElement {
    const d = this.decisions.get(row.key);
    const scoped = this.meta?.scope !== undefined;
    const decide = el('vscode-button', { secondary: true, textContent: l10n.t('Decide') });
    decide.addEventListener('click', () => post({ type: 'decide', keys: [row.key], decision: this.input() }));
    decide.hidden = this.meta?.readOnly === true;
    const sub = (text: string) => el('div', { classes: ['sub'], textContent: text });
    return el(
      'tr',
      {},
      el('td', { classes: ['kind'], textContent: kindWords(row.kind) }),
      el('td', {}, row.name || row.identity, row.name ? sub(row.identity) : null),
      el('td', { classes: ['access'] }, row.access, sub(row.detail)),
      el(
        'td',
        { classes: ['decision'] },
        d ? decisionWords(d, scoped) : l10n.t('undecided'),
        d ? sub([d.reason, d.by, calendarDate(d.at)].filter((x) => x).join(' · ')) : null,
      ),
      el('td', {}, decide),
    );
  }
}

export function startReviewPage(): void {
  adoptListPageStyles(css);
  new ReviewPage().start();
}
