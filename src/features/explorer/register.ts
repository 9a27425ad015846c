/**
 * The Explorer feature: the view of portals → organisations → groups → folders → files, its commands, and the
 * organisation and group forms. The Members view follows its selection through onDidSelectAccount.
 */
import type { SettingsWriter } from '../../ui/settingsWriter';
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { FormHost } from '../../forms/formHost';
import { accountKey, formKeys, groupKey, portalKey } from '../../shared/keys';
import { errorMessage } from '../../shared/errors';
import { accountOf, type AccountRef, type FileRef } from '../../shared/refs';
import { accountFor, groupFor } from '../../targets/resolve';
import { registerCommand, type CommandEnv } from '../../ui/commands';
import type { PortalTreeNode } from '../../views/node';
import { StickyContext } from '../../views/stickyContext';
import { registerViewCommands } from '../../views/viewCommands';
import type { AccessHandle, ExplorerHandle, FeatureDeps, RecordsHandle } from '../contracts';
import { whoCanReach } from './whoCanReach';
import { registerExplorerCommands } from './commands';
import { ExplorerState } from './tree/explorerState';
import { registerFileViewCommands, syncDisabledHidden } from './files/fileViewCommands';
import { EXPLORER_VIEW, ExplorerProvider } from './tree/explorerProvider';
import { GroupForm } from './forms/groupForm';
import { OverviewForm } from './forms/overviewForm';

export interface ExplorerFeature extends ExplorerHandle {
  readonly provider: ExplorerProvider;
  readonly view: vscode.TreeView<PortalTreeNode>;
  /** From activate() starting to the first rows the portal sent (a figure for the benchmark report). */
  activationMs(): number | undefined;
}

/** The organisation overview and the group forms; a save reloads the rows that show what changed. */
function registerExplorerForms(
  env: CommandEnv,
  forms: FormHost,
  registry: PortalRegistry,
  provider: ExplorerProvider,
  settings: SettingsWriter,
): vscode.Disposable[] {
  const account = (a: AccountRef, afterSave: () => void) => ({
    registry,
    settings,
    portalId: a.portalId,
    accountId: a.accountId,
    afterSave,
  });
  const reloadGroups = (a: AccountRef) => () => provider.reload(accountKey(a));
  return [
    registerCommand(env, 'portal.accountOverview', async (run) => {
      const a = await accountFor(run, registry);
      // A rename shows on the organisation's own row, which the portal's list holds.
      return forms.show(
        formKeys.overview(a),
        (e, key) =>
          new OverviewForm(
            e,
            key,
            account(a, () => provider.reload(portalKey('explorer', a.portalId))),
            a.label,
          ),
      );
    }),
    registerCommand(env, 'portal.createGroup', async (run) => {
      const a = await accountFor(run, registry);
      return forms.show(
        formKeys.newGroup(a),
        (e, key) => new GroupForm(e, key, account(a, reloadGroups(a)), vscode.l10n.t('New Group: {0}', a.label)),
      );
    }),
    registerCommand(env, 'portal.editGroup', async (run) => {
      const g = await groupFor(run, registry);
      return forms.show(
        formKeys.group(g),
        (e, key) =>
          new GroupForm(
            e,
            key,
            { ...account(g.account, reloadGroups(g.account)), groupId: g.groupId },
            vscode.l10n.t('Group: {0}', g.label),
          ),
      );
    }),
  ];
}

/**
 * Shows a file record's row, selected: its organisation, group and folders are expanded on the way, each list read
 * as an expand would (a folder's row is expanded too). A row the view cannot reach (past a "Load more…", hidden by
 * the group's filters, folders the search could not name and the view has not loaded) is not shown; the record is
 * open anyway.
 */
async function reveal(provider: ExplorerProvider, view: vscode.TreeView<PortalTreeNode>, file: FileRef): Promise<void> {
  const row = await provider.rowOf(file);
  if (row) await view.reveal(row, { select: true, focus: false, expand: file.isFolder });
}

/**
 * Reveals one chosen row at a time, and only the latest: a reveal still reading its folders when the next record is
 * chosen would otherwise finish last and select the older row.
 */
function revealInTurn(
  provider: ExplorerProvider,
  view: vscode.TreeView<PortalTreeNode>,
  log: CommandEnv['log'],
): (file: FileRef) => void {
  let latest = 0;
  let turn: Promise<void> = Promise.resolve();
  return (file) => {
    const mine = ++latest;
    turn = turn
      .then(() => (mine === latest ? reveal(provider, view, file) : undefined))
      .catch((error: unknown) => log.info(`Go to File Record: the row was not revealed: ${errorMessage(error)}`));
  };
}

