/** The Explorer: portals → accounts → groups → folders → files. One request per expand (see loaders.ts). */
import * as vscode from 'vscode';
import type { PortalClient } from '../../../api';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { AccountRef, FileRef } from '../../../shared/refs';
import { filesWord } from '../../../shared/format';
import { accountKey, emptyKey, fileKey, noticeKey, portalKey, type TreeKey } from '../../../shared/keys';
import type { Ui } from '../../../ui/ui';
import { plainTooltip } from '../../../views/item';
import type { PortalTreeNode } from '../../../views/node';
import { PagedTreeProvider } from '../../../views/pagedProvider';
import { PortalNode } from '../../../views/portalNode';
import { MessageNode } from '../../../views/rows';
import { AccountExtras } from './accountExtras';
import { ExpandedRows, type ExplorerState } from './explorerState';
import { describeFileView, sameFileView, unappliedIn, unappliedWords, type FileListView } from '../files/fileListView';
import {
  accountsFetcher,
  filesFetcher,
  groupsFetcher,
  type AccountRow,
  type GroupRow,
  type listedFile,
} from './loaders';
import { AccountNode, FileNode, GroupNode, groupNodeOf } from './nodes';
import { accountTooltip, fileViewTooltip, groupTooltip } from './tooltips';

export const EXPLORER_VIEW = 'portal.explorer';

/** Folder levels looked through for a loaded row (a portal's folders may nest deeper; those are not revealed). */
const MAX_REVEAL_DEPTH = 32;

export class ExplorerProvider extends PagedTreeProvider {
  /** Tooltip extras per portal, tied to the client they were fetched with. */
  private readonly extras = new Map<string, { client: PortalClient; extras: AccountExtras }>();
  private readonly clients = new Map<string, PortalClient | undefined>();
  private readonly subscription: vscode.Disposable;
  private readonly answered = new vscode.EventEmitter<void>();
  /** Rows left expanded (none kept until the view follows them). */
  private expandedRows: ExpandedRows | undefined;
  /** getChildren answered VS Code; by the time this fires, the extension host knows the rows it answered with. */
  readonly onDidAnswer = this.answered.event;

  constructor(
    private readonly registry: PortalRegistry,
    ui: () => Ui,
    readonly state: ExplorerState,
  ) {
    super(EXPLORER_VIEW, { loadMore: 'portal.explorer.loadMore', retry: 'portal.explorer.retry' }, ui);
    this.subscription = registry.onDidChange(() => this.onRegistryChanged());
    for (const c of registry.list()) this.clients.set(c.entry.id, c.client);
  }

  /** Keeps which rows `view` shows expanded in `memento`, and shows them expanded again in the next session. */
  followExpansion(view: vscode.TreeView<PortalTreeNode>, memento: vscode.Memento): vscode.Disposable {
    const rows = new ExpandedRows(memento);
    this.expandedRows = rows;
    return vscode.Disposable.from(
      view.onDidExpandElement((e) => rows.expanded(e.element.key)),
      view.onDidCollapseElement((e) => rows.collapsed(e.element.key)),
    );
  }

  override getTreeItem(element: PortalTreeNode): vscode.TreeItem {
    const item = super.getTreeItem(element);
    if (item.collapsibleState === vscode.TreeItemCollapsibleState.Collapsed && this.expandedRows?.has(element.key))
      item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
    return item;
  }

  override async getChildren(element?: PortalTreeNode): Promise<PortalTreeNode[]> {
    try {
      return await super.getChildren(element);
    } finally {
      // A macrotask: the extension host records the answered rows in the microtasks that follow this answer.
      setTimeout(() => this.answered.fire(), 0);
    }
  }

  protected async childrenOf(element?: PortalTreeNode): Promise<PortalTreeNode[]> {
    if (!element) return this.registry.list().map((c) => new PortalNode(c, 'explorer'));
    if (element instanceof PortalNode) return this.accountsOf(element);
    if (element instanceof AccountNode) {
      return this.listChildren<GroupRow>({
        portalId: element.portalId,
        parent: element,
        key: element.key,
        fetcher: () => groupsFetcher(this.registry.client(element.portalId), element.ref.accountId),
        keyOf: (r) => r.groupId,
        toNode: (r) =>
          new GroupNode(element, r, (g) => describeFileView(this.state.fileView(g.key), this.state.unappliedIn(g.key))),
        noun: vscode.l10n.t('groups'),
        emptyText: vscode.l10n.t('No groups you can see in this organisation.'),
      });
    }
    if (element instanceof GroupNode || (element instanceof FileNode && element.ref.isFolder))
      return this.filesOf(element);
    return [];
  }

