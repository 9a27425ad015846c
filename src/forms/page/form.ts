// The webview half of every form: the handshake, rendering on "init", busy state, errors next to fields,
// keeping the user's input across failures and reloads, and one Save at a time.
import * as l10n from '@vscode/l10n';
import './elements';
import css from './form.css';
import type { FieldProblem, FormStateBase } from '../protocol/common';
import { adoptStyles, append, clear, el, focusWhenReady, REQUIRED_ATTR, type Child } from './dom';
import { clearDraft, loadDraft, onHostMessage, post, saveDraft } from './host';

/** How long a request may wait for the host's first answer before the form gives up on it. */
const ACCEPT_TIMEOUT_MS = 8_000;

const ICONS = { ok: '\u2713', error: '\u2715', warn: '!' } as const;

/** The forms' look; the access matrix builds on it too. */
export function adoptFormStyles(): void {
  adoptStyles(css);
}

/** A field the form can point an error at. */
interface FieldSlot {
  control: HTMLElement & { invalid?: boolean };
  error: HTMLElement;
}

/** The Close button's id: it stays usable while a request runs, and a page can tell a click on it apart. */
export const CLOSE_ID = 'close';

function closeButton(): HTMLElement {
  const button = el('vscode-button', {
    secondary: true,
    textContent: l10n.t('Close'),
    on: { click: () => post({ type: 'close' }) },
  });
  button.id = CLOSE_ID;
  return button;
}

/** Makes l10n.t answer in the language of the bundle the host sent (none: English). */
function useBundle(bundle: unknown): void {
  if (typeof bundle === 'object' && bundle !== null) l10n.config({ contents: bundle as Record<string, string> });
}

/** A form's content, and how to read back what the user entered into it (in the shape of the save message). */
export interface Rendered<Values> {
  readonly nodes: Child[];
  read(): Values;
}

interface FormDefinition<State extends FormStateBase, Values> {
  /** Which record a locally kept draft belongs to; a draft of another record is never applied. */
  draftKey(state: State): string;
  /**
   * Builds the form's content for this state, starting from these values (the user's kept input after a
   * failure or reload, else the state's own values): the nodes to show above the buttons.
   */
  render(form: FormView<State, Values>, state: State, values: Values): Rendered<Values>;
  /** What may be kept in the webview's state: the values minus anything secret. Default: all of them. */
  persistable?(values: Values): unknown;
  /** The state's own values, used when there is no draft. */
  valuesOf(state: State): Values;
  /** Label of the primary button; undefined for a form (or a state) without Save. */
  saveLabel?(state: State): string | undefined;
  /** Extra host messages this form understands (e.g. credentials of a new application). */
  onMessage?(form: FormView<State, Values>, message: { type: string } & Record<string, unknown>): void;
}

export class FormView<State extends FormStateBase, Values> {
  private readonly root: HTMLElement;
  private readonly banner = el('div', {
    classes: ['banner'],
    hidden: true,
    attrs: { role: 'status', 'aria-live': 'polite' },
  });
  /** What the portal did not answer: stays while the state says so, whatever the banner shows after a save. */
  private readonly notices = el('div', {
    classes: ['banner', 'warn', 'notices'],
    id: 'notices',
    hidden: true,
    attrs: { role: 'note' },
  });
  private readonly fields = new Map<string, FieldSlot>();
  /** Says the form differs from what was last loaded or saved; the panel's title carries "●" meanwhile. */
  private readonly unsaved = el('span', { classes: ['unsaved'], id: 'unsaved', hidden: true });
  /** The values as loaded or saved, to tell an edit from a change back. */
  private baseline = '';
  private dirty = false;
  private saveButton: HTMLElement | undefined;
  private readonly busyRing = el('vscode-progress-ring', { hidden: true });
  private busy = false;
  private state: State | undefined;
  /** Reads what the user entered into the form on screen. */
  private read: () => Values = () => {
    throw new Error('the form is not rendered yet');
  };
  /** Set while a request waits for the host to accept it (its first "busy"). */
  private acceptTimer: number | undefined;

