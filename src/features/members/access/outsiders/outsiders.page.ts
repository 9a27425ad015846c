// The access matrix page's section of guests and pending invitations (*Invited*), with its own filters, and the
// members' sign-in filter. Rows come from the host already in words; server text is set as text only (dom.ts). A
// portal that refused them is one sentence here, and the members' matrix above works as ever.
import * as l10n from '@vscode/l10n';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import { adoptStyles, clear, el } from '../../../../forms/page/dom';
import { calendarDate, count } from '../../../../shared/format';
import { withoutBidi } from '../../../../shared/plainText';
import css from './outsiders.css';
import {
  outsidersShown,
  type OthersView,
  type OutsiderRow,
  type OutsidersMessage,
  type SignInWire,
} from './outsiders.protocol';

/** Rows drawn at most; the count says how many the filter shows, and the CSV holds them all. */
const MAX_DRAWN = 500;
const OLDER_DAYS = [30, 90, 180, 365] as const;

const dayOr = (ms: number, none: string): string => (ms >= 0 ? calendarDate(ms) : none);

/** A member's sign-in cell: the day, "none since …", or '' when the audit does not tell (last active stands). */
export function signInText(signIns: SignInWire, username: string): string {
  if (!signIns.known) return '';
  const at = signIns.last[username.toLowerCase()];
  if (at !== undefined) return calendarDate(at);
  return signIns.complete ? l10n.t('none since {0}', signIns.dateStart) : l10n.t('none read');
}

function check(id: string, label: string): VscodeCheckbox {
  return el('vscode-checkbox', { id, label }) as VscodeCheckbox;
}

export class OutsidersSection {
  private rows: readonly OutsiderRow[] = [];
  signIns: SignInWire = { known: false, complete: false, dateStart: '', last: {} };
  view: OthersView = {};
  private group: string | undefined;
  private readonly summary = el('summary', { id: 'outsiders-summary', textContent: l10n.t('Guests and invitations') });
  private readonly note = el('div', { classes: ['outsiders-note'], id: 'outsiders-note', attrs: { role: 'status' } });
  private readonly kind = el('vscode-single-select', { id: 'outsiders-kind' }) as VscodeSingleSelect;
  private readonly older = el('vscode-single-select', { id: 'outsiders-older' }) as VscodeSingleSelect;
  private readonly noExpiry = check('outsiders-no-expiry', l10n.t('No expiry'));
  private readonly expired = check('outsiders-expired', l10n.t('Expired'));
  private readonly noPassword = check('outsiders-no-password', l10n.t('No password'));
  private readonly canEdit = check('outsiders-can-edit', l10n.t('Can edit'));
  private readonly never = check('filter-never-signed-in', l10n.t('Never signed in since invited/created'));
  private readonly table = el('div', {
    classes: ['outsiders-table'],
    id: 'outsiders',
    attrs: { role: 'table', 'aria-label': l10n.t('Guests and invitations') },
  });
  readonly element = el('details', { classes: ['outsiders'], id: 'outsiders-section', open: true });

  /** `changed`: a filter moved (the members' rows may change too, for the sign-in filter). */
  constructor(private readonly changed: (view: OthersView) => void) {
    adoptStyles(css);
    this.kind.append(
      el('vscode-option', { value: '', textContent: l10n.t('Guests and invited'), selected: true }),
      el('vscode-option', { value: 'guest', textContent: l10n.t('Guests') }),
      el('vscode-option', { value: 'invited', textContent: l10n.t('Invited') }),
    );
    this.older.append(
      el('vscode-option', { value: '', textContent: l10n.t('Any age'), selected: true }),
      ...OLDER_DAYS.map((d) =>
        el('vscode-option', { value: String(d), textContent: l10n.t('Older than {0} days', d) }),
      ),
    );
    const toolbar = el(
      'div',
      { classes: ['toolbar'] },
      el('label', {}, l10n.t('Who'), this.kind),
      el('label', {}, l10n.t('Created'), this.older),
      this.noExpiry,
      this.expired,
      this.noPassword,
      this.canEdit,
    );
    this.element.append(this.summary, this.note, toolbar, this.table);
    const update = () => this.set(this.read());
    for (const c of [this.kind, this.older]) c.addEventListener('change', update);
    for (const c of [this.noExpiry, this.expired, this.noPassword, this.canEdit, this.never])
      c.addEventListener('change', update);
  }

