/**
 * A quick pick whose rows come from the portal: what the source yields for the empty text at once, then one search
 * per pause in typing. Each batch is appended as it arrives, so a search over many places shows its first answers
 * while the rest are still on the way. A new text (or closing the pick) aborts the search before it.
 */
import * as vscode from 'vscode';
import { errorMessage, isCancellation } from '../shared/errors';
import { plain } from '../shared/plainText';
import type { PickItem, SearchOptions, SearchSource } from './ui';

const DEFAULT_DEBOUNCE_MS = 300;

type Shown<T> = vscode.QuickPickItem & { readonly value: T };

/** A row's button as VS Code shows it, carrying the value it answers with. */
export type ShownButton<T> = vscode.QuickInputButton & { readonly value: T };

function buttonValue<T>(button: vscode.QuickInputButton): T {
  return (button as ShownButton<T>).value;
}

export function searchPick<T>(
  source: SearchSource<T>,
  o: SearchOptions,
  toItem: (i: PickItem<T>) => Shown<T>,
): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    const qp = vscode.window.createQuickPick<Shown<T>>();
    qp.placeholder = o.placeHolder;
    if (o.title !== undefined) qp.title = o.title;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    let controller: AbortController | undefined;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;

    const run = async (text: string): Promise<void> => {
      controller?.abort();
      const c = new AbortController();
      controller = c;
      qp.busy = true;
      qp.items = [];
      try {
        for await (const batch of source(text.trim(), c.signal)) {
          if (c !== controller) return;
          // The portal filtered already: keep its rows visible whatever VS Code's own matching thinks.
          qp.items = [...qp.items, ...batch.map((i) => ({ ...toItem(i), alwaysShow: true }))];
        }
      } catch (error) {
        if (c !== controller || isCancellation(error)) return;
        qp.placeholder = plain(vscode.l10n.t('Could not search: {0}', errorMessage(error)));
      } finally {
        if (c === controller) qp.busy = false;
      }
    };

    const finish = (value: T | undefined): void => {
      if (settled) return;
      settled = true;
      controller?.abort();
      if (timer) clearTimeout(timer);
      resolve(value);
      qp.dispose();
    };
    qp.onDidChangeValue((value) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void run(value), o.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    });
    // Enter before a search has answered (its rows cleared, or none found) picks nothing: the pick stays open for
    // the rows on their way, instead of closing as if it were cancelled and ending the command without a word.
    qp.onDidAccept(() => {
      const chosen = qp.selectedItems[0];
      if (chosen) finish(chosen.value);
    });
    qp.onDidTriggerItemButton((e) => finish(buttonValue(e.button)));
    qp.onDidHide(() => finish(undefined));
    void run('');
    qp.show();
  });
}
