/** The open form panels: one per thing edited, so a second command for the same member reveals its panel. */
import * as vscode from 'vscode';
import type { FormKey } from '../shared/keys';
import type { Ui } from '../ui/ui';
import type { FormEnv, FormPanel } from './formPanel';

export class FormHost implements vscode.Disposable {
  private readonly open = new Map<FormKey, FormPanel>();
  readonly env: FormEnv;

  constructor(
    context: vscode.ExtensionContext,
    deps: { readonly log: vscode.LogOutputChannel; readonly ui: () => Ui },
  ) {
    this.env = {
      extensionUri: context.extensionUri,
      log: deps.log,
      ui: deps.ui,
      onOpen: (p) => this.open.set(p.key, p),
      onClose: (p) => {
        if (this.open.get(p.key) === p) this.open.delete(p.key);
      },
    };
  }

  /** Reveals the panel already open for `key`, or creates one. */
  show<P extends FormPanel>(key: FormKey, create: (env: FormEnv, key: FormKey) => P): P | FormPanel {
    const existing = this.open.get(key);
    if (existing && !existing.isDisposed) {
      existing.reveal();
      return existing;
    }
    return create(this.env, key);
  }

  /** Open panels, oldest first. */
  panels(): FormPanel[] {
    return [...this.open.values()];
  }

  dispose(): void {
    for (const p of [...this.open.values()]) p.dispose();
  }
}