  constructor(private readonly def: FormDefinition<State, Values>) {
    adoptFormStyles();
    const root = document.getElementById('app');
    if (!root) throw new Error('the page has no #app element');
    this.root = root;
    onHostMessage((m) => this.onMessage(m));
    // Ctrl/Cmd+Enter saves from any field, as in VS Code's own input boxes.
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && this.canSave()) {
        e.preventDefault();
        this.save();
      }
    });
    // Any edit is kept in the webview's state, so it survives VS Code unloading a hidden panel.
    const keep = (): void => {
      this.keepDraft();
      this.markUnsaved();
    };
    // Captured: the drop-downs' change and input events do not bubble.
    document.addEventListener('input', keep, true);
    document.addEventListener('change', keep, true);
    post({ type: 'ready' });
  }

  /** Registers a control so server errors for `id` appear under it. Returns the error element to place. */
  field(id: string, control: HTMLElement & { invalid?: boolean }): HTMLElement {
    const error = el('div', { classes: ['field-error'], id: `${id}-error`, attrs: { 'aria-live': 'polite' } });
    this.fields.set(id, { control, error });
    return error;
  }

  /** A banner message: 'error' for failures, 'ok' for success, 'warn' for things to notice. */
  say(kind: 'error' | 'ok' | 'warn', text: string): void {
    this.banner.className = `banner ${kind}`;
    this.banner.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    clear(this.banner);
    // A status line, not a box: an icon says how it went, so it cannot be taken for a field.
    append(
      this.banner,
      el('span', { classes: ['icon'], textContent: ICONS[kind], attrs: { 'aria-hidden': 'true' } }),
      text,
    );
    this.banner.hidden = text === '';
  }

  /** Primary and secondary buttons; Save is disabled while a request runs. */
  actions(...extra: Child[]): HTMLElement {
    const row = el('div', { classes: ['actions'] });
    const label = this.state && this.def.saveLabel?.(this.state);
    if (label) {
      this.saveButton = el('vscode-button', { textContent: label, on: { click: () => this.save() } });
      this.saveButton.id = 'save';
      append(row, this.saveButton);
    }
    this.unsaved.textContent = l10n.t('Unsaved changes');
    append(row, ...extra, closeButton(), this.busyRing, label ? this.unsaved : null);
    return row;
  }

  /** Adds nodes below the form. */
  show(...nodes: Child[]): void {
    append(this.root, ...nodes);
  }

  /**
   * Puts `node` right under the page's heading with the form's own buttons hidden, so what it holds is seen
   * first and its own buttons are the only way on (a one-time secret). Returns how to put the page back.
   */
  showFirst(node: HTMLElement): () => void {
    const heading = this.root.querySelector('.subtitle') ?? this.root.querySelector('h1');
    if (heading) heading.after(node);
    else this.root.prepend(node);
    this.root.classList.add('actions-hidden');
    return () => {
      node.remove();
      this.root.classList.remove('actions-hidden');
    };
  }

  private canSave(): boolean {
    return this.state !== undefined && Boolean(this.def.saveLabel?.(this.state));
  }

  /** Sends the form's values, once: a second click while a save runs does nothing. */
  save(): void {
    if (this.busy || !this.state || !this.canSave()) return;
    // A required field shows as missing once the user tried to save, not before.
    for (const c of this.root.querySelectorAll<HTMLElement & { required: boolean }>(`[${REQUIRED_ATTR}]`))
      c.required = true;
    this.setBusy(true);
    this.clearErrors();
    this.say('ok', '');
    post({ type: 'save', values: this.read() });
    this.expectAnswer();
  }

  /** For form-specific buttons: sends a command with the form marked busy until the host answers. */
  send(message: { type: string; [key: string]: unknown }): void {
    if (this.busy) return;
    this.setBusy(true);
    post(message);
    this.expectAnswer();
  }

  /**
   * The host answers an accepted request with "busy" at once and drops one it refuses without a word (a
   * webview cannot be trusted to hear why). So if no answer comes, the form unlocks and says so instead of
   * spinning forever.
   */
  private expectAnswer(): void {
    window.clearTimeout(this.acceptTimer);
    this.acceptTimer = window.setTimeout(() => {
      this.setBusy(false);
      this.say('error', l10n.t('The request was not accepted. Close the form and open it again.'));
    }, ACCEPT_TIMEOUT_MS);
  }

  private onMessage(m: { type: string } & Record<string, unknown>): void {
    if (m.type !== 'init') window.clearTimeout(this.acceptTimer);
    switch (m.type) {
      case 'init': {
        // The host sends the strings of the language VS Code runs in; before the first render, so every word is in it.
        useBundle(m.l10n);
        const state = m.state as State;
        const key = this.def.draftKey(state);
        const kept = (m.draft as Values | undefined) ?? (loadDraft(key) as Values | undefined);
        this.render(state, kept ?? this.def.valuesOf(state));
        this.focusFirstField();
        if (kept !== undefined)
          this.say('warn', l10n.t('Your unsaved changes were kept. Save to send them, or close to discard them.'));
        return;
      }
      case 'loadFailed':
        this.renderLoadFailed(String(m.message));
        return;
      case 'busy':
        this.setBusy(m.busy === true);
        return;
      case 'failed':
        this.showFailure(String(m.message), Array.isArray(m.fieldErrors) ? (m.fieldErrors as FieldProblem[]) : []);
        return;
      case 'saved': {
        clearDraft();
        const state = m.state as State;
        this.render(state, this.def.valuesOf(state));
        this.say('ok', String(m.message));
        return;
      }
      default:
        this.def.onMessage?.(this, m);
    }
  }

  private render(state: State, values: Values): void {
    this.state = state;
    this.fields.clear();
    this.saveButton = undefined;
    clear(this.root);
    this.root.classList.remove('actions-hidden');
    this.root.setAttribute('aria-busy', 'false');
    const content = this.def.render(this, state, values);
    this.read = () => content.read();
    clear(this.notices);
    append(this.notices, ...state.notices.map((n) => el('p', { textContent: n })));
    this.notices.hidden = state.notices.length === 0;
    append(this.root, this.notices, this.banner, ...content.nodes);
    this.say('ok', '');
    // Read back from the controls when they show the state, so a control's own spelling of a value is no change.
    const own = this.def.valuesOf(state);
    this.baseline = JSON.stringify(JSON.stringify(values) === JSON.stringify(own) ? this.read() : own);
    this.markUnsaved();
  }

  /** On open, typing goes to the first field, as in VS Code's own input boxes. */
  private focusFirstField(): void {
    focusWhenReady(this.fields.values().next().value?.control);
  }

  /** The input last told to the host as unsaved ('' when none). */
  private told = '';

  private markUnsaved(): void {
    const now = this.state !== undefined && this.canSave() ? JSON.stringify(this.read()) : this.baseline;
    const dirty = now !== this.baseline;
    this.unsaved.hidden = !dirty;
    // The host keeps the latest unsaved input, so a tab closed by its × can be opened again with it.
    const told = dirty ? now : '';
    if (dirty === this.dirty && told === this.told) return;
    this.dirty = dirty;
    this.told = told;
    post(dirty ? { type: 'dirty', dirty, values: this.read() } : { type: 'dirty', dirty });
  }

  private renderLoadFailed(message: string): void {
    clear(this.root);
    this.root.setAttribute('aria-busy', 'false');
    append(
      this.root,
      this.banner,
      el(
        'div',
        { classes: ['actions'] },
        el('vscode-button', { textContent: l10n.t('Try again'), on: { click: () => post({ type: 'reload' }) } }),
        closeButton(),
      ),
    );
    this.say('error', l10n.t('The form could not be loaded: {0}', message));
  }

  private showFailure(message: string, problems: FieldProblem[]): void {
    this.clearErrors();
    const general: string[] = [];
    let first: HTMLElement | undefined;
    for (const p of problems) {
      const slot = this.fields.get(p.field);
      if (!slot) {
        general.push(p.message);
        continue;
      }
      slot.control.invalid = true;
      slot.error.textContent = slot.error.textContent ? `${slot.error.textContent} ${p.message}` : p.message;
      first ??= slot.control;
    }
    this.say('error', [message, ...general.filter((g) => !message.includes(g))].join(' '));
    // Keyboard users land on the first field to fix; otherwise the alert is announced where they are.
    first?.focus();
  }

  private clearErrors(): void {
    for (const { control, error } of this.fields.values()) {
      control.invalid = false;
      error.textContent = '';
    }
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    this.busyRing.hidden = !busy;
    this.root.setAttribute('aria-busy', String(busy));
    this.busyRing.setAttribute('aria-label', l10n.t('Saving'));
    for (const b of this.root.querySelectorAll('vscode-button'))
      (b as HTMLElement & { disabled: boolean }).disabled = busy && b.id !== CLOSE_ID;
  }

  private keepDraft(): void {
    if (!this.state || !this.canSave()) return;
    const values = this.read();
    saveDraft(this.def.draftKey(this.state), this.def.persistable ? this.def.persistable(values) : values);
  }
}
