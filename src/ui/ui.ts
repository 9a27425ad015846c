/**
 * Every question the extension asks and everything it tells the user goes through one `Ui`. VS Code's is in
 * vscodeUi.ts; the in-VS-Code tests install a scripted one (testing.useUi), so no other code needs a test hook.
 * Each question has a stable id, the same in every language, by which tests answer it.
 */
import { Cancelled } from '../shared/errors';

/** Stable id of a question, e.g. 'member.delete.confirm'. */
type QuestionId = `${string}.${string}`;

export type Severity = 'info' | 'warning' | 'error';

export interface ConfirmOptions {
  readonly id: QuestionId;
  readonly message: string;
  readonly detail?: string;
  /** The button that says yes, e.g. "Move to Trash"; Cancel is always there. */
  readonly action: string;
}

export interface ChooseOptions<A extends string> {
  readonly id: QuestionId;
  readonly severity: Severity;
  /** false: a notification whose buttons the user may ignore. */
  readonly modal: boolean;
  readonly message: string;
  readonly detail?: string;
  readonly actions: ReadonlyArray<{ readonly id: A; readonly label: string }>;
}

export interface InputOptions {
  readonly id: QuestionId;
  readonly title: string;
  readonly prompt: string;
  /** An editable starting value: shown as typed, never read as markup. */
  readonly value?: string;
  readonly placeHolder?: string;
  readonly password?: boolean;
  /** A problem with the text, or undefined when it is acceptable. */
  readonly validate?: (value: string) => string | undefined;
}

export interface PickItem<T> {
  readonly label: string;
  /** A codicon id shown before the label: the only way an icon reaches a label (text is never read as $(…)). */
  readonly icon?: string;
  readonly description?: string;
  readonly detail?: string;
  /** pickMany: selected when it opens. */
  readonly picked?: boolean;
  readonly value: T;
  /** search: the row's other actions, as buttons on it; pressing one answers the pick with that button's value. */
  readonly buttons?: readonly PickButton<T>[];
}

export interface PickButton<T> {
  /** A codicon id. */
  readonly icon: string;
  readonly tooltip: string;
  readonly value: T;
}

export interface PickOptions {
  readonly id: QuestionId;
  readonly title?: string;
  readonly placeHolder: string;
  readonly matchOnDescription?: boolean;
  readonly matchOnDetail?: boolean;
}

/** Rows for what the user typed, in one or more batches; aborted when the text changes or the pick closes. */
export type SearchSource<T> = (text: string, signal: AbortSignal) => AsyncIterable<readonly PickItem<T>[]>;

export interface SearchOptions extends PickOptions {
  /** Quiet time after a keystroke before the source is asked. */
  readonly debounceMs?: number;
}

export interface PickOrCreateOptions extends PickOptions {
  /** The row offered for the text typed so far, e.g. `Create tag "{0}"`; shown as the user types. */
  readonly createLabel: (typed: string) => string;
  /** A problem with the typed text as a new name, or undefined when it is acceptable. */
  readonly validate?: (typed: string) => string | undefined;
}

export interface ProgressOptions {
  readonly id: QuestionId;
  readonly title: string;
  readonly where: 'notification' | 'window' | { readonly view: string };
  readonly cancellable?: boolean;
}

export interface Progress {
  report(step: { readonly message?: string; readonly increment?: number }): void;
}

export interface FolderOptions {
  readonly id: QuestionId;
  readonly title: string;
  readonly openLabel: string;
  /**
   * The local folder the dialog opens in. Left out, VS Code opens the last folder any dialog showed, which may be
   * the extension's own storage (a report opened from there).
   */
  readonly start?: string;
}

export interface SaveOptions {
  readonly id: QuestionId;
  readonly title: string;
  readonly defaultName: string;
  /** "CSV files" → ['csv']. */
  readonly filters: Readonly<Record<string, readonly string[]>>;
}

export interface Ui {
  /** A modal warning with one action besides Cancel; true when the user chose it. */
  confirm(o: ConfirmOptions): Promise<boolean>;
  /** The action chosen, undefined when dismissed (or, non-modal, when nobody clicked). */
  choose<A extends string>(o: ChooseOptions<A>): Promise<A | undefined>;
  input(o: InputOptions): Promise<string | undefined>;
  pick<T>(items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>, o: PickOptions): Promise<T | undefined>;
  pickMany<T>(
    items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>,
    o: PickOptions,
  ): Promise<T[] | undefined>;
  /**
   * One of the names offered, or a new one: what the user types appears at once as its own row (createLabel), so
   * Enter on a name nobody has yet makes it. Resolves with the name chosen or typed.
   */
  pickOrCreate(
    items: readonly PickItem<string>[] | Promise<readonly PickItem<string>[]>,
    o: PickOrCreateOptions,
  ): Promise<string | undefined>;
  /** A pick whose rows come from the portal as the user types. */
  search<T>(source: SearchSource<T>, o: SearchOptions): Promise<T | undefined>;
  /** Runs the task; with `cancellable`, the signal aborts when the user cancels, and the task must stop and clean up. */
  progress<R>(o: ProgressOptions, task: (progress: Progress, signal: AbortSignal) => Promise<R>): Promise<R>;
  /** A local folder's absolute path; a folder that is not on this machine is refused with a message. */
  pickFolder(o: FolderOptions): Promise<string | undefined>;
  /** Local files' absolute paths (one or more); files that are not on this machine are refused with a message. */
  pickFiles(o: FolderOptions): Promise<string[] | undefined>;
  /** A local file's absolute path to write to. */
  saveFile(o: SaveOptions): Promise<string | undefined>;
  /** A message without buttons; does not wait. */
  notify(severity: Severity, message: string): void;
  /** A short status bar message for a change the user just made. */
  status(message: string, ms?: number): void;
  copy(text: string): Promise<void>;
}

/** The Ui in use: VS Code's, or a test's. One instance, made in activate(); everything asks it for the Ui each time. */
export class UiSlot {
  private current: Ui;

  constructor(
    private readonly real: Ui,
    private readonly wrap: (ui: Ui) => Ui = (ui) => ui,
  ) {
    this.current = wrap(real);
  }

  readonly get = (): Ui => this.current;

  /** A test's Ui, or VS Code's again (undefined). */
  use(ui: Ui | undefined): void {
    this.current = this.wrap(ui ?? this.real);
  }
}

/** A withheld answer (Escape, Cancel) ends the command quietly: throws Cancelled, which the command wrapper swallows. */
export function answered<T>(value: T | undefined): T {
  if (value === undefined) throw new Cancelled();
  return value;
}
