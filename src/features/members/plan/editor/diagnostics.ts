/**
 * The Problems panel for open members files: the engine's problems at their line and column, refreshed a moment
 * after each edit. The group check joins in once the organisation's group list is known (read once per file when
 * the file's organisation is known, or from a plan); the new-member checks once the portal has been read (a plan).
 * Also keeps the `portal.plan.membersFile` context key for the active editor, which shows Plan Changes… in its title.
 *
 * Nothing is parsed while the extension starts or a document opens: every check runs a moment later, off the event
 * that asked for it, and in slices with a turn of the event loop between them, so even a file of megabytes never
 * holds the editor; a check overtaken by an edit is dropped. A file above LIVE_CHECK_LIMIT characters is not checked
 * live at all (one message says so): Plan Changes… still checks every row of it, in its worker.
 */
import * as vscode from 'vscode';
import { checkFileInSlices } from '../core/file/diagnose';
import type { PortalGroup } from '../core/model';
import { isMembersDocument, nextTurn, parseDocumentInSlices } from './membersDocument';
import type { PlanStore } from '../planStore';
import { problemDiagnostic } from './problemText';

const DEBOUNCE_MS = 250;
/** Characters above which a members file is not checked as it is typed (about 5 MB). */
export const LIVE_CHECK_LIMIT = 5_000_000;

/** The organisation's groups for a file, when its organisation is known and signed in to; undefined otherwise. */
export type GroupSource = (file: vscode.Uri) => Promise<readonly PortalGroup[] | undefined>;

/** The document's length in characters, without joining its text. */
export function sizeOf(doc: vscode.TextDocument): number {
  return doc.lineCount === 0 ? 0 : doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end);
}

export class MembersDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('portal.members');
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly groups = new Map<string, readonly PortalGroup[]>();
  private readonly asked = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly store: PlanStore,
    private readonly groupSource: GroupSource = () => Promise.resolve(undefined),
  ) {
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.later(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.later(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)),
      vscode.window.onDidChangeActiveTextEditor((e) => this.setContext(e)),
      store.onDidReadState((uri) => {
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (doc) this.later(doc);
      }),
    );
    for (const d of vscode.workspace.textDocuments) this.later(d);
    this.setContext(vscode.window.activeTextEditor);
  }

  /**
   * Checks the document now; resolves with its diagnostics (none for a file that is not a members file). When the
   * document changed while it was checked, the newer check sets the Problems panel, and this one only answers.
   */
  async check(doc: vscode.TextDocument): Promise<readonly vscode.Diagnostic[]> {
    this.cancel(doc);
    if (!isMembersDocument(doc)) {
      this.collection.delete(doc.uri);
      return [];
    }
    if (sizeOf(doc) > LIVE_CHECK_LIMIT) return this.tooLarge(doc);
    this.askGroups(doc);
    const version = doc.version;
    const known = this.store.stateOf(doc.uri)?.state;
    const groups = known?.groups ?? this.groups.get(doc.uri.toString());
    const file = await parseDocumentInSlices(doc);
    const { problems } = await checkFileInSlices(
      file,
      { ...(groups ? { groups } : {}), ...(known ? { members: known.members, readAt: known.readAt } : {}) },
      nextTurn,
    );
    // A file the extension wrote from the portal it had just read (an import) is no export: "export again" misleads.
    const made = this.store.madeHere(doc.uri);
    const diagnostics = problems.filter((p) => !(made && p.code === 'no-lastmodified-column')).map(problemDiagnostic);
    if (doc.isClosed || doc.version !== version) return diagnostics;
    this.collection.set(doc.uri, diagnostics);
    if (vscode.window.activeTextEditor?.document === doc) this.setContext(vscode.window.activeTextEditor);
    return diagnostics;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const d of this.disposables) d.dispose();
  }

  private tooLarge(doc: vscode.TextDocument): readonly vscode.Diagnostic[] {
    const megabytes = Math.round(sizeOf(doc) / 1_000_000);
    const d = new vscode.Diagnostic(
      new vscode.Range(0, 0, 0, 0),
      vscode.l10n.t(
        'This members file is large ({0} MB): it is not checked as you type. Plan Changes… checks every row of it.',
        megabytes,
      ),
      vscode.DiagnosticSeverity.Information,
    );
    d.source = vscode.l10n.t('Portal members file');
    d.code = 'too-large-to-check-live';
    this.collection.set(doc.uri, [d]);
    return [d];
  }

  /** Reads the file's organisation's group list once, then checks the file again with it. */
  private askGroups(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    if (this.asked.has(key)) return;
    this.asked.add(key);
    this.groupSource(doc.uri).then(
      (groups) => {
        if (!groups) return;
        this.groups.set(key, groups);
        if (!doc.isClosed) this.later(doc);
      },
      () => this.asked.delete(key),
    );
  }

  private later(doc: vscode.TextDocument): void {
    this.cancel(doc);
    this.timers.set(
      doc.uri.toString(),
      setTimeout(() => {
        this.timers.delete(doc.uri.toString());
        if (!doc.isClosed) void this.check(doc);
      }, DEBOUNCE_MS),
    );
  }

  private cancel(doc: vscode.TextDocument): void {
    const t = this.timers.get(doc.uri.toString());
    if (t) clearTimeout(t);
    this.timers.delete(doc.uri.toString());
  }

  private forget(doc: vscode.TextDocument): void {
    this.cancel(doc);
    this.collection.delete(doc.uri);
    this.groups.delete(doc.uri.toString());
    this.asked.delete(doc.uri.toString());
  }

  private setContext(editor: vscode.TextEditor | undefined): void {
    const is = editor !== undefined && isMembersDocument(editor.document);
    void vscode.commands.executeCommand('setContext', 'portal.plan.membersFile', is);
  }
}
