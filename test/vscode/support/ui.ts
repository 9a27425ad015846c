/**
 * A Ui that answers from a script, for the in-VS-Code suites: the extension asks its questions through it
 * (testing.useUi) instead of VS Code's dialogs, and the suite reads what was asked, told, refused and copied.
 * Texts arrive as the extension hands them to VS Code: already made plain.
 */
import type {
  ChooseOptions,
  ConfirmOptions,
  FolderOptions,
  InputOptions,
  PickItem,
  PickOptions,
  PickOrCreateOptions,
  Progress,
  ProgressOptions,
  SaveOptions,
  SearchOptions,
  SearchSource,
  Severity,
  Ui,
} from '../../../src/ui/ui';
import { observeUi } from './commandAudit';
import { portalApi } from './extension';

/** The answer "Escape": the question is dismissed. */
export const DISMISS: unique symbol = Symbol('dismiss');

/**
 * - confirm: true / false; choose: an action id; input, folder, save: the text or path;
 * - pick, pickMany, search: a label, an index, or a predicate on the item's value (pickMany: every match);
 * - search: also `{ search, pick }`, the text typed first; `{ search, pick, button }`, the button of that row with this
 *   tooltip is pressed instead of Enter; `{ search, closeAfterBatches }`, the user closes the pick after that many
 *   batches of rows have arrived (the search's signal aborts);
 * - progress: `{ cancelAfterReports }`, the user cancels after that many reports;
 * - a function (confirm, choose, input): computes the answer from the question;
 * - DISMISS for any of them.
 */
export type Answer =
  | string
  | number
  | boolean
  | typeof DISMISS
  | ((question: never) => unknown)
  | {
      readonly search: string;
      readonly pick: string | number | ((value: never) => boolean);
      readonly button?: string;
    }
  | { readonly search: string; readonly closeAfterBatches: number }
  | { readonly cancelAfterReports: number };

export type Answers = Readonly<Record<string, Answer | readonly Answer[]>>;

export interface Asked {
  readonly id: string;
  readonly kind: 'confirm' | 'choose' | 'input' | 'pick' | 'pickMany' | 'search' | 'folder' | 'save' | 'progress';
  /** Every user-visible string of the question. */
  readonly texts: string[];
  /** The labels offered, for picks. */
  items?: readonly string[];
  /** The question's title, where it has one (picks, inputs, searches, file dialogs). */
  title?: string;
  /** The text an input box started with; the folder a file dialog opened in. */
  readonly value?: string;
  /** search: the rows of each batch as it arrived. */
  batches?: number[];
}

export class NotScripted extends Error {
  override readonly name = 'NotScripted';
}

/** What a person reads: the label without the invisible breaks that defuse links and icons. */
export const visible = (text: string): string => text.replace(/\u200b/g, '');

const defined = (...texts: Array<string | undefined>): string[] =>
  texts.filter((t): t is string => t !== undefined && t !== '');

export class ScriptedUi implements Ui {
  readonly asked: Asked[] = [];
  readonly told: Array<{ severity: Severity | 'status'; text: string }> = [];
  readonly copied: string[] = [];
  readonly refused: Array<{ id: string; value: string; problem: string }> = [];
  /** Questions that had no answer (each also threw NotScripted into the extension). */
  readonly unanswered: string[] = [];
  /** Answers that ended a question without a choice: dismissed, declined, refused, cancelled (the command audit reads it). */
  withheld = 0;
  private readonly script = new Map<string, Answer | readonly Answer[]>();
  private readonly used = new Map<string, number>();

  constructor(answers: Answers) {
    for (const [id, answer] of Object.entries(answers)) this.script.set(id, answer);
  }

  /** The ids asked, in order (progress left out, and notifications with buttons nobody was scripted to click). */
  get questions(): string[] {
    return this.asked.filter((a) => a.kind !== 'progress' && !this.notices.has(a)).map((a) => a.id);
  }

  /** Non-modal chooses no script answers: notifications whose buttons (Undo, Retry) nobody has to click. */
  private readonly notices = new Set<Asked>();

  /** Fails when a question had no answer, or (with `all`) an answer was never used up. */
  assertDone(all = true): void {
    if (this.unanswered.length > 0) throw new NotScripted(`not scripted: ${this.unanswered.join('; ')}`);
    if (!all) return;
    for (const [id, answer] of this.script) {
      const n = this.used.get(id) ?? 0;
      const wanted = Array.isArray(answer) ? answer.length : 1;
      if (n < wanted)
        throw new Error(`answer for "${id}" was used ${n} of ${wanted} times; asked: ${this.questions.join(', ')}`);
    }
  }

