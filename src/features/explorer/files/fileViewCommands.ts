/**
 * How the Explorer lists things, chosen by the user: each group's order and filters of its file records (from the
 * group row's menu), and whether disabled organisations are shown (from the view's title menu). Kept in
 * globalState by ExplorerState.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { groupKey } from '../../../shared/keys';
import type { GroupRef } from '../../../shared/refs';
import { groupFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv } from '../../../ui/commands';
import { answered, type PickItem, type Ui } from '../../../ui/ui';
import type { ExplorerProvider } from '../tree/explorerProvider';
import type { ExplorerState } from '../tree/explorerState';
import {
  dateWords,
  DEFAULT_FILE_VIEW,
  isDefaultOrder,
  isDefaultView,
  parseSinceDate,
  type FileListView,
  type FileOrder,
} from './fileListView';

/** The context key the view title's show/hide entries are chosen by. */
const DISABLED_HIDDEN_CONTEXT = 'portal.explorer.disabledHidden';

function orderChoices(current: FileListView): PickItem<{ orderBy: FileOrder; ascending: boolean }>[] {
  const choices: Array<[FileOrder, boolean, string]> = [
    ['name', true, vscode.l10n.t('Name, A to Z')],
    ['name', false, vscode.l10n.t('Name, Z to A')],
    ['lastModified', false, vscode.l10n.t('Modified, newest first')],
    ['lastModified', true, vscode.l10n.t('Modified, oldest first')],
    ['size', false, vscode.l10n.t('Size, largest first')],
    ['size', true, vscode.l10n.t('Size, smallest first')],
  ];
  return choices.map(([orderBy, ascending, label]) => ({
    label,
    ...(current.orderBy === orderBy && current.ascending === ascending
      ? { description: vscode.l10n.t('current'), icon: 'check' }
      : {}),
    value: { orderBy, ascending },
  }));
}

/** The Explorer's state and tree, where a group's view is kept and shown. */
interface ViewPlace {
  readonly state: ExplorerState;
  readonly provider: ExplorerProvider;
}

/**
 * Asks the user about the group's view as it is, then keeps and shows the view `next` makes of it and the answer.
 */
async function changeView<T>(
  ui: Ui,
  place: ViewPlace,
  g: GroupRef,
  question: { id: `files.${string}`; placeHolder: string; choices: (current: FileListView) => PickItem<T>[] },
  next: (current: FileListView, choice: T) => FileListView | Promise<FileListView>,
): Promise<FileListView> {
  const current = place.state.fileView(groupKey(g));
  const { id, placeHolder } = question;
  const choice = answered(await ui.pick(question.choices(current), { id, placeHolder }));
  return apply(place, g, await next(current, choice));
}

function orderFiles(ui: Ui, place: ViewPlace, g: GroupRef): Promise<FileListView> {
  const question = {
    id: 'files.order' as const,
    placeHolder: vscode.l10n.t('Order the file records of {0}', g.label),
    choices: orderChoices,
  };
  return changeView(ui, place, g, question, (current, choice) => ({ ...current, ...choice }));
}

type FilterChoice = 'foldersOnly' | 'since' | 'anyDate' | 'clear';

function filterChoices(current: FileListView): PickItem<FilterChoice>[] {
  const items: PickItem<FilterChoice>[] = [
    {
      label: current.foldersOnly ? vscode.l10n.t('Show Files and Folders') : vscode.l10n.t('Folders Only'),
      description: current.foldersOnly ? vscode.l10n.t('now: folders only') : vscode.l10n.t('now: files and folders'),
      value: 'foldersOnly',
    },
    {
      label: vscode.l10n.t('Modified Since…'),
      description:
        current.modifiedSince !== null
          ? vscode.l10n.t('now: since {0}', dateWords(current.modifiedSince))
          : vscode.l10n.t('now: any date'),
      value: 'since',
    },
  ];
  if (current.modifiedSince !== null) items.push({ label: vscode.l10n.t('Any Modification Date'), value: 'anyDate' });
  if (!isDefaultView(current)) {
    items.push({
      label: isDefaultOrder(current) ? vscode.l10n.t('Clear Filters') : vscode.l10n.t('Clear Order and Filters'),
      value: 'clear',
    });
  }
  return items;
}