/** Calls `follow` with the first selected row whenever the selection changes, or the view resolves it late. */
function followSelection(
  view: vscode.TreeView<PortalTreeNode>,
  provider: ExplorerProvider,
  follow: (node: PortalTreeNode | undefined) => void,
): vscode.Disposable[] {
  let unresolved = false;
  return [
    view.onDidChangeSelection((e) => {
      unresolved = e.selection.length === 0;
      follow(e.selection[0]);
    }),
    // A click that lands while the view redraws (as after a save's reload) arrives as an empty selection: the
    // extension host has forgotten the rows it is asking for again, and it never reports that row once it knows
    // it again. So after an empty selection, the selection is read again whenever the view has its rows back.
    provider.onDidAnswer(() => {
      if (unresolved && view.selection[0]) {
        unresolved = false;
        follow(view.selection[0]);
      }
    }),
  ];
}

export type ExplorerDeps = FeatureDeps & {
  readonly records: RecordsHandle;
  /** performance.now() when activate() started. */ readonly activatedAt: number;
  /** The access store, for Who Can Reach This… (the members feature is made after the Explorer). */
  readonly access: () => AccessHandle | undefined;
};

/** What the records feature tells the Explorer: a record to show, and files whose rows are out of date. */
function followRecords(
  records: RecordsHandle,
  provider: ExplorerProvider,
  view: vscode.TreeView<PortalTreeNode>,
  log: CommandEnv['log'],
): vscode.Disposable[] {
  return [
    // "Go to File Record…" chose a record: its row is shown in the Explorer too.
    records.onDidGoTo(revealInTurn(provider, view, log)),
    // A file saved back has a new size and date: its group's lists are read again (the rows stay until they are in).
    records.onDidChangeFiles((g) => provider.reload(groupKey(g))),
  ];
}

export function registerExplorer(context: vscode.ExtensionContext, deps: ExplorerDeps): ExplorerFeature {
  const { auth, commands, forms, records } = deps;
  const { registry } = auth;
  const state = new ExplorerState(context.globalState);
  const provider = new ExplorerProvider(registry, commands.ui, state);
  const view = vscode.window.createTreeView<PortalTreeNode>(EXPLORER_VIEW, {
    treeDataProvider: provider,
    showCollapseAll: true,
    dragAndDropController: records.dropOnTree,
  });
  void syncDisabledHidden(state, view);
  // The walkthrough's "Browse" step: done once the view has been on screen, in this session or an earlier one.
  const shown = new StickyContext(context.globalState, 'portal.explorerShown');
  if (view.visible) shown.mark();
  const selected = new vscode.EventEmitter<AccountRef>();
  const follow = (node: PortalTreeNode | undefined): void => {
    if (!node) return;
    auth.statusBar.setActive(node.portalId);
    const account = accountOf(node.ref);
    if (account) selected.fire(account);
  };
  context.subscriptions.push(
    provider,
    view,
    provider.followExpansion(view, context.workspaceState),
    selected,
    view.onDidChangeVisibility((e) => (e.visible ? shown.mark() : undefined)),
    // Anything under an organisation selects it for the Members view; the row's portal becomes the active one.
    ...followSelection(view, provider, follow),
    ...registerViewCommands(commands, 'explorer', provider, true),
    ...registerExplorerCommands(commands, {
      registry,
      records,
      provider,
      settings: deps.settings,
      groupsChanged: (g) => provider.reload(accountKey(g.account)),
    }),
    ...registerExplorerForms(commands, forms, registry, provider, deps.settings),
    registerCommand(commands, 'portal.explorer.whoCanReach', (run) =>
      whoCanReach(run, { registry, access: deps.access }),
    ),
    ...registerFileViewCommands(commands, { registry, state, provider, view }),
    ...followRecords(records, provider, view, commands.log),
  );
  const activationMs = (): number | undefined =>
    provider.firstRowsAt === undefined ? undefined : provider.firstRowsAt - deps.activatedAt;
  return {
    provider,
    view,
    onDidSelectAccount: selected.event,
    selected: () => view.selection[0]?.ref,
    refresh: () => provider.refresh(),
    membersChanged: (a) => provider.membersChanged(a),
    activationMs,
  };
}
