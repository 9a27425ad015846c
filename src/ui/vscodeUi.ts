/**
 * The Ui on VS Code's own dialogs, quick picks, notifications, progress and clipboard. The only file (with
 * searchPick.ts) that calls them: lint forbids the rest of the extension to. Texts arrive already plain
 * (plainUi.ts); buttons are compared by identity, never by their label.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createPick } from './createPick';
import { searchPick, type ShownButton } from './searchPick';
import type {
  ChooseOptions,
  ConfirmOptions,
  FolderOptions,
  InputOptions,
  PickItem,
  PickOptions,
  PickOrCreateOptions,
  ProgressOptions,
  Progress,
  SaveOptions,
  SearchOptions,
  SearchSource,
  Severity,
  Ui,
} from './ui';

type Shown = vscode.QuickPickItem & { readonly value: unknown };

function quickPickItem<T>(i: PickItem<T>): vscode.QuickPickItem & { readonly value: T } {
  return {
    label: i.icon ? `$(${i.icon}) ${i.label}` : i.label,
    ...(i.description !== undefined ? { description: i.description } : {}),
    ...(i.detail !== undefined ? { detail: i.detail } : {}),
    ...(i.picked !== undefined ? { picked: i.picked } : {}),
    ...(i.buttons
      ? {
          buttons: i.buttons.map((b): ShownButton<T> => ({
            iconPath: new vscode.ThemeIcon(b.icon),
            tooltip: b.tooltip,
            value: b.value,
          })),
        }
      : {}),
    value: i.value,
  };
}

function show(
  severity: Severity,
  message: string,
  options: vscode.MessageOptions,
  items: vscode.MessageItem[],
): Thenable<vscode.MessageItem | undefined> {
  switch (severity) {
    case 'info':
      return vscode.window.showInformationMessage(message, options, ...items);
    case 'warning':
      return vscode.window.showWarningMessage(message, options, ...items);
    case 'error':
      return vscode.window.showErrorMessage(message, options, ...items);
  }
}

function location(where: ProgressOptions['where']): vscode.ProgressLocation | { viewId: string } {
  if (where === 'notification') return vscode.ProgressLocation.Notification;
  if (where === 'window') return vscode.ProgressLocation.Window;
  return { viewId: where.view };
}

export class VscodeUi implements Ui {
  async confirm(o: ConfirmOptions): Promise<boolean> {
    const yes: vscode.MessageItem = { title: o.action };
    const choice = await vscode.window.showWarningMessage(
      o.message,
      { modal: true, ...(o.detail ? { detail: o.detail } : {}) },
      yes,
    );
    return choice === yes;
  }

  async choose<A extends string>(o: ChooseOptions<A>): Promise<A | undefined> {
    const buttons = o.actions.map((a) => ({ title: a.label, id: a.id }));
    const choice = await show(
      o.severity,
      o.message,
      { modal: o.modal, ...(o.detail ? { detail: o.detail } : {}) },
      buttons,
    );
    return buttons.find((b) => b === choice)?.id;
  }

  async input(o: InputOptions): Promise<string | undefined> {
    return vscode.window.showInputBox({
      title: o.title,
      prompt: o.prompt,
      ...(o.value !== undefined ? { value: o.value } : {}),
      ...(o.placeHolder !== undefined ? { placeHolder: o.placeHolder } : {}),
      password: o.password === true,
      // A sign-in or a name typed half-way is not lost when the user looks elsewhere.
      ignoreFocusOut: true,
      ...(o.validate ? { validateInput: o.validate } : {}),
    });
  }

  async pick<T>(
    items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>,
    o: PickOptions,
  ): Promise<T | undefined> {
    const shown = Promise.resolve(items).then((list) => list.map(quickPickItem));
    const picked = await vscode.window.showQuickPick<Shown>(shown, pickOptions(o));
    return picked?.value as T | undefined;
  }

  async pickMany<T>(
    items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>,
    o: PickOptions,
  ): Promise<T[] | undefined> {
    const shown = Promise.resolve(items).then((list) => list.map(quickPickItem));
    const picked = await vscode.window.showQuickPick<Shown>(shown, { ...pickOptions(o), canPickMany: true });
    return picked?.map((p) => p.value as T);
  }

  pickOrCreate(
    items: readonly PickItem<string>[] | Promise<readonly PickItem<string>[]>,
    o: PickOrCreateOptions,
  ): Promise<string | undefined> {
    return createPick(items, o, quickPickItem);
  }

  search<T>(source: SearchSource<T>, o: SearchOptions): Promise<T | undefined> {
    return searchPick(source, o, quickPickItem);
  }

  async progress<R>(o: ProgressOptions, task: (progress: Progress, signal: AbortSignal) => Promise<R>): Promise<R> {
    return vscode.window.withProgress(
      { location: location(o.where), title: o.title, cancellable: o.cancellable === true },
      async (p, token) => {
        const controller = new AbortController();
        const onCancel = token.onCancellationRequested(() => controller.abort());
        try {
          return await task(p, controller.signal);
        } finally {
          onCancel.dispose();
        }
      },
    );
  }

  async pickFolder(o: FolderOptions): Promise<string | undefined> {
    const chosen = (
      await vscode.window.showOpenDialog({
        canSelectFiles: false,
        canSelectFolders: true,
        canSelectMany: false,
        openLabel: o.openLabel,
        title: o.title,
        defaultUri: vscode.Uri.file(o.start ?? workspaceFolder()),
      })
    )?.[0];
    if (!chosen) return undefined;
    if (chosen.scheme !== 'file') {
      this.notify('error', vscode.l10n.t('Pick a folder on this computer: files are written to a local folder.'));
      return undefined;
    }
    return chosen.fsPath;
  }

  async pickFiles(o: FolderOptions): Promise<string[] | undefined> {
    const chosen = await vscode.window.showOpenDialog({
      canSelectFiles: true,
      canSelectFolders: false,
      canSelectMany: true,
      openLabel: o.openLabel,
      title: o.title,
      defaultUri: vscode.Uri.file(o.start ?? workspaceFolder()),
    });
    if (!chosen || chosen.length === 0) return undefined;
    if (chosen.some((u) => u.scheme !== 'file')) {
      this.notify('error', vscode.l10n.t('Pick files on this computer: uploads are read from local files.'));
      return undefined;
    }
    return chosen.map((u) => u.fsPath);
  }

  async saveFile(o: SaveOptions): Promise<string | undefined> {
    const chosen = await vscode.window.showSaveDialog({
      title: o.title,
      defaultUri: vscode.Uri.file(path.join(workspaceFolder(), o.defaultName)),
      filters: Object.fromEntries(Object.entries(o.filters).map(([name, exts]) => [name, [...exts]])),
    });
    if (!chosen) return undefined;
    if (chosen.scheme !== 'file') {
      this.notify('error', vscode.l10n.t('Pick a file on this computer: the file is written to a local folder.'));
      return undefined;
    }
    return chosen.fsPath;
  }

  notify(severity: Severity, message: string): void {
    void show(severity, message, {}, []);
  }

  status(message: string, ms = 4000): void {
    vscode.window.setStatusBarMessage(message, ms);
  }

  async copy(text: string): Promise<void> {
    await vscode.env.clipboard.writeText(text);
  }
}

function pickOptions(o: PickOptions): vscode.QuickPickOptions {
  return {
    placeHolder: o.placeHolder,
    ...(o.title !== undefined ? { title: o.title } : {}),
    matchOnDescription: o.matchOnDescription === true,
    matchOnDetail: o.matchOnDetail === true,
  };
}

/** Where a dialog starts: the first local workspace folder, else the user's home. */
export function workspaceFolder(): string {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? os.homedir();
}