  /**
   * The organisations of userinfo. Disabled ones are hidden here, not asked of GET /v3/accounts?enabledOnly:
   * userinfo already says which are enabled, and only it carries the user's permission and plan in each, so the
   * toggle costs no request and the expand stays one.
   */
  private async accountsOf(element: PortalNode): Promise<PortalTreeNode[]> {
    const rows = await this.listChildren<AccountRow>({
      portalId: element.portalId,
      parent: element,
      key: element.key,
      fetcher: () => accountsFetcher(this.registry.client(element.portalId)),
      keyOf: (r) => r.accountId,
      toNode: (r) => new AccountNode(element, r),
      noun: vscode.l10n.t('organisations'),
      emptyText: vscode.l10n.t('You belong to no organisation on this portal.'),
    });
    if (!this.state.hideDisabledAccounts) return rows;
    const shown = rows.filter((n) => !(n instanceof AccountNode) || n.row.enabled);
    if (shown.length > 0 || rows.length === 0) return shown;
    return [
      new MessageNode(
        element.portalId,
        element,
        emptyKey(element.key),
        vscode.l10n.t('Every organisation here is disabled, and disabled organisations are hidden.'),
      ),
    ];
  }

  /** A group's root level or a folder's children, in the group's order and filters. */
  private async filesOf(element: GroupNode | FileNode): Promise<PortalTreeNode[]> {
    const folderId = element instanceof FileNode ? element.ref.fileId : undefined;
    const group = groupNodeOf(element);
    const view = this.state.fileView(group.key);
    const words = filesWord(this.knownCustomNames(element.portalId, group.ref.account.accountId));
    const rows = await this.listChildren<ReturnType<typeof listedFile>>({
      portalId: element.portalId,
      parent: element,
      key: element.key,
      fetcher: () =>
        filesFetcher(
          this.registry.client(element.portalId),
          group.ref.account.accountId,
          group.ref.groupId,
          folderId,
          view,
          (page) => this.checkPage(group, view, page),
        ),
      keyOf: (r) => r.id,
      toNode: (r) => new FileNode(element, r),
      noun: words.many.toLowerCase(),
      emptyText:
        folderId === undefined
          ? vscode.l10n.t('No {0} in this group.', words.many.toLowerCase())
          : vscode.l10n.t('This folder is empty.'),
    });
    const ignored = unappliedWords(view, this.state.unappliedIn(group.key));
    if (!ignored) return rows;
    const notice = vscode.l10n.t('This portal ignored {0}: the rows are as it listed them.', ignored);
    return [new MessageNode(element.portalId, element, noticeKey(element.key), notice, 'warning'), ...rows];
  }

  /** A page that shows the portal ignored the group's order or filters: the group row says so from now on. */
  private checkPage(group: GroupNode, view: FileListView, page: readonly ReturnType<typeof listedFile>[]): void {
    // A page of a list asked for before the view changed says nothing about the new view.
    if (!sameFileView(this.state.fileView(group.key), view)) return;
    if (this.state.noteUnapplied(group.key, unappliedIn(view, page))) this.changed.fire(group);
  }

  /**
   * Members of an organisation were added, removed or re-assigned: its groups' member counts are read again (that
   * list alone, not the files below each group) and its member figures on the next hover.
   */
  membersChanged(account: Pick<AccountRef, 'portalId' | 'accountId'>): void {
    this.extras.get(account.portalId)?.extras.forgetSubscription(account.accountId);
    this.reload(accountKey(account), true);
  }

  /** Draws the view again from what it has (a change of what is shown, not of the portal's data). */
  redraw(): void {
    this.changed.fire(undefined);
  }

  /**
   * The row of a file record, made from lists the view has already loaded, or undefined when any level on the
   * way is not loaded (showing it would cost requests). Folders are looked through breadth first, only as far
   * as their lists are loaded.
   */
  loadedRowOf(file: FileRef): PortalTreeNode | undefined {
    const connection = this.registry.get(file.group.account.portalId);
    if (!connection?.client) return undefined;
    const portal = new PortalNode(connection, 'explorer');
    const accountRow = this.shownList<AccountRow>(portal.key)?.find(file.group.account.accountId);
    if (!accountRow || (this.state.hideDisabledAccounts && !accountRow.enabled)) return undefined;
    const account = new AccountNode(portal, accountRow);
    const groupRow = this.shownList<GroupRow>(account.key)?.find(file.group.groupId);
    if (!groupRow) return undefined;
    let level: Array<GroupNode | FileNode> = [
      new GroupNode(account, groupRow, (g) =>
        describeFileView(this.state.fileView(g.key), this.state.unappliedIn(g.key)),
      ),
    ];
    for (let depth = 0; level.length > 0 && depth < MAX_REVEAL_DEPTH; depth++) {
      const next: FileNode[] = [];
      for (const parent of level) {
        const list = this.shownList<ReturnType<typeof listedFile>>(parent.key);
        if (!list) continue;
        const row = list.find(file.fileId);
        if (row) return new FileNode(parent, row);
        for (const r of list.items)
          if (r.isFolder && this.shownList(fileKey(parent.key, r.id))) next.push(new FileNode(parent, r));
      }
      level = next;
    }
    return undefined;
  }