  async confirm(o: ConfirmOptions): Promise<boolean> {
    const q = this.ask(o.id, 'confirm', defined(o.message, o.detail, o.action));
    const a = this.answer(q);
    return this.unless((typeof a === 'function' ? (a as (q: Asked) => unknown)(q) : a) === true, false);
  }

  async choose<A extends string>(o: ChooseOptions<A>): Promise<A | undefined> {
    const q = this.ask(o.id, 'choose', defined(o.message, o.detail, ...o.actions.map((x) => x.label)));
    if (!o.modal && !this.script.has(o.id)) {
      // A notification nobody has to answer: what it tells is told, like notify's.
      this.notices.add(q);
      this.told.push({ severity: o.severity, text: o.message });
    }
    // Nobody clicks a notification's button unless the script says so.
    const a = o.modal || this.script.has(o.id) ? this.answer(q) : DISMISS;
    const id = typeof a === 'function' ? (a as (q: Asked) => unknown)(q) : a;
    const chosen = o.actions.find((x) => x.id === id)?.id;
    // An ignored notification is not a withheld answer: nobody has to click it.
    return o.modal || this.script.has(o.id) ? this.unless(chosen, undefined) : chosen;
  }

  async input(o: InputOptions): Promise<string | undefined> {
    const q = this.ask(o.id, 'input', defined(o.title, o.prompt, o.placeHolder), o.value);
    q.title = o.title;
    const a = this.answer(q);
    const value = typeof a === 'function' ? (a as (q: Asked) => unknown)(q) : a;
    if (typeof value !== 'string') return this.unless(undefined, undefined);
    const problem = o.validate?.(value);
    if (problem) {
      q.texts.push(problem);
      this.refused.push({ id: o.id, value, problem });
      return this.unless(undefined, undefined);
    }
    return value;
  }

  async pick<T>(
    items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>,
    o: PickOptions,
  ): Promise<T | undefined> {
    const list = await items;
    const q = this.askPick(o, 'pick', list);
    return this.unless(this.choice(this.answer(q), list)[0]?.value, undefined);
  }

  async pickMany<T>(
    items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>,
    o: PickOptions,
  ): Promise<T[] | undefined> {
    const list = await items;
    const q = this.askPick(o, 'pickMany', list);
    const a = this.answer(q);
    return this.unless(a === DISMISS ? undefined : this.choice(a, list).map((i) => i.value), undefined);
  }

  /**
   * A string answer is what the user types: a name offered is picked, another is made (after its check), and the
   * row the pick showed for it is recorded among the items; a predicate or index picks an offered name.
   */
  async pickOrCreate(
    items: readonly PickItem<string>[] | Promise<readonly PickItem<string>[]>,
    o: PickOrCreateOptions,
  ): Promise<string | undefined> {
    const list = await items;
    const q = this.askPick(o, 'pick', list);
    const a = this.answer(q);
    if (typeof a !== 'string') return this.unless(this.choice(a, list)[0]?.value, undefined);
    const typed = a.trim();
    const offered = list.find((i) => i.value === typed);
    if (offered) return offered.value;
    const create = o.createLabel(typed);
    q.items = [create, ...(q.items ?? [])];
    q.texts.push(create);
    const problem = o.validate?.(typed);
    if (problem) {
      q.texts.push(problem);
      this.refused.push({ id: o.id, value: typed, problem });
      return this.unless(undefined, undefined);
    }
    return typed;
  }

  async search<T>(source: SearchSource<T>, o: SearchOptions): Promise<T | undefined> {
    const q = this.ask(o.id, 'search', defined(o.title, o.placeHolder));
    if (o.title !== undefined) q.title = o.title;
    const a = this.answer(q);
    if (a === DISMISS) return this.unless(undefined, undefined);
    const scripted = typeof a === 'object' && a !== null && 'search' in a ? a : { search: '', pick: a };
    const closeAfter = 'closeAfterBatches' in scripted ? scripted.closeAfterBatches : undefined;
    const list: PickItem<T>[] = [];
    const closed = new AbortController();
    q.batches = [];
    for await (const batch of source(scripted.search, closed.signal)) {
      list.push(...batch);
      q.batches.push(batch.length);
      if (closeAfter !== undefined && q.batches.length >= closeAfter) break;
    }
    // Closing the pick aborts its search, as VS Code's quick pick does.
    closed.abort();
    q.items = list.map((i) => i.label);
    if (closeAfter !== undefined) return undefined;
    q.texts.push(
      ...list.flatMap((i) => defined(i.label, i.description, i.detail, ...(i.buttons ?? []).map((b) => b.tooltip))),
    );
    const { pick, button } = scripted as { pick: Answer; button?: string };
    const row = this.choice(pick, list)[0];
    if (button === undefined) return this.unless(row?.value, undefined);
    const pressed = row?.buttons?.find((b) => b.tooltip === button || visible(b.tooltip) === button);
    if (row && !pressed) throw new NotScripted(`${o.id}: the row ${row.label} has no button ${button}`);
    return this.unless(pressed?.value, undefined);
  }

