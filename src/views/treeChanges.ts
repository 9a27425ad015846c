import * as vscode from 'vscode';

/**
 * A tree view's change events, with the whole view's sent at most once a turn. Told that the whole view changed,
 * VS Code forgets every row until it has asked for them again; told twice in a row (a change shown in place, then
 * a reload), it forgot them again just after it had learned them, and a context-menu entry used in between ran
 * with no row. So the whole view's event goes out at the end of the turn, once, and a row's event is left out
 * while the whole view's is pending, which covers it.
 */
export class TreeChanges<T> implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<T | undefined>();
  readonly event = this.emitter.event;
  private wholePending = false;

  fire(node?: T): void {
    if (this.wholePending) return;
    if (node !== undefined) {
      this.emitter.fire(node);
      return;
    }
    this.wholePending = true;
    setImmediate(() => {
      this.wholePending = false;
      this.emitter.fire(undefined);
    });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
