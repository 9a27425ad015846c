// The access matrix page: members × groups, filtered and sorted here with the same functions the host exports with.
// Rows arrive as compact arrays, in batches, while the read runs; only the rows and group columns on screen are in
// the DOM (a 20,000 × 500 matrix draws a few hundred cells). Server text is set as text only (dom.ts).
import * as l10n from '@vscode/l10n';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeProgressBar } from '@vscode-elements/elements/dist/vscode-progress-bar/vscode-progress-bar.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import '../../../forms/page/elements';
import { clear, el, onNextFrame } from '../../../forms/page/dom';
import { adoptListPageStyles } from '../../../forms/page/listPage';
import { loadDraft, onHostMessage, post, saveDraft } from '../../../forms/page/host';
import { calendarDate, count, relativeTime } from '../../../shared/format';
import { cellOf, ROW, type WireRow } from '../../../shared/accessRow';
import { MEMBER_STATES } from '../../../shared/memberStates';
import { ACCOUNT_LEVELS, accountPermissionWords } from '../../../shared/permissions';
import { withoutBidi } from '../../../shared/plainText';
import css from './matrix.css';
import { membersSigned, type OutsidersMessage } from './outsiders/outsiders.protocol';
import { OutsidersSection, signInText } from './outsiders/outsiders.page';
import {
  columnOrder,
  levelWord,
  SORTS,
  stateWord,
  stateWords,
  statusWords,
  visibleRows,
  type MatrixProgress,
  type MatrixSort,
  type MatrixView,
} from './matrix.protocol';
import {
  DEFAULT_WIDTHS,
  leftWidth,
  resizeColumn,
  widthsOf,
  type ColumnKind,
  type ColumnWidths,
} from './matrixColumns.protocol';

/** The key of the page's kept state (host.ts keeps one draft per page). */
const MATRIX_PAGE_STATE = 'access';
const ROW_H = 24;
const HEAD_H = 26;
/** The member's own columns after the name, drawn at the left and kept there: last active, state, permission. */
const FIXED = [
  ['col-last', 'last'],
  ['col-state', 'state'],
  ['col-perm', 'perm'],
  ['col-signin', 'signin'],
] as const satisfies ReadonlyArray<readonly [string, ColumnKind]>;
/** A focused column edge moves this far per arrow key. */
const RESIZE_STEP = 16;
/** The inactivity a filter offers, in days. */
const INACTIVE_DAYS = [30, 60, 90, 180, 365] as const;
/** Rows drawn beyond the visible ones, so a small scroll shows drawn rows. */
const OVERSCAN = 6;
/** While rows stream in, the filter runs at most this often. */
const REFILTER_MS = 250;

function sortWord(sort: MatrixSort): string {
  switch (sort) {
    case 'username':
      return l10n.t('Username');
    case 'lastActive':
      return l10n.t('Last active');
    case 'level':
      return l10n.t('Highest level');
    case 'groups':
      return l10n.t('Number of groups');
    case 'state':
      return l10n.t('State');
    case 'permission':
      return l10n.t('Organisation permission');
    default:
      return l10n.t('Name');
  }
}

function select(id: string, label: string): { wrap: HTMLElement; control: VscodeSingleSelect } {
  const control = el('vscode-single-select', { id });
  control.setAttribute('aria-label', label);
  return { wrap: el('label', {}, label, control), control };
}

function option(value: string, label: string, selected: boolean): HTMLElement {
  return el('vscode-option', { value, textContent: label, selected });
}

/** The slice of rows and group columns that is on screen, and the sizes to draw it at. */
type DrawWindow = {
  columns: number[];
  width: number;
  /** Where the group columns start. */
  left: number;
  first: number;
  last: number;
  firstCol: number;
  lastCol: number;
  total: number;
};

class MatrixPage {
  private readonly rows = new Map<number, WireRow>();
  private columns: string[] = [];
  /** What each column is called where people read it (the group's friendly name); its name is in a tooltip. */
  private labels: string[] = [];
  private tags: string[] = [];
  private order: number[] = [];
  private shown: WireRow[] = [];
  private view: MatrixView = {};
  /** The host's ids of the organisation, kept with the filter for a reload. */
  private restore: Record<string, unknown> = {};
  private progress: MatrixProgress | undefined;
  /** The host's time when it sent the progress: the read age is told as of then. */
  private progressAt = 0;
  private refilterTimer: number | undefined;
  private readonly queueDraw = onNextFrame(() => this.draw());
  private optionsStale = true;
  /** Rows or names arrived since the last draw. */
  private dirty = false;
  /** The columns' widths; a header's right edge drags to change one (a cut-off text is then read whole). */
  private widths: ColumnWidths = DEFAULT_WIDTHS;

