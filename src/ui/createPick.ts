/**
 * A quick pick over existing names that offers the typed text as a new one, live: a row `Create tag "…"` follows
 * every keystroke, so typing a new name never filters the way to make it out of sight. Texts arrive plain (plainUi).
 */
import * as vscode from 'vscode';
import type { PickItem, PickOrCreateOptions } from './ui';

type Shown = vscode.QuickPickItem & { readonly value: string; readonly create?: true };

function newQuickPick(o: PickOrCreateOptions): vscode.QuickPick<Shown> {
  const qp = vscode.window.createQuickPick<Shown>();
  qp.placeholder = o.placeHolder;
  if (o.title !== undefined) qp.title = o.title;
  qp.matchOnDescription = o.matchOnDescription === true;
  qp.matchOnDetail = o.matchOnDetail === true;
  return qp;
}

export function createPick(
  items: readonly PickItem<string>[] | Promise<readonly PickItem<string>[]>,
  o: PickOrCreateOptions,
  toItem: (i: PickItem<string>) => vscode.QuickPickItem & { readonly value: string },
): Promise<string | undefined> {
  return new Promise<string | undefined>((resolve) => {
    const qp = newQuickPick(o);
    let existing: Shown[] = [];
    let settled = false;

    /** The existing names, and above them the typed text as a new one unless a name is exactly that. */
    const draw = (): void => {
      const typed = qp.value.trim();
      const taken = existing.some((i) => i.value === typed);
      if (!typed || taken) {
        qp.items = existing;
        return;
      }
      const problem = o.validate?.(typed);
      const create: Shown = {
        ...toItem({ icon: 'add', label: o.createLabel(typed), value: typed, ...(problem ? { detail: problem } : {}) }),
        create: true,
        // VS Code's filter must never hide the row that makes the typed name.
        alwaysShow: true,
      };
      qp.items = [create, ...existing];
      qp.activeItems = [create];
    };

    const finish = (value: string | undefined): void => {
      if (settled) return;
      settled = true;
      resolve(value);
      qp.dispose();
    };
    qp.onDidChangeValue(draw);
    qp.onDidAccept(() => {
      const chosen = qp.selectedItems[0] ?? qp.activeItems[0];
      if (!chosen) return;
      // A new name with a problem stays open: the row says what is wrong.
      if (chosen.create && o.validate?.(chosen.value)) return;
      finish(chosen.value);
    });
    qp.onDidHide(() => finish(undefined));
    qp.busy = true;
    qp.show();
    Promise.resolve(items).then(
      (list) => {
        existing = list.map(toItem);
        qp.busy = false;
        draw();
      },
      () => {
        qp.busy = false;
        draw();
      },
    );
  });
}