async function askSince(ui: Ui, g: GroupRef, current: FileListView): Promise<number> {
  const text = answered(
    await ui.input({
      id: 'files.modifiedSince',
      title: vscode.l10n.t('{0}: file records modified since…', g.label),
      prompt: vscode.l10n.t(
        'A date, YYYY-MM-DD, and optionally a time, HH:MM (local time). Records modified on or after it are listed.',
      ),
      placeHolder: vscode.l10n.t('e.g. {0}', dateWords(Date.now() - 7 * 86_400_000).slice(0, 10)),
      ...(current.modifiedSince !== null ? { value: dateWords(current.modifiedSince) } : {}),
      validate: (v) =>
        parseSinceDate(v) === undefined ? vscode.l10n.t('Type a date as YYYY-MM-DD, or YYYY-MM-DD HH:MM.') : undefined,
    }),
  );
  return answered(parseSinceDate(text));
}

function filterFiles(ui: Ui, place: ViewPlace, g: GroupRef): Promise<FileListView> {
  const question = {
    id: 'files.filter' as const,
    placeHolder: vscode.l10n.t('Filter the file records of {0}', g.label),
    choices: filterChoices,
  };
  return changeView(ui, place, g, question, async (current, choice) => {
    switch (choice) {
      case 'foldersOnly':
        return { ...current, foldersOnly: !current.foldersOnly };
      case 'since':
        return { ...current, modifiedSince: await askSince(ui, g, current) };
      case 'anyDate':
        return { ...current, modifiedSince: null };
      case 'clear':
        return DEFAULT_FILE_VIEW;
    }
  });
}

/** Keeps the group's new view and lists its file records again (the rows on screen stay until the new ones are in). */
async function apply(place: ViewPlace, g: GroupRef, view: FileListView): Promise<FileListView> {
  const key = groupKey(g);
  await place.state.setFileView(key, view);
  place.provider.reload(key);
  return view;
}

async function showDisabled(
  state: ExplorerState,
  provider: ExplorerProvider,
  view: vscode.TreeView<unknown>,
  show: boolean,
): Promise<void> {
  await state.setHideDisabledAccounts(!show);
  await syncDisabledHidden(state, view);
  provider.redraw();
}

/** The title menu's entry and the view's description follow the stored choice. */
export async function syncDisabledHidden(state: ExplorerState, view: vscode.TreeView<unknown>): Promise<void> {
  const hidden = state.hideDisabledAccounts;
  view.description = hidden ? vscode.l10n.t('disabled organisations hidden') : undefined;
  await vscode.commands.executeCommand('setContext', DISABLED_HIDDEN_CONTEXT, hidden);
}

export function registerFileViewCommands(
  env: CommandEnv,
  deps: { registry: PortalRegistry; state: ExplorerState; provider: ExplorerProvider; view: vscode.TreeView<unknown> },
): vscode.Disposable[] {
  const { registry, state, provider, view } = deps;
  return [
    registerCommand(env, 'portal.group.orderFiles', async (run) =>
      orderFiles(run.ui, deps, await groupFor(run, registry)),
    ),
    registerCommand(env, 'portal.group.filterFiles', async (run) =>
      filterFiles(run.ui, deps, await groupFor(run, registry)),
    ),
    registerCommand(env, 'portal.explorer.showDisabledAccounts', () => showDisabled(state, provider, view, true)),
    registerCommand(env, 'portal.explorer.hideDisabledAccounts', () => showDisabled(state, provider, view, false)),
  ];
}