  private readonly title = el('h1', { textContent: l10n.t('Access') });
  private readonly text = el('vscode-textfield', {
    id: 'filter-text',
    placeholder: l10n.t('Name, username or e-mail'),
  });
  private readonly group = select('filter-group', l10n.t('Group'));
  private readonly tag = select('filter-tag', l10n.t('Tag'));
  private readonly level = select('filter-level', l10n.t('Group permission'));
  private readonly inactive = select('filter-inactive', l10n.t('Last active'));
  private readonly state = select('filter-state', l10n.t('State'));
  private readonly permission = select('filter-permission', l10n.t('Organisation permission'));
  private readonly sort = select('sort', l10n.t('Sort by'));
  private readonly descending = el('vscode-checkbox', { id: 'descending', label: l10n.t('Descending') });
  /** Whether the activity filters keep members not started yet (memberStates.ts); they leave them out by default. */
  private readonly notStarted = el('vscode-checkbox', {
    id: 'filter-not-started',
    label: l10n.t('Include members not started yet'),
    title: l10n.t('Never active, with their activation e-mail still to come'),
  });
  private readonly exportButton = el('vscode-button', { id: 'export', textContent: l10n.t('Export CSV…') });
  private readonly refreshButton = el('vscode-button', {
    id: 'refresh',
    secondary: true,
    textContent: l10n.t('Refresh'),
  });
  private readonly cancelButton = el('vscode-button', { id: 'cancel', secondary: true, textContent: l10n.t('Cancel') });
  private readonly bar = el('vscode-progress-bar', { id: 'progress' });
  private readonly statusText = el('span', { id: 'status', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly shownText = el('span', { id: 'shown' });
  private readonly note = el('span', { classes: ['note'], id: 'note' });
  private readonly viewport = el('div', {
    classes: ['viewport'],
    id: 'matrix',
    tabIndex: 0,
    attrs: { role: 'table', 'aria-label': l10n.t('Access matrix') },
  });
  private readonly sizer = el('div', { classes: ['sizer'] });
  private readonly head = el('div', { classes: ['head'], attrs: { role: 'row' } });
  private readonly body = el('div', { attrs: { role: 'rowgroup' } });
  /** Guests and invitations, and the members' sign-in filter (outsiders/). */
  private readonly others = new OutsidersSection(() => {
    post({ type: 'others', others: this.others.view });
    this.refilter();
  });

  start(): void {
    // A page drawn again (its tab hidden and shown, a reload) keeps the widths the user dragged to.
    this.widths = widthsOf((loadDraft(MATRIX_PAGE_STATE) as { widths?: unknown } | undefined)?.widths);
    onHostMessage((m) => {
      try {
        this.onMessage(m);
      } catch (error) {
        // Said on the page rather than lost: a blank matrix would look like an organisation without members.
        this.note.textContent = error instanceof Error ? `${error.message} ${error.stack ?? ''}` : String(error);
      }
    });
    post({ type: 'ready' });
  }

  private build(): void {
    const app = document.getElementById('app');
    if (!app) return;
    clear(app);
    app.removeAttribute('aria-busy');
    app.replaceWith(this.header());
    this.sizer.append(this.head, this.body);
    this.viewport.append(this.sizer);
    document.body.append(this.others.element, this.viewport);
    this.listen();
    for (const s of SORTS) this.sort.control.append(option(s, sortWord(s), false));
    this.level.control.append(
      option('', l10n.t('Any'), true),
      option('1', levelWord(1), false),
      option('2', levelWord(2), false),
      option('3', levelWord(3), false),
    );
    this.fixedOptions();
  }

  /** The title, the filter and action toolbar, and the status line above the matrix. */
  private header(): HTMLElement {
    return el(
      'header',
      {},
      this.title,
      el(
        'div',
        { classes: ['toolbar'] },
        el('label', {}, l10n.t('Member'), this.text),
        this.group.wrap,
        this.tag.wrap,
        this.level.wrap,
        this.inactive.wrap,
        this.others.neverControl,
        this.notStarted,
        this.state.wrap,
        this.permission.wrap,
        this.sort.wrap,
        this.descending,
        el('span', { classes: ['grow'] }),
        this.exportButton,
        this.refreshButton,
        this.cancelButton,
      ),
      el('div', { classes: ['status'] }, this.bar, this.statusText, this.shownText, this.note),
    );
  }

  /** Every filter change goes to the view; the buttons to the host; a scroll or resize redraws. */
  private listen(): void {
    this.text.addEventListener('input', () => this.changed({ text: this.text.value || undefined }));
    this.group.control.addEventListener('change', () => this.changed({ group: numberOr(this.group.control.value) }));
    this.tag.control.addEventListener('change', () => this.changed({ tag: numberOr(this.tag.control.value) }));
    this.level.control.addEventListener('change', () => this.changed({ level: numberOr(this.level.control.value) }));
    this.inactive.control.addEventListener('change', () =>
      this.changed({ inactiveDays: numberOr(this.inactive.control.value) }),
    );
    this.state.control.addEventListener('change', () =>
      this.changed({ state: MEMBER_STATES.find((x) => x === this.state.control.value) }),
    );
    this.permission.control.addEventListener('change', () =>
      this.changed({ permission: numberOr(this.permission.control.value) }),
    );
    this.sort.control.addEventListener('change', () =>
      this.changed({ sort: SORTS.find((s) => s === this.sort.control.value) ?? 'name' }),
    );
    this.descending.addEventListener('change', () =>
      this.changed({ descending: (this.descending as VscodeCheckbox).checked }),
    );
    this.notStarted.addEventListener('change', () =>
      this.changed({ notStarted: (this.notStarted as VscodeCheckbox).checked || undefined }),
    );
    this.exportButton.addEventListener('click', () =>
      post({ type: 'export', view: this.wireView(), others: this.others.view }),
    );
    this.refreshButton.addEventListener('click', () => post({ type: 'refresh' }));
    this.cancelButton.addEventListener('click', () => post({ type: 'cancel' }));
    this.viewport.addEventListener('scroll', () => this.queueDraw(), { passive: true });
    window.addEventListener('resize', () => this.queueDraw());
  }

  /** The choices of the member's own columns' filters. */
  private fixedOptions(): void {
    this.inactive.control.append(
      option('', l10n.t('Any time'), true),
      ...INACTIVE_DAYS.map((d) => option(String(d), l10n.t('Inactive {0}+ days', d), false)),
    );
    this.state.control.append(
      option('', l10n.t('Any'), true),
      ...MEMBER_STATES.map((x) => option(x, stateWord(x), false)),
    );
    this.permission.control.append(
      option('', l10n.t('Any'), true),
      ...ACCOUNT_LEVELS.map((p) => option(String(p), accountPermissionWords(p), false)),
    );
  }

  private onMessage(m: { type: string } & Record<string, unknown>): void {
    switch (m.type) {
      case 'init':
        if (m.l10n && typeof m.l10n === 'object') l10n.config({ contents: m.l10n as Record<string, string> });
        this.rows.clear();
        this.columns = [];
        this.labels = [];
        this.tags = [];
        this.build();
        this.title.textContent = withoutBidi(l10n.t('Access: {0}', String(m.title ?? '')));
        this.view = (m.view as MatrixView) ?? {};
        this.restore =
          typeof m.restore === 'object' && m.restore !== null ? (m.restore as Record<string, unknown>) : {};
        this.keep();
        this.optionsStale = true;
        this.syncControls();
        this.refilter();
        return;
      case 'setView':
        this.view = (m.view as MatrixView) ?? {};
        this.keep();
        this.syncControls();
        this.refilter();
        return;
      case 'columns':
        this.columns.splice(Number(m.from), this.columns.length, ...(m.names as string[]));
        this.labels.splice(Number(m.from), this.labels.length, ...((m.labels as string[] | undefined) ?? []));
        this.order = columnOrder(this.columns.map((c, i) => this.labels[i] ?? c));
        this.optionsStale = true;
        this.refilterSoon();
        return;
      case 'tags':
        this.tags.splice(Number(m.from), this.tags.length, ...(m.names as string[]));
        this.optionsStale = true;
        this.refilterSoon();
        return;
      case 'rows':
        for (const r of m.rows as WireRow[]) this.rows.set(r[ROW.id], r);
        this.refilterSoon();
        return;
      case 'outsiders':
        this.others.show(m as unknown as OutsidersMessage);
        this.refilterSoon();
        return;
      case 'removed':
        for (const id of m.ids as number[]) this.rows.delete(id);
        this.refilterSoon();
        return;
      case 'progress':
        this.progress = m.progress as MatrixProgress;
        this.progressAt = typeof m.now === 'number' ? m.now : Date.now();
        this.showProgress();
        // The host ends every batch with its progress: whatever came before it is drawn now, not on a timer
        // alone (a webview's timers may be held back while the workbench moves it).
        if (this.dirty) this.redrawNow();
        return;
    }
  }

  private label(column: number): string {
    return this.labels[column] ?? this.columns[column] ?? '';
  }

  private wireView(): MatrixView {
    const v = this.view;
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as MatrixView;
  }

  private changed(change: Partial<MatrixView>): void {
    this.view = { ...this.view, ...change };
    post({ type: 'view', view: this.wireView() });
    this.keep();
    this.refilter();
  }

  /** Kept by VS Code across a reload: which organisation and filter, never a row (the host has them on disk). */
  private keep(): void {
    const v = this.view;
    saveDraft(MATRIX_PAGE_STATE, {
      ...this.restore,
      view: this.wireView(),
      // Until the columns arrive (a revived page keeps its state at once), the names the host restored from stand.
      groupName: v.group !== undefined ? (this.columns[v.group] ?? this.restore.groupName) : undefined,
      tagName: v.tag !== undefined ? (this.tags[v.tag] ?? this.restore.tagName) : undefined,
      widths: this.widths,
    });
  }

  private syncControls(): void {
    this.refreshOptions();
    this.text.value = this.view.text ?? '';
    this.sort.control.value = this.view.sort ?? 'name';
    this.level.control.value = this.view.level ? String(this.view.level) : '';
    this.inactive.control.value = this.view.inactiveDays !== undefined ? String(this.view.inactiveDays) : '';
    this.state.control.value = this.view.state ?? '';
    this.permission.control.value = this.view.permission !== undefined ? String(this.view.permission) : '';
    (this.descending as VscodeCheckbox).checked = this.view.descending === true;
    (this.notStarted as VscodeCheckbox).checked = this.view.notStarted === true;
  }

  /** The group and tag choices; rebuilt only when names were added (500 options are not rebuilt per batch). */
  private refreshOptions(): void {
    if (!this.optionsStale) return;
    this.optionsStale = false;
    const g = this.group.control;
    clear(g);
    g.append(option('', l10n.t('All groups'), this.view.group === undefined));
    for (const i of this.order) g.append(option(String(i), this.label(i), this.view.group === i));
    g.value = this.view.group !== undefined ? String(this.view.group) : '';
    const t = this.tag.control;
    clear(t);
    t.append(option('', l10n.t('Any tag'), this.view.tag === undefined));
    const tagOrder = this.tags.map((_, i) => i).sort((a, b) => (this.tags[a] ?? '').localeCompare(this.tags[b] ?? ''));
    for (const i of tagOrder) t.append(option(String(i), this.tags[i] ?? '', this.view.tag === i));
    t.value = this.view.tag !== undefined ? String(this.view.tag) : '';
  }

  private redrawNow(): void {
    if (this.refilterTimer !== undefined) window.clearTimeout(this.refilterTimer);
    this.refilterTimer = undefined;
    this.dirty = false;
    try {
      // The rows first: a drop-down that fails to rebuild must not leave the matrix empty.
      this.refilter();
      this.refreshOptions();
    } catch (error) {
      this.optionsStale = true;
      this.note.textContent = error instanceof Error ? `${error.message} ${error.stack ?? ''}` : String(error);
    }
  }

  private refilterSoon(): void {
    this.dirty = true;
    if (this.refilterTimer !== undefined) return;
    this.refilterTimer = window.setTimeout(() => this.redrawNow(), REFILTER_MS);
  }

  private refilter(): void {
    this.shown = membersSigned(
      visibleRows(this.rows.values(), this.view),
      this.others.view,
      this.others.signIns,
      (r) => ({
        username: r[ROW.username],
        lastActive: r[ROW.lastActive],
      }),
    );
    this.others.setGroup(this.view.group !== undefined ? this.columns[this.view.group] : undefined);
    const columns = this.visibleColumns();
    this.sizer.style.height = `${HEAD_H + this.shown.length * ROW_H}px`;
    this.sizer.style.width = `${leftWidth(this.widths) + columns.length * this.groupWidth()}px`;
    this.shownText.textContent = l10n.t('Showing {0} of {1} members', count(this.shown.length), count(this.rows.size));
    this.viewport.setAttribute('aria-rowcount', String(this.shown.length + 1));
    this.draw();
  }

  private visibleColumns(): number[] {
    return this.view.group !== undefined ? [this.view.group] : this.order;
  }

  /** The rows and columns on screen (with overscan), from the viewport's scroll position and size. */
  private drawWindow(): DrawWindow {
    const columns = this.visibleColumns();
    const width = this.groupWidth();
    const left0 = leftWidth(this.widths);
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || 600;
    const first = Math.max(0, Math.floor((top - HEAD_H) / ROW_H) - OVERSCAN);
    const last = Math.min(this.shown.length, Math.ceil((top + height) / ROW_H) + OVERSCAN);
    const left = this.viewport.scrollLeft;
    const viewWidth = this.viewport.clientWidth || 1000;
    const firstCol = Math.max(0, Math.floor((left - left0) / width) - 1);
    const lastCol = Math.min(columns.length, Math.ceil((left + viewWidth) / width) + 1);
    const total = left0 + columns.length * width;
    return { columns, width, left: left0, first, last, firstCol, lastCol, total };
  }

  /** Draws the rows and columns on screen, and only those. */
  private draw(): void {
    const w = this.drawWindow();
    this.drawHead(w);
    clear(this.body);
    for (let i = w.first; i < w.last; i++) {
      const row = this.shown[i];
      if (!row) continue;
      this.body.append(this.drawRow(row, i, w));
    }
  }

  /** The header row: the member's own column titles, then the group columns on screen. */
  private drawHead(w: DrawWindow): void {
    clear(this.head);
    this.head.style.height = `${HEAD_H}px`;
    this.head.style.width = `${w.total}px`;
    const who = el('span', { classes: ['who'], textContent: l10n.t('Member') });
    who.append(this.resizer('who', 1));
    const fixed = fixedCells(
      [l10n.t('Last active'), l10n.t('State'), l10n.t('Organisation permission'), l10n.t('Last sign-in')],
      this.widths,
    );
    FIXED.forEach(([, kind], i) => fixed[i]?.append(this.resizer(kind, 1)));
    const headLeft = el('div', { classes: ['left'], attrs: { role: 'columnheader' } }, who, ...fixed);
    headLeft.style.width = `${w.left}px`;
    headLeft.style.height = `${HEAD_H}px`;
    headLeft.style.lineHeight = `${HEAD_H}px`;
    this.head.append(headLeft);
    for (let c = w.firstCol; c < w.lastCol; c++) {
      const column = w.columns[c];
      if (column === undefined) continue;
      const name = this.columns[column] ?? '';
      const label = this.label(column);
      const cell = el('div', {
        classes: ['cell'],
        textContent: label,
        title: withoutBidi(label === name ? name : `${label} (${name})`),
        attrs: { role: 'columnheader' },
      });
      cell.append(this.resizer('group', w.width / this.widths.group));
      place(cell, w.left + c * w.width, w.width, HEAD_H);
      this.head.append(cell);
    }
  }

  /** One member's row at index `i`: who they are, then their level in each group column on screen. */
  private drawRow(row: WireRow, i: number, w: DrawWindow): HTMLElement {
    const unread = row[ROW.readAt] === 0;
    const node = el('div', {
      classes: unread ? ['row', 'unread'] : ['row'],
      attrs: { role: 'row', 'aria-rowindex': String(i + 2), 'data-username': row[ROW.username] },
    });
    node.style.top = `${HEAD_H + i * ROW_H}px`;
    node.style.height = `${ROW_H}px`;
    node.style.width = `${w.total}px`;
    node.style.lineHeight = `${ROW_H}px`;
    node.append(rowHeader(row, this.widths, signInText(this.others.signIns, row[ROW.username])));
    for (let c = w.firstCol; c < w.lastCol; c++) {
      const column = w.columns[c];
      if (column === undefined) continue;
      const level = cellOf(row, column);
      const text = unread ? (c === w.firstCol ? l10n.t('not read yet') : '') : levelWord(level);
      const cell = el('div', {
        classes: level > 0 ? ['cell', `lvl${level}`] : ['cell'],
        textContent: text,
        title: text,
        attrs: { role: 'cell' },
      });
      place(cell, w.left + c * w.width, w.width, ROW_H);
      node.append(cell);
    }
    return node;
  }

  /** A group column's width: one group alone is drawn twice as wide. */
  private groupWidth(): number {
    return this.view.group !== undefined ? 2 * this.widths.group : this.widths.group;
  }

  /**
   * The right edge of a column's header: dragged (or moved with the arrow keys once focused), the column narrows or
   * widens, and the text it cut off shows whole. `scale`: drawn pixels per width unit (a lone group is drawn double).
   */
  private resizer(column: ColumnKind, scale: number): HTMLElement {
    const edge = el('div', {
      classes: ['resizer'],
      tabIndex: 0,
      title: l10n.t('Drag to resize the column'),
      attrs: { role: 'separator', 'aria-orientation': 'vertical', 'aria-label': l10n.t('Resize the column') },
    });
    edge.dataset.column = column;
    const set = (drawn: number): void => {
      this.widths = resizeColumn(this.widths, column, drawn / scale);
      this.refilter();
    };
    edge.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      e.stopPropagation();
      const startX = e.clientX;
      const start = this.widths[column] * scale;
      // The header is drawn again as the width changes, this edge with it: the drag follows the window instead.
      const move = (m: PointerEvent): void => set(start + m.clientX - startX);
      const up = (): void => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
        this.keep();
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
    });
    edge.addEventListener('keydown', (e) => {
      const step = e.key === 'ArrowRight' ? RESIZE_STEP : e.key === 'ArrowLeft' ? -RESIZE_STEP : 0;
      if (step === 0) return;
      e.preventDefault();
      set(this.widths[column] * scale + step);
      this.keep();
      (this.head.querySelector(`.resizer[data-column="${column}"]`) as HTMLElement | null)?.focus();
    });
    return edge;
  }

