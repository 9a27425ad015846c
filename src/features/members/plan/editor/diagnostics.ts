/**
 * The Problems panel for open members files: the engine's problems at their line and column, refreshed a moment
 * after each edit. Once the portal has been read for the file (a plan), the group and new-member checks join in.
 * Also keeps the `portal.plan.membersFile` context key for the active editor, which shows Plan Changes… in its title.
 */
import * as vscode from 'vscode';
import { diagnose } from '../core/file/diagnose';
import { isMembersDocument, parseDocument } from './membersDocument';
import type { PlanStore } from '../planStore';
import { problemDiagnostic } from './problemText';

const DEBOUNCE_MS = 250;

export class MembersDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('portal.members');
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly store: PlanStore) {
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.check(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.later(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)),
      vscode.window.onDidChangeActiveTextEditor((e) => this.setContext(e)),
      store.onDidReadState((uri) => {
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (doc) this.check(doc);
      }),
    );
    for (const d of vscode.workspace.textDocuments) this.check(d);
    this.setContext(vscode.window.activeTextEditor);
  }

  /** Checks the document now; returns its diagnostics (none for a file that is not a members file). */
  check(doc: vscode.TextDocument): readonly vscode.Diagnostic[] {
    this.cancel(doc);
    if (!isMembersDocument(doc)) {
      this.collection.delete(doc.uri);
      return [];
    }
    const known = this.store.stateOf(doc.uri)?.state;
    const problems = diagnose(parseDocument(doc), known ? { groups: known.groups, members: known.members } : {});
    const diagnostics = problems.map(problemDiagnostic);
    this.collection.set(doc.uri, diagnostics);
    if (vscode.window.activeTextEditor?.document === doc) this.setContext(vscode.window.activeTextEditor);
    return diagnostics;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const d of this.disposables) d.dispose();
  }

  private later(doc: vscode.TextDocument): void {
    this.cancel(doc);
    this.timers.set(
      doc.uri.toString(),
      setTimeout(() => {
        this.timers.delete(doc.uri.toString());
        this.check(doc);
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
  }

  private setContext(editor: vscode.TextEditor | undefined): void {
    const is = editor !== undefined && isMembersDocument(editor.document);
    void vscode.commands.executeCommand('setContext', 'portal.plan.membersFile', is);
  }
}