  /**
   * The row of a file record, reading each list on the way that is not loaded yet (one request each, as expanding
   * it would), when the ref names its folders; else only from loaded lists (loadedRowOf). Undefined when a level
   * does not list the next one (not on its loaded pages, hidden, or gone).
   */
  async rowOf(file: FileRef): Promise<PortalTreeNode | undefined> {
    const loaded = this.loadedRowOf(file);
    if (loaded || !file.folders) return loaded;
    const { account } = file.group;
    const steps: Array<(n: PortalTreeNode) => boolean> = [
      (n) => n instanceof PortalNode && n.portalId === account.portalId,
      (n) => n instanceof AccountNode && n.ref.accountId === account.accountId,
      (n) => n instanceof GroupNode && n.ref.groupId === file.group.groupId,
      ...[...file.folders, { id: file.fileId }].map(
        (f) => (n: PortalTreeNode) => n instanceof FileNode && n.ref.fileId === f.id,
      ),
    ];
    let node: PortalTreeNode | undefined;
    for (const step of steps) {
      node = (await this.getChildren(node)).find(step);
      if (!node) return undefined;
    }
    return node;
  }

  /** Tooltips that need data the expand did not fetch: asked for on hover only, then cached. */
  async resolveTreeItem(
    item: vscode.TreeItem,
    element: PortalTreeNode,
    token: vscode.CancellationToken,
  ): Promise<vscode.TreeItem> {
    if (element instanceof FileNode) {
      item.tooltip = element.tooltip();
    } else if (element instanceof AccountNode) {
      item.tooltip = plainTooltip(
        await accountTooltip(element.row, this.extrasFor(element.portalId), () => token.isCancellationRequested),
      );
    } else if (element instanceof GroupNode) {
      const view = this.state.fileView(element.key);
      item.tooltip = plainTooltip(
        [
          await groupTooltip(element.row, this.extrasFor(element.portalId)),
          ...fileViewTooltip(view, this.state.unappliedIn(element.key)),
        ].join('\n'),
      );
    }
    return item;
  }

  private knownCustomNames(portalId: string, accountId: number) {
    return this.extrasFor(portalId)?.knownCustomNames(accountId);
  }

  private extrasFor(portalId: string): AccountExtras | undefined {
    const client = this.registry.get(portalId)?.client;
    if (!client) return undefined;
    const known = this.extras.get(portalId);
    if (known?.client === client) return known.extras;
    const extras = new AccountExtras(client);
    this.extras.set(portalId, { client, extras });
    return extras;
  }

  override refresh(node?: PortalTreeNode): void {
    this.state.forgetUnapplied(node?.key);
    if (!node) this.extras.clear();
    else if (node instanceof PortalNode) this.extras.delete(node.portalId);
    else if (node instanceof AccountNode) this.extras.get(node.portalId)?.extras.clear(node.ref.accountId);
    super.refresh(node);
  }

  override reload(key?: TreeKey, only = false): void {
    if (key === undefined) this.extras.clear();
    super.reload(key, only);
  }

  /** A sign-in or sign-out changes a portal's client: its cached lists belong to the old session. */
  private onRegistryChanged(): void {
    const seen = new Set<string>();
    for (const c of this.registry.list()) {
      seen.add(c.entry.id);
      if (this.clients.get(c.entry.id) !== c.client || !this.clients.has(c.entry.id)) {
        this.cache.drop(portalKey('explorer', c.entry.id));
        this.extras.delete(c.entry.id);
      }
      this.clients.set(c.entry.id, c.client);
    }
    for (const id of [...this.clients.keys()]) {
      if (!seen.has(id)) {
        this.clients.delete(id);
        this.cache.drop(portalKey('explorer', id));
        this.extras.delete(id);
      }
    }
    this.changed.fire(undefined);
  }

  override dispose(): void {
    this.subscription.dispose();
    this.answered.dispose();
    super.dispose();
  }
}