  async progress<R>(o: ProgressOptions, task: (progress: Progress, signal: AbortSignal) => Promise<R>): Promise<R> {
    const q = this.ask(o.id, 'progress', defined(o.title));
    const a = this.script.has(o.id) ? this.answer(q) : undefined;
    const cancelAfter =
      typeof a === 'object' && a !== null && 'cancelAfterReports' in a ? a.cancelAfterReports : undefined;
    const controller = new AbortController();
    let reports = 0;
    return task(
      {
        report: (step) => {
          if (step.message) q.texts.push(step.message);
          reports++;
          if (cancelAfter !== undefined && reports >= cancelAfter && !controller.signal.aborted) {
            this.withheld++;
            controller.abort();
          }
        },
      },
      controller.signal,
    );
  }

  async pickFolder(o: FolderOptions): Promise<string | undefined> {
    const a = this.answer(this.ask(o.id, 'folder', defined(o.title, o.openLabel), o.start));
    return this.unless(typeof a === 'string' ? a : undefined, undefined);
  }

  /** Answered with the paths joined by newlines. */
  async pickFiles(o: FolderOptions): Promise<string[] | undefined> {
    const a = this.answer(this.ask(o.id, 'folder', defined(o.title, o.openLabel), o.start));
    return this.unless(typeof a === 'string' ? a.split('\n') : undefined, undefined);
  }

  async saveFile(o: SaveOptions): Promise<string | undefined> {
    const a = this.answer(this.ask(o.id, 'save', defined(o.title, o.defaultName)));
    return this.unless(typeof a === 'string' ? a : undefined, undefined);
  }

  notify(severity: Severity, message: string): void {
    this.told.push({ severity, text: message });
  }

  status(message: string): void {
    this.told.push({ severity: 'status', text: message });
  }

  async copy(text: string): Promise<void> {
    this.copied.push(text);
  }

  /** The answer, counting it as withheld when it is the "no choice" value. */
  private unless<V>(value: V, none: V): V {
    if (value === none) this.withheld++;
    return value;
  }

  private ask(id: string, kind: Asked['kind'], texts: string[], value?: string): Asked {
    const q: Asked = { id, kind, texts, ...(value !== undefined ? { value } : {}) };
    this.asked.push(q);
    return q;
  }

  private askPick<T>(o: PickOptions, kind: 'pick' | 'pickMany', list: readonly PickItem<T>[]): Asked {
    const q = this.ask(
      o.id,
      kind,
      defined(o.title, o.placeHolder, ...list.flatMap((i) => defined(i.label, i.description, i.detail))),
    );
    q.items = list.map((i) => i.label);
    if (o.title !== undefined) q.title = o.title;
    return q;
  }

  /** The next answer for a question; none is an error the suite sees (a test never waits for a human). */
  private answer(q: Asked): Answer {
    const scripted = this.script.get(q.id);
    const n = this.used.get(q.id) ?? 0;
    const answer = Array.isArray(scripted) ? (scripted as readonly Answer[])[n] : (scripted as Answer | undefined);
    if (answer === undefined) {
      this.unanswered.push(`${q.id}: ${q.texts.map(visible).join(' | ')}`);
      throw new NotScripted(`no answer scripted for ${q.id}`);
    }
    this.used.set(q.id, n + 1);
    return answer;
  }

  /** The items an answer names: by label (as shown or as read), by index, or by a predicate on the value. */
  private choice<T>(a: Answer, list: readonly PickItem<T>[]): PickItem<T>[] {
    if (typeof a === 'string') return list.filter((i) => i.label === a || visible(i.label) === a).slice(0, 1);
    if (typeof a === 'number') return list[a] ? [list[a]] : [];
    if (typeof a === 'function') return list.filter((i) => (a as (v: T) => boolean)(i.value));
    return [];
  }
}

/** Installs a scripted Ui for one test body and VS Code's again afterwards; fails when the script was not used up. */
export async function withUi<T>(
  answers: Answers,
  body: (ui: ScriptedUi) => PromiseLike<T>,
  options: { allUsed?: boolean } = {},
): Promise<T> {
  const api = await portalApi();
  const ui = new ScriptedUi(answers);
  api.testing.useUi(ui);
  observeUi(ui);
  try {
    const result = await body(ui);
    ui.assertDone(options.allUsed !== false);
    return result;
  } finally {
    observeUi(undefined);
    api.testing.useUi(undefined);
  }
}
