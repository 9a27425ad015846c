import * as vscode from 'vscode';
import { isPortalError } from '../api';
import type { FieldProblem, HostMessage } from './protocol/common';
import type { Check } from './protocol/validate';
import { namesFormFields } from './inputError';
import { formHtml, panelOptions } from './html';
import { errorMessage } from '../shared/errors';
import type { FormKey } from '../shared/keys';
import { plain } from '../shared/plainText';
import type { Ui } from '../ui/ui';

/** What a form panel needs from the extension. */
export interface FormEnv {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** For what a form tells the user outside its page (the clipboard). */
  readonly ui: () => Ui;
  /** Told when a panel opens and when it closes ("one panel per member" uses it). */
  readonly onOpen: (panel: FormPanel) => void;
  /** `unsaved`: the input the panel was closed with, neither saved nor discarded (closed by its tab's ×). */
  readonly onClose: (panel: FormPanel, unsaved?: unknown) => void;
}

/** The messages every form understands, plus the form's own. */
interface BaseCommand {
  type: string;
}

/** What a successful save reports back to the form. */
export interface SaveOutcome<State> {
  message: string;
  state: State;
}

/**
 * One open form. The subclass says how to load its state, how to save, and which message shapes it
 * accepts; this class owns everything forms have in common:
 * - the page (CSP with a nonce, resources only from dist/webview),
 * - the "ready" handshake: state is posted only once the webview's script listens, so a form is never blank,
 * - validation: a message that fails the form's validator is dropped and logged, never acted on,
 * - single flight: while a save runs, another save is dropped, so a double click sends one request,
 * - failures: the values the user sent are kept as a draft and sent back with the state after a reload.
 */
