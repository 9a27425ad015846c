/**
 * The part of the message protocol every form shares. Both sides import this file: the host (Node) and
 * the webview bundles (browser), so it must not import `vscode` or any Node module.
 *
 * The conversation of a form:
 *   webview → host  { type: 'ready' }                 once its script runs (and again after a reload)
 *   host → webview  { type: 'init', state, draft? }   only after 'ready', so a form is never blank
 *   webview → host  { type: 'save', values }          the form's own save message
 *   host → webview  { type: 'busy', busy }            around every request
 *   host → webview  { type: 'failed', message, fieldErrors }  the request failed; the form keeps its input
 *   host → webview  { type: 'saved', message, state }  the request succeeded; the form shows the new state
 *   webview → host  { type: 'dirty', dirty, values? }  the input differs from the state (or again matches it);
 *                                                      while it differs, the input as a save would send it
 */
import { bool, checkedLater, optional } from './validate';

/**
 * What every form's state carries besides its own fields: the reads the portal did not answer, in words ("The
 * portal did not answer the organisation read; its name is not shown."). The form shows them above its fields
 * and still works with what it could read.
 */
export interface FormStateBase {
  readonly notices: readonly string[];
}

export interface FieldProblem {
  /** A field id of the form (not the API's field name); '' when the problem is not about one field. */
  field: string;
  message: string;
}

export type HostMessage<State, Values> =
  /** `l10n`: the strings of the language VS Code runs in (null: English). */
  | { type: 'init'; state: State; draft?: Values; l10n: Record<string, string> | null }
  | { type: 'loadFailed'; message: string }
  | { type: 'busy'; busy: boolean }
  | { type: 'failed'; message: string; fieldErrors: FieldProblem[] }
  | { type: 'saved'; message: string; state: State };

/** Every form's webview can ask for these; each form adds its own commands. */
export const COMMON_COMMANDS = {
  ready: {},
  /** Asks the host to load the form's data again after a failed load. */
  reload: {},
  /** Closes the panel (the Cancel button). */
  close: {},
  /**
   * The form now differs (or no longer differs) from what was loaded or saved: the panel's title says so. While it
   * differs, `values` is the input on screen, checked by the host as the form's save message would be: a tab closed
   * by its × (which no one can stop) can then be opened again with it.
   */
  dirty: { dirty: bool, values: optional(checkedLater) },
} as const;

/** The longest a list in any message may be; the portal's pages (100 rows at most) stay far below. */
export const MAX_LIST = 5_000;

/** One option of a drop-down: the value sent back, and the words shown. */
export interface Choice<T extends string | number> {
  value: T;
  label: string;
}
