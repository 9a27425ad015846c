/** The Explorer: portals → accounts → groups → folders → files. One request per expand (see loaders.ts). */
import * as vscode from 'vscode';
import type { PortalClient } from '../../api';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { filesWord } from '../../shared/format';
import { portalKey, type TreeKey } from '../../shared/keys';
import type { Ui } from '../../ui/ui';
import { plainTooltip } from '../../views/item';
import type { PortalTreeNode } from '../../views/node';
import { PagedTreeProvider } from '../../views/pagedProvider';
import { PortalNode } from '../../views/portalNode';
import { AccountExtras } from './accountExtras';
import { accountsFetcher, filesFetcher, groupsFetcher, type AccountRow, type FileRow, type GroupRow } from './loaders';
import { AccountNode, FileNode, GroupNode } from './nodes';
import { accountTooltip, groupTooltip } from './tooltips';

export const EXPLORER_VIEW = 'portal.explorer';

export class ExplorerProvider extends PagedTreeProvider {
  /** Tooltip extras per portal, tied to the client they were fetched with. */
  private readonly extras = new Map<string, { client: PortalClient; extras: AccountExtras }>();
  private readonly clients = new Map<string, PortalClient | undefined>();
  private readonly subscription: vscode.Disposable;
  private readonly answered = new vscode.EventEmitter<void>();
  /** getChildren answered VS Code; by the time this fires, the extension host knows the rows it answered with. */
  readonly onDidAnswer = this.answered.event;

  constructor(private readonly registry: PortalRegistry, ui: () => Ui) {
    super(EXPLORER_VIEW, { loadMore: 'portal.explorer.loadMore', retry: 'portal.explorer.retry' }, ui);
    this.subscription = registry.onDidChange(() => this.onRegistryChanged());
    for (const c of registry.list()) this.clients.set(c.entry.id, c.client);
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
    if (element instanceof PortalNode) {
      return this.listChildren<AccountRow>({
        portalId: element.portalId,
        parent: element,
        key: element.key,
        fetcher: () => accountsFetcher(this.registry.client(element.portalId)),
        keyOf: (r) => r.accountId,
        toNode: (r) => new AccountNode(element, r),
        noun: vscode.l10n.t('organisations'),
        emptyText: vscode.l10n.t('You belong to no organisation on this portal.'),
      });
    }
    if (element instanceof AccountNode) {
      return this.listChildren<GroupRow>({
        portalId: element.portalId,
        parent: element,
        key: element.key,
        fetcher: () => groupsFetcher(this.registry.client(element.portalId), element.ref.accountId),
        keyOf: (r) => r.groupId,
        toNode: (r) => new GroupNode(element, r),
        noun: vscode.l10n.t('groups'),
        emptyText: vscode.l10n.t('No groups you can see in this organisation.'),
      });
    }
    if (element instanceof GroupNode || (element instanceof FileNode && element.ref.isFolder)) {
      const folderId = element instanceof FileNode ? element.ref.fileId : undefined;
      const group = element instanceof FileNode ? element.ref.group : element.ref;
      const words = filesWord(this.knownCustomNames(element.portalId, group.account.accountId));
      return this.listChildren<FileRow>({
        portalId: element.portalId,
        parent: element,
        key: element.key,
        fetcher: () => filesFetcher(this.registry.client(element.portalId), group.account.accountId, group.groupId, folderId),
        keyOf: (r) => r.id,
        toNode: (r) => new FileNode(element, r),
        noun: words.many.toLowerCase(),
        emptyText: folderId === undefined ? vscode.l10n.t('No {0} in this group.', words.many.toLowerCase()) : vscode.l10n.t('This folder is empty.'),
      });
    }
    return [];
  }

  /** Tooltips that need data the expand did not fetch: asked for on hover only, then cached. */
  async resolveTreeItem(item: vscode.TreeItem, element: PortalTreeNode, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (element instanceof FileNode) {
      item.tooltip = element.tooltip();
    } else if (element instanceof AccountNode) {
      item.tooltip = plainTooltip(await accountTooltip(element.row, this.extrasFor(element.portalId), () => token.isCancellationRequested));
    } else if (element instanceof GroupNode) {
      item.tooltip = plainTooltip(await groupTooltip(element.row, this.extrasFor(element.portalId)));
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
    if (!node) this.extras.clear();
    else if (node instanceof PortalNode) this.extras.delete(node.portalId);
    else if (node instanceof AccountNode) this.extras.get(node.portalId)?.extras.clear(node.ref.accountId);
    super.refresh(node);
  }

  override reload(key?: TreeKey): void {
    if (key === undefined) this.extras.clear();
    super.reload(key);
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
