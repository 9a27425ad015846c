/**
 * The Portal views (Explorer, Members, Applications) and their commands: one entry point for extension.ts.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { PortalStatusBar } from '../../auth/statusBar';
import { registerApplicationCommands } from '../applications/commands';
import { registerGroupCommands } from './commands';
import { registerMemberCommands } from '../members/memberCommands';
import { registerMembersViewCommands } from '../members/viewCommands';
import { guarded, type CommandEnv } from '../../ui/commands';
import type { ViewsHandle } from '../views';
import { ApplicationsProvider, APPLICATIONS_VIEW } from '../applications/applicationsProvider';
import { ExplorerProvider, EXPLORER_VIEW } from './explorerProvider';
import { MembersProvider, MEMBERS_VIEW } from '../members/membersProvider';
import { accountOf, ErrorNode, LoadMoreNode, PortalTreeNode } from './nodes';
import type { PagedTreeProvider } from '../../views/pagedProvider';
import { accountKey, portalKey } from '../../shared/keys';
import { plain } from '../../shared/plainText';
import type { Ui } from '../../ui/ui';

export interface ExplorerApi {
  readonly explorer: ExplorerProvider;
  readonly members: MembersProvider;
  readonly applications: ApplicationsProvider;
  readonly explorerView: vscode.TreeView<PortalTreeNode>;
  readonly membersView: vscode.TreeView<PortalTreeNode>;
  readonly applicationsView: vscode.TreeView<PortalTreeNode>;
}

export interface ExplorerDeps {
  readonly registry: PortalRegistry;
  readonly log: vscode.LogOutputChannel;
  readonly statusBar: PortalStatusBar;
  readonly ui: () => Ui;
}

export function registerExplorer(context: vscode.ExtensionContext, deps: ExplorerDeps): ExplorerApi {
  const { registry, statusBar } = deps;
  const env: CommandEnv = deps;
  const explorer = new ExplorerProvider(registry, deps.ui);
  const members = new MembersProvider(registry, deps.ui);
  const applications = new ApplicationsProvider(registry, deps.ui);

  const explorerView = vscode.window.createTreeView(EXPLORER_VIEW, { treeDataProvider: explorer, showCollapseAll: true });
  const membersView = vscode.window.createTreeView(MEMBERS_VIEW, { treeDataProvider: members });
  const applicationsView = vscode.window.createTreeView(APPLICATIONS_VIEW, { treeDataProvider: applications });

  const views: ViewsHandle = {
    refreshAccount: (portalId, accountId) => explorer.reload(accountKey({ portalId, accountId })),
    membersTarget: () => members.target,
    memberChanged: (portalId, accountId, row) => members.memberChanged(portalId, accountId, row),
    memberRemoved: (portalId, accountId, username) => members.memberRemoved(portalId, accountId, username),
    refreshApplications: (portalId) => applications.reload(portalId ? portalKey('applications', portalId) : undefined),
  };

  /** The per-view commands every paged view has. */
  const viewCommands = (name: string, provider: PagedTreeProvider): vscode.Disposable[] => [
    // From a node's inline button: that node; from the view title or the palette: the whole view.
    guarded(env, `portal.${name}.refresh`, (arg?: unknown) => provider.refresh(arg instanceof PortalTreeNode ? arg : undefined)),
    // Not in the palette: what a form runs after a save (src/webview/refresh.ts). The rows stay until new ones come.
    guarded(env, `portal.${name}.reload`, () => provider.reload()),
    guarded(env, `portal.${name}.loadMore`, (arg?: unknown) => (arg instanceof LoadMoreNode || arg instanceof ErrorNode ? provider.loadMore(arg) : undefined)),
    guarded(env, `portal.${name}.retry`, (arg?: unknown) => (arg instanceof ErrorNode ? provider.retry(arg) : provider.refresh())),
  ];

  context.subscriptions.push(
    explorer,
    members,
    applications,
    explorerView,
    membersView,
    applicationsView,
    members.onDidChangeDescription((d) => (membersView.description = d === undefined ? undefined : plain(d))),
    // The Members view follows the Explorer: selecting an account, or anything under it, shows its members.
    explorerView.onDidChangeSelection((e) => {
      const node = e.selection[0];
      if (!node) return;
      statusBar.setActive(node.portalId);
      const account = accountOf(node);
      if (account) members.setTarget({ portalId: account.portalId, accountId: account.accountId, accountLabel: account.label });
    }),
    ...viewCommands('explorer', explorer),
    ...viewCommands('members', members),
    ...viewCommands('applications', applications),
    guarded(env, 'portal.explorer.refreshNode', (arg?: unknown) => explorer.refresh(arg instanceof PortalTreeNode ? arg : undefined)),
    ...registerGroupCommands(registry, views, env),
    ...registerMembersViewCommands(registry, {
      target: () => members.target,
      setTarget: (t) => members.setTarget(t),
      query: () => members.query,
      setQuery: (q) => members.setQuery(q),
    }, env),
    ...registerMemberCommands({ registry, views }, () => {
      const t = members.target;
      return t ? { portalId: t.portalId, accountId: t.accountId, label: t.accountLabel } : undefined;
    }, env),
    ...registerApplicationCommands(registry, views, env),
  );

  return { explorer, members, applications, explorerView, membersView, applicationsView };
}
