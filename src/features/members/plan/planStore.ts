/**
 * What the plan feature remembers while VS Code runs: the plan on show (and which changes the user left out), the
 * last portal read of each members file (for the hover and the group checks), and the last apply's report (for
 * Retry Failed). Which organisation a file belongs to survives a restart, in globalState: no secret, no server
 * text but the organisation's label.
 */
import * as vscode from 'vscode';
import type { AccountRef } from '../../../shared/refs';
import { allChanges, type FilePlan, type PortalState, type ReportRow } from './core/model';

export interface ShownPlan {
  readonly plan: FilePlan;
  readonly account: AccountRef;
  /** The members file the plan came from (undefined for undo, retry, re-create and chat's proposals). */
  readonly file: vscode.Uri | undefined;
  /** Chat's tool made it from rows a language model wrote: the Plan view and the Apply confirmation say so. */
  readonly proposedInChat: boolean;
  /** Change ids the user left out (starts as the plan's leftOutByDefault). */
  readonly leftOut: Set<string>;
  /** The file changed since the plan read it: the plan is out of date, and Apply refuses it. */
  stale: boolean;
}

export interface LastApply {
  readonly plan: FilePlan;
  readonly account: AccountRef;
  readonly rows: readonly ReportRow[];
  readonly report: vscode.Uri;
}

const FILE_ACCOUNTS = 'portal.plan.fileAccounts';
const MAX_FILE_ACCOUNTS = 50;
/** `made`: the extension wrote the file from what it read of the portal (an import, a new file), not an export. */
type StoredAccount = { portalId: string; accountId: number; label: string; made?: true };

export class PlanStore implements vscode.Disposable {
  private shown: ShownPlan | undefined;
  private applied: LastApply | undefined;
  private readonly states = new Map<string, { account: AccountRef; state: PortalState }>();
  /** Labels of the organisations plans were shown for in this window: an undo from the history names its own. */
  private readonly shownLabels = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly stateRead = new vscode.EventEmitter<vscode.Uri>();
  /** The plan, or what is left out of it, changed. */
  readonly onDidChange = this.changed.event;
  /** A members file's portal state was read (diagnostics can check groups and new members now). */
  readonly onDidReadState = this.stateRead.event;
  private readonly appliedEmitter = new vscode.EventEmitter<LastApply>();
  /** A plan was applied and its report written (not a resume: its plan object is gone with the window). */
  readonly onDidApply = this.appliedEmitter.event;

  private readonly watch: vscode.Disposable;

  constructor(private readonly memento: vscode.Memento) {
    // Any edit of the planned file's text makes the plan out of date, whatever it changes.
    this.watch = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) this.markStale(e.document.uri);
    });
  }

  /** Marks the plan on show out of date when it came from `file`. */
  markStale(file: vscode.Uri): void {
    const shown = this.shown;
    if (!shown || shown.stale || shown.file?.toString() !== file.toString()) return;
    shown.stale = true;
    this.update();
  }

  get plan(): ShownPlan | undefined {
    return this.shown;
  }

  get lastApply(): LastApply | undefined {
    return this.applied;
  }

  show(
    plan: FilePlan,
    account: AccountRef,
    file: vscode.Uri | undefined,
    o: { readonly proposedInChat?: boolean } = {},
  ): ShownPlan {
    const proposedInChat = o.proposedInChat === true;
    this.shown = { plan, account, file, proposedInChat, leftOut: new Set(plan.leftOutByDefault), stale: false };
    this.shownLabels.set(`${account.portalId}\n${account.accountId}`, account.label);
    this.update();
    return this.shown;
  }

  clear(): void {
    this.shown = undefined;
    this.update();
  }

  /** Includes or leaves out changes of the plan on show; unknown ids are ignored. */
  include(ids: readonly string[], included: boolean): void {
    const shown = this.shown;
    if (!shown) return;
    const known = new Set(allChanges(shown.plan).map((c) => c.id));
    for (const id of ids) {
      if (!known.has(id)) continue;
      if (included) shown.leftOut.delete(id);
      else shown.leftOut.add(id);
    }
    this.update();
  }

  setLastApply(applied: LastApply | undefined): void {
    this.applied = applied;
    if (applied) this.appliedEmitter.fire(applied);
    void vscode.commands.executeCommand(
      'setContext',
      'portal.plan.hasFailed',
      applied?.rows.some((r) => r.result === 'failed' || r.result === 'not-started') === true,
    );
  }

  setState(file: vscode.Uri, account: AccountRef, state: PortalState): void {
    this.states.set(file.toString(), { account, state });
    this.stateRead.fire(file);
  }

  stateOf(file: vscode.Uri): { account: AccountRef; state: PortalState } | undefined {
    return this.states.get(file.toString());
  }

  /** The organisation a file was exported from or planned against. */
  accountOf(file: vscode.Uri): AccountRef | undefined {
    const a = this.memento.get<Record<string, StoredAccount>>(FILE_ACCOUNTS, {})[file.toString()];
    return a ? { kind: 'account', portalId: a.portalId, accountId: a.accountId, label: a.label } : undefined;
  }

  /** The label of an organisation a plan of this window was shown for, or a file was planned against, if any. */
  labelOf(portalId: string, accountId: number): string | undefined {
    return (
      this.shownLabels.get(`${portalId}\n${accountId}`) ??
      Object.values(this.memento.get<Record<string, StoredAccount>>(FILE_ACCOUNTS, {})).find(
        (a) => a.portalId === portalId && a.accountId === accountId,
      )?.label
    );
  }

  /** Whether the extension wrote the file (an import, New Members File…): it has no export to take again. */
  madeHere(file: vscode.Uri): boolean {
    return this.memento.get<Record<string, StoredAccount>>(FILE_ACCOUNTS, {})[file.toString()]?.made === true;
  }

  /** `made`: the extension has just written the file; left out, what was known of that stays. */
  async rememberAccount(file: vscode.Uri, account: AccountRef, made?: boolean): Promise<void> {
    const all = { ...this.memento.get<Record<string, StoredAccount>>(FILE_ACCOUNTS, {}) };
    const wasMade = made ?? all[file.toString()]?.made === true;
    delete all[file.toString()];
    all[file.toString()] = {
      portalId: account.portalId,
      accountId: account.accountId,
      label: account.label,
      ...(wasMade ? { made: true as const } : {}),
    };
    // The newest entries last; the oldest go once there are too many.
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_FILE_ACCOUNTS))) delete all[k];
    await this.memento.update(FILE_ACCOUNTS, all);
  }

  dispose(): void {
    this.watch.dispose();
    this.changed.dispose();
    this.stateRead.dispose();
    this.appliedEmitter.dispose();
  }

  private update(): void {
    void vscode.commands.executeCommand('setContext', 'portal.plan.exists', this.shown !== undefined);
    this.changed.fire();
  }
}