  /** The sign-in filter, for the members' toolbar. */
  get neverControl(): HTMLElement {
    return this.never;
  }

  private read(): OthersView {
    const older = Number(this.older.value);
    const kind = this.kind.value === 'guest' || this.kind.value === 'invited' ? this.kind.value : undefined;
    const v: OthersView = {
      kind,
      olderDays: this.older.value !== '' && Number.isFinite(older) ? older : undefined,
      noExpiry: this.noExpiry.checked || undefined,
      expired: this.expired.checked || undefined,
      noPassword: this.noPassword.checked || undefined,
      canEdit: this.canEdit.checked || undefined,
      neverSignedIn: this.never.checked || undefined,
    };
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as OthersView;
  }

  private set(view: OthersView): void {
    this.view = view;
    this.draw();
    this.changed(view);
  }

  show(m: OutsidersMessage): void {
    this.rows = m.rows;
    this.signIns = m.signIns;
    this.note.textContent = m.note;
    this.note.hidden = m.note === '';
    this.draw();
  }

  /** The matrix's group: only the guests of that group's content and invitations to it. */
  setGroup(group: string | undefined): void {
    if (group === this.group) return;
    this.group = group;
    this.draw();
  }

  draw(): void {
    const shown = outsidersShown(this.rows, this.view, Date.now(), this.group);
    const guests = this.rows.filter((r) => r.kind === 'guest').length;
    this.summary.textContent = l10n.t(
      'Guests ({0}) and invited ({1}): showing {2}',
      count(guests),
      count(this.rows.length - guests),
      count(shown.length),
    );
    clear(this.table);
    this.table.append(
      this.line(
        [
          l10n.t('Who'),
          l10n.t('E-mail'),
          l10n.t('What is shared or granted'),
          l10n.t('Permission'),
          l10n.t('Created or sent'),
          l10n.t('Expires'),
          l10n.t('Password'),
        ],
        'columnheader',
      ),
    );
    for (const r of shown.slice(0, MAX_DRAWN)) this.table.append(this.rowOf(r));
    if (shown.length > MAX_DRAWN)
      this.table.append(
        el('div', {
          classes: ['hint'],
          textContent: l10n.t('{0} more; Export CSV… writes them all.', count(shown.length - MAX_DRAWN)),
        }),
      );
  }

  private rowOf(r: OutsiderRow): HTMLElement {
    const none = l10n.t('not given');
    const expires =
      r.kind === 'invited'
        ? ''
        : r.expires < 0
          ? l10n.t('no expiry')
          : r.expires < Date.now()
            ? l10n.t('expired {0}', calendarDate(r.expires))
            : calendarDate(r.expires);
    const password = r.kind === 'invited' ? '' : r.password < 0 ? none : r.password ? l10n.t('set') : l10n.t('none');
    const who = r.kind === 'guest' ? l10n.t('Guest') : l10n.t('Invited');
    const node = this.line(
      [
        r.power ? l10n.t('{0} (grants power)', who) : who,
        r.email,
        r.what,
        r.permission,
        dayOr(r.created, none),
        expires,
        password,
      ],
      'cell',
    );
    node.dataset.kind = r.kind;
    node.dataset.email = r.email;
    if (r.power) node.classList.add('power');
    return node;
  }

  private line(texts: readonly string[], role: 'cell' | 'columnheader'): HTMLElement {
    return el(
      'div',
      { classes: ['outsider'], attrs: { role: 'row' } },
      ...texts.map((t) => el('span', { textContent: t, title: withoutBidi(t), attrs: { role } })),
    );
  }
}