export abstract class FormPanel<State = unknown, Values = unknown, Command extends BaseCommand = BaseCommand>
  implements vscode.Disposable
{
  readonly panel: vscode.WebviewPanel;
  private readonly posted = new vscode.EventEmitter<unknown>();
  /** Every message posted to the webview, as it is posted. */
  readonly onDidPost = this.posted.event;
  /** What the user last tried to save while that save failed; sent back with the state after a reload. */
  draft: Values | undefined;
  private loading: Promise<State> | undefined;
  /** True while a request runs (single flight). */
  private running = false;
  private disposed = false;
  /** The page says its values differ from what was loaded or last saved. */
  private dirty = false;
  /** The input the page last said is unsaved, as a save would take it (a password left out). */
  private unsaved: Values | undefined;
  /** The user chose to discard the unsaved input (the form's Close), or saved it. */
  private discarded = false;
  /** The title without the unsaved marker. */
  private readonly title: string;
  private readonly disposables: vscode.Disposable[] = [];

  protected constructor(
    protected readonly env: FormEnv,
    /** A short name for logs and tests, e.g. "assignments". */
    readonly kind: string,
    /** Identifies the thing edited, so a second command for it reveals this panel instead of opening another. */
    readonly key: FormKey,
    title: string,
    private readonly validator: Check<Command>,
  ) {
    this.title = plain(title);
    this.panel = vscode.window.createWebviewPanel(
      `portal.form.${kind}`,
      this.title,
      vscode.ViewColumn.Active,
      panelOptions(env.extensionUri),
    );
    this.panel.webview.html = formHtml(this.panel.webview, env.extensionUri, kind, title);
    this.disposables.push(
      // A handler that throws outside busy()/save (a clipboard that refuses, say) is still said in the form.
      this.panel.webview.onDidReceiveMessage(
        (m: unknown) => void this.handleMessage(m).catch((err: unknown) => this.post(this.failure(err))),
      ),
      this.panel.onDidDispose(() => this.dispose()),
    );
    env.onOpen(this);
  }

  /** Loads what the form shows (called when the panel opens, and again on "reload"). */
  protected abstract load(): Promise<State>;
  /** Sends the user's values to the portal; throws a PortalError when the portal refuses. */
  protected abstract save(values: Values): Promise<SaveOutcome<State>>;
  /** Pulls the values out of a validated save message, after checking they belong to this form's context. */
  protected abstract valuesOf(command: Command): Values | string;
  /** Maps a field name of the API (e.g. "user.email", "assignGroupsRights.101") to a field id of the form. */
  protected abstract fieldOf(apiField: string): string | undefined;
  /**
   * The field a conflict (409) without field errors is about, from the values sent: a portal may answer a taken
   * name in plain text, and the form still points at the one unique field the save changed. Default: none.
   */
  protected conflictField(_values: Values): string | undefined {
    return undefined;
  }
  /** Form-specific commands other than ready, reload, close and save. */
  protected onCommand(command: Command): Promise<void> | void {
    this.warn(`no handler for "${command.type}"`);
  }
  /** Drops whatever the subclass holds that must not outlive the panel (secrets). */
  protected onDispose(): void {}
  /** What of a kept draft may go back to the webview; a form with a password field leaves it out. */
  protected draftForWebview(values: Values): Values {
    return values;
  }
  /** Runs after the state was posted (after "ready" and after a save), for messages that follow it. */
  protected afterState(): void {}

  /** Starts loading the state, so it is usually there by the time the webview says it is ready. */
  protected start(): void {
    this.loading = this.load();
    this.loading.catch(() => undefined); // reported when the webview is ready
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** The state the form was last given (tests wait on this). */
  whenLoaded(): Promise<State> {
    return this.loading ?? Promise.reject(new Error('the form was not started'));
  }

  /**
   * Every message from the webview enters here. It is validated first; anything that does not match the
   * protocol is dropped and logged (without its values). Returns when the message has been handled.
   */
  async handleMessage(raw: unknown): Promise<void> {
    if (this.disposed) return;
    const checked = this.validator(raw, '');
    if (!checked.ok) {
      this.warn(`dropped a message: ${checked.error}`);
      return;
    }
    const command = checked.value;
    switch (command.type) {
      case 'ready':
        return this.sendInit();
      case 'reload':
        this.start();
        return this.sendInit();
      case 'close':
        return this.closeAsked();
      case 'save':
        return this.runSave(command);
      case 'dirty':
        return this.takeUnsaved(command as unknown as { dirty: boolean; values?: unknown });
      default:
        return this.onCommand(command);
    }
  }

  /** As an editor tab with unsaved changes reads, so a form left half-done is noticed among the tabs. */
  private markUnsaved(dirty: boolean): void {
    this.dirty = dirty;
    this.panel.title = dirty ? `\u25CF ${this.title}` : this.title;
    if (!dirty) this.unsaved = undefined;
  }

  /** The page's unsaved input, checked as the form's save message is; what does not pass is not kept. */
  private takeUnsaved(message: { dirty: boolean; values?: unknown }): void {
    this.markUnsaved(message.dirty);
    if (!message.dirty || message.values === undefined) return;
    const checked = this.validator({ type: 'save', values: message.values }, '');
    const values = checked.ok ? this.valuesOf(checked.value) : checked.error;
    if (typeof values === 'string') this.warn(`dropped the unsaved input: ${values}`);
    else this.unsaved = this.draftForWebview(values);
  }

  /** The form's name, as its tab reads without the unsaved marker. */
  get name(): string {
    return this.title;
  }

  /** The form's Close button: with unsaved changes, only once the user says to discard them. */
  private async closeAsked(): Promise<void> {
    if (this.dirty) {
      const discard = await this.env.ui().confirm({
        id: 'form.close.unsaved',
        message: vscode.l10n.t('Close {0} and discard your unsaved changes?', this.title),
        detail: vscode.l10n.t('Nothing of them has been sent to the portal.'),
        action: vscode.l10n.t('Discard Changes'),
      });
      if (!discard) return;
    }
    this.discarded = true;
    this.panel.dispose();
  }

  reveal(): void {
    this.panel.reveal();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.onDispose();
    this.draft = undefined;
    this.env.onClose(this, this.dirty && !this.discarded ? this.unsaved : undefined);
    this.posted.dispose();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }

  protected post(message: HostMessage<State, Values> | { type: string; [key: string]: unknown }): void {
    if (this.disposed) return;
    this.posted.fire(message);
    void this.panel.webview.postMessage(message);
  }

  protected warn(what: string): void {
    this.env.log.warn(`[form ${this.kind}] ${what}`);
  }

  /**
   * Runs one request with the form marked busy, and turns a failure into a message next to the fields.
   * Used by save and by form-specific actions (e.g. rotating a secret). Single flight: a second request
   * while one runs is dropped, so a double click on Save sends one request.
   */
  protected async busy(what: string, work: () => Promise<void>): Promise<void> {
    if (this.running) {
      this.env.log.info(`[form ${this.kind}] ignored "${what}": a request is already running`);
      return;
    }
    this.running = true;
    this.post({ type: 'busy', busy: true });
    try {
      await work();
    } catch (err) {
      this.post(this.failure(err));
    } finally {
      this.running = false;
      this.post({ type: 'busy', busy: false });
    }
  }

  private async runSave(command: Command): Promise<void> {
    const values = this.valuesOf(command);
    if (typeof values === 'string') {
      this.warn(`dropped a save: ${values}`);
      return;
    }
    await this.busy('save', async () => {
      // Kept until the save succeeds, so a reloaded webview gets the user's input back, not the old state.
      this.draft = values;
      const outcome = await this.save(values);
      this.draft = undefined;
      this.loading = Promise.resolve(outcome.state);
      this.post({ type: 'saved', message: outcome.message, state: outcome.state });
      // The form now shows what was saved: nothing is unsaved until the next edit says so.
      this.markUnsaved(false);
      this.afterState();
    });
  }

  private async sendInit(): Promise<void> {
    if (!this.loading) this.start();
    try {
      const state = await this.whenLoaded();
      const l10n = vscode.l10n.bundle ?? null;
      this.post(
        this.draft === undefined
          ? { type: 'init', state, l10n }
          : { type: 'init', state, l10n, draft: this.draftForWebview(this.draft) },
      );
      this.afterState();
    } catch (err) {
      this.post({ type: 'loadFailed', message: errorMessage(err) });
    }
  }

  private failure(err: unknown): { type: 'failed'; message: string; fieldErrors: FieldProblem[] } {
    const fieldErrors: FieldProblem[] = [];
    if (isPortalError(err)) {
      const own = namesFormFields(err);
      for (const f of err.fieldErrors ?? [])
        fieldErrors.push({ field: (own ? f.field : this.fieldOf(f.field)) ?? '', message: f.message });
      const field =
        err.kind === 'conflict' && fieldErrors.length === 0 && this.draft !== undefined
          ? this.conflictField(this.draft)
          : undefined;
      if (field) fieldErrors.push({ field, message: vscode.l10n.t('The portal says this is already taken.') });
    }
    if (!isPortalError(err)) this.env.log.error(`[form ${this.kind}] ${errorMessage(err)}`);
    return { type: 'failed', message: errorMessage(err), fieldErrors };
  }
}
