import * as vscode from 'vscode';
import type { PortalRegistry } from '../auth/portalRegistry';
import { registerFormCommands } from '../features/formCommands';
import { registerMemberPermissionCommand } from '../features/members/permission';
import type { FormEnv, FormPanel, SavedChange } from './formPanel';
import { refreshViews } from '../features/refresh';
import type { FormKey } from '../shared/keys';
import type { Ui } from '../ui/ui';

export interface FormsDeps {
  readonly registry: PortalRegistry;
  readonly log: vscode.LogOutputChannel;
  readonly ui: () => Ui;
}

/** Test-only view of the open forms (exposed through the extension's `testing` API). */
export interface FormsTesting {
  /** Open form panels, oldest first. */
  panels(): FormPanel[];
  /** The most recently opened panel of a kind ("assignments", "application", ...). */
  latest(kind: string): FormPanel | undefined;
  /** Changes reported by saves, newest last (what the tree was asked to refresh). */
  readonly saved: SavedChange[];
}

/** Opens each form once per thing it edits: a second command for the same member reveals the open panel. */
export class FormHost {
  private readonly open = new Map<FormKey, FormPanel>();
  readonly saved: SavedChange[] = [];
  readonly env: FormEnv;

  constructor(context: vscode.ExtensionContext, readonly deps: FormsDeps) {
    const testing = context.extensionMode === vscode.ExtensionMode.Test;
    this.env = {
      extensionUri: context.extensionUri,
      log: deps.log,
      ui: deps.ui,
      recordMessages: testing,
      onOpen: (p) => this.open.set(p.key, p),
      onClose: (p) => {
        if (this.open.get(p.key) === p) this.open.delete(p.key);
      },
      afterSave: (change) => {
        if (testing) this.saved.push(change);
        refreshViews(change);
      },
    };
  }

  /** Reveals the panel already open for `key`, or creates one. */
  show<P extends FormPanel>(key: FormKey, create: () => P): P | FormPanel {
    const existing = this.open.get(key);
    if (existing && !existing.isDisposed) {
      existing.reveal();
      return existing;
    }
    return create();
  }

  panels(): FormPanel[] {
    return [...this.open.values()];
  }

  dispose(): void {
    for (const p of [...this.open.values()]) p.dispose();
  }
}

/** Everything issue 7 adds, wired with one call from activate(). */
export function registerForms(context: vscode.ExtensionContext, deps: FormsDeps): { testing: FormsTesting } {
  const host = new FormHost(context, deps);
  context.subscriptions.push(host, ...registerFormCommands(host), registerMemberPermissionCommand(deps, deps));
  return {
    testing: {
      panels: () => host.panels(),
      latest: (kind) => host.panels().filter((p) => p.kind === kind).pop(),
      saved: host.saved,
    },
  };
}