  private showProgress(): void {
    const p = this.progress;
    if (!p) return;
    const running = p.state === 'listing' || p.state === 'reading';
    this.cancelButton.hidden = !running;
    this.refreshButton.hidden = running;
    const bar = this.bar as VscodeProgressBar;
    bar.hidden = !running;
    const total = p.total ?? 0;
    if (running && total > 0) {
      bar.max = total;
      bar.value = Math.min(p.read, total);
    }
    this.statusText.textContent = statusWords(p, this.progressAt);
    this.note.textContent = p.message;
  }
}

/** The member's name and username, then their own columns, with when they were last active in the tooltip. */
function rowHeader(row: WireRow, widths: ColumnWidths, signIn: string): HTMLElement {
  const last = row[ROW.lastActive];
  const who = el(
    'div',
    { classes: ['left'], attrs: { role: 'rowheader' } },
    el(
      'span',
      { classes: ['who'] },
      el('span', { classes: ['name'], textContent: row[ROW.name] }),
      el('span', { classes: ['user'], textContent: row[ROW.username] }),
    ),
    ...fixedCells(
      [
        last >= 0 ? calendarDate(last) : l10n.t('never'),
        stateWords(row),
        accountPermissionWords(row[ROW.permission]),
        signIn,
      ],
      widths,
    ),
  );
  who.style.width = `${leftWidth(widths)}px`;
  who.title = withoutBidi(
    `${row[ROW.name]} (${row[ROW.username]})\n${l10n.t('Last active: {0}', relativeTime(row[ROW.lastActive] >= 0 ? row[ROW.lastActive] : null))}`,
  );
  return who;
}

/** The member's own columns after the name, each its fixed width (they scroll with the name, not the groups). */
function fixedCells(texts: readonly string[], widths: ColumnWidths): HTMLElement[] {
  return FIXED.map(([kind, column], i) => {
    const width = widths[column];
    const span = el('span', {
      classes: ['fixed', kind],
      textContent: texts[i] ?? '',
      title: withoutBidi(texts[i] ?? ''),
    });
    span.style.width = `${width}px`;
    return span;
  });
}

function place(cell: HTMLElement, left: number, width: number, height: number): void {
  cell.style.left = `${left}px`;
  cell.style.width = `${width}px`;
  cell.style.height = `${height}px`;
}

function numberOr(value: string): number | undefined {
  return value === '' || !Number.isFinite(Number(value)) ? undefined : Number(value);
}

export function startMatrixPage(): void {
  adoptListPageStyles(css);
  new MatrixPage().start();
}
