/**
 * The open form panels: one per thing edited, so a second command for the same member reveals its panel. A panel
 * closed by its tab's × with unsaved input (VS Code lets no one stop that close) is offered back with that input.
 */
import * as vscode from 'vscode';
import type { FormKey } from '../shared/keys';
import type { Ui } from '../ui/ui';
import type { FormEnv, FormPanel } from './formPanel';

type Create = (env: FormEnv, key: FormKey) => FormPanel;

export class FormHost implements vscode.Disposable {
  private readonly open = new Map<FormKey, FormPanel>();
  /** How each open panel was made, to make it again with the input it was closed with. */
  private readonly made = new Map<FormKey, Create>();
  private closing = false;
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
      onClose: (p, unsaved) => {
        if (this.open.get(p.key) !== p) return;
        this.open.delete(p.key);
        const create = this.made.get(p.key);
        this.made.delete(p.key);
        if (unsaved !== undefined && create && !this.closing)
          void this.offerBack(p.name, p.key, create, unsaved, deps.ui());
      },
    };
  }

  /** Asks whether to open the form again with the input it was closed with; nothing of it was sent. */
  private async offerBack(name: string, key: FormKey, create: Create, unsaved: unknown, ui: Ui): Promise<void> {
    const choice = await ui.choose({
      id: 'form.closed.unsaved',
      severity: 'warning',
      modal: false,
      message: vscode.l10n.t('{0} was closed with unsaved changes. Nothing of them was sent to the portal.', name),
      actions: [{ id: 'reopen', label: vscode.l10n.t('Reopen with My Changes') }],
    });
    if (choice !== 'reopen' || this.open.has(key)) return;
    const panel = this.show(key, create);
    panel.draft = unsaved;
  }

  /** Reveals the panel already open for `key`, or creates one. */
  show<P extends FormPanel>(key: FormKey, create: (env: FormEnv, key: FormKey) => P): P | FormPanel {
    const existing = this.open.get(key);
    if (existing && !existing.isDisposed) {
      existing.reveal();
      return existing;
    }
    this.made.set(key, create);
    return create(this.env, key);
  }

  /** Open panels, oldest first. */
  panels(): FormPanel[] {
    return [...this.open.values()];
  }

  dispose(): void {
    this.closing = true;
    for (const p of [...this.open.values()]) p.dispose();
  }
}
