import type * as vscode from 'vscode';
import { setContextKey } from '../ui/contextKeys';

/**
 * A walkthrough step's context key that stays true once it was: set at activation from globalState, so the step
 * ticks from what was done before, whatever the walkthrough's own memory holds.
 */
export class StickyContext {
  constructor(
    private readonly state: vscode.Memento,
    private readonly key: 'portal.explorerShown' | 'portal.assignmentsOpened',
  ) {
    if (state.get<boolean>(key) === true) void this.set();
  }

  /** What the step stands for happened. */
  mark(): void {
    if (this.state.get<boolean>(this.key) === true) return;
    void this.state.update(this.key, true);
    void this.set();
  }

  private set(): Thenable<unknown> {
    switch (this.key) {
      case 'portal.explorerShown':
        return setContextKey('portal.explorerShown', true);
      case 'portal.assignmentsOpened':
        return setContextKey('portal.assignmentsOpened', true);
    }
  }
}
