/** The Explorer: portals → accounts → groups → folders → files. One request per expand (see loaders.ts). */
import * as vscode from 'vscode';
import { accountPermissionLabel, type PortalClient } from '../../api';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { Ui } from '../../ui/ui';
import { errorMessage } from '../../shared/errors';
import { count, filesWord, fullDate, humanSize, shortDate } from '../../shared/format';
import { portalKey, type TreeKey } from '../../shared/keys';
import {
  AccountExtras, accountsFetcher, filesFetcher, groupsFetcher, type AccountRow, type FileRow, type GroupRow,
} from './loaders';
import { AccountNode, FileNode, GroupNode, PortalNode, type PortalTreeNode } from './nodes';
import { PagedTreeProvider } from '../../views/pagedProvider';
import { plain } from '../../shared/plainText';

export const EXPLORER_VIEW = 'portal.explorer';

export class ExplorerProvider extends PagedTreeProvider {
  /** Tooltip extras per portal, tied to the client they were fetched with. */
  private readonly extras = new Map<string, { client: PortalClient; extras: AccountExtras }>();
  private readonly clients = new Map<string, PortalClient | undefined>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly registry: PortalRegistry, ui: () => Ui) {
    super(EXPLORER_VIEW, { loadMore: 'portal.explorer.loadMore', retry: 'portal.explorer.retry' }, ui);
    this.subscription = registry.onDidChange(() => this.onRegistryChanged());
    for (const c of registry.list()) this.clients.set(c.entry.id, c.client);
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
        noun: 'accounts',
        emptyText: 'You belong to no organisation on this portal.',
      });
    }
    if (element instanceof AccountNode) {
      return this.listChildren<GroupRow>({
        portalId: element.portalId,
        parent: element,
        key: element.key,
        fetcher: () => groupsFetcher(this.registry.client(element.portalId), element.accountId),
        keyOf: (r) => r.groupId,
        toNode: (r) => new GroupNode(element, r),
        noun: 'groups',
        emptyText: 'No groups you can see in this organisation.',
      });
    }
    if (element instanceof GroupNode || (element instanceof FileNode && element.isFolder)) {
      const folderId = element instanceof FileNode ? element.fileId : undefined;
      const words = filesWord(this.knownCustomNames(element.portalId, element.accountId));
      return this.listChildren<FileRow>({
        portalId: element.portalId,
        parent: element,
        key: element.key,
        fetcher: () => filesFetcher(this.registry.client(element.portalId), element.accountId, element.groupId, folderId),
        keyOf: (r) => r.id,
        toNode: (r) => new FileNode(element, r),
        noun: words.many.toLowerCase(),
        emptyText: folderId === undefined ? `No ${words.many.toLowerCase()} in this group.` : 'This folder is empty.',
      });
    }
    return [];
  }

  /** Tooltips that need data the expand did not fetch: asked for on hover only, then cached. */
  async resolveTreeItem(item: vscode.TreeItem, element: PortalTreeNode, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (element instanceof FileNode) {
      item.tooltip = element.tooltip();
    } else if (element instanceof AccountNode) {
      item.tooltip = plain(await this.accountTooltip(element, token), { multiline: true });
    } else if (element instanceof GroupNode) {
      item.tooltip = plain(await this.groupTooltip(element), { multiline: true });
    }
    return item;
  }

  private async accountTooltip(node: AccountNode, token: vscode.CancellationToken): Promise<string> {
    const r = node.row;
    const lines = [
      `${r.friendlyName} (${r.name})`,
      `Plan: ${r.planCode || 'unknown'}${r.trialExpires !== null ? `, trial until ${shortDate(r.trialExpires)}` : ''}${r.paused ? ', paused' : ''}`,
      `Your permission: ${accountPermissionLabel(r.permission)}`,
      `Member of ${r.memberOfSpaces} ${r.memberOfSpaces === 1 ? 'group' : 'groups'}`,
    ];
    const extras = this.extrasFor(node.portalId);
    if (!extras) return lines.join('\n');
    void extras.customNames(node.accountId).catch(() => undefined); // warms the file-area labels of this account
    try {
      const s = await extras.subscription(node.accountId);
      if (token.isCancellationRequested) return lines.join('\n');
      if ('forbidden' in s) {
        lines.push('Storage and member figures need administrator rights in this organisation.');
      } else {
        const p = s.accountPackage;
        lines.push(`Subscription: ${s.plan || p.code}${p.suspended ? ' (suspended)' : ''}`);
        lines.push(`Storage: ${humanSize(s.storageUsed)} of ${p.storage !== null ? humanSize(p.storage) : 'unlimited'}`);
        lines.push(`Members: ${count(s.membersUsed)} of ${p.members !== null ? count(p.members) : 'unlimited'}`);
        if (p.paused && p.datePausedAt !== null) lines.push(`Paused since ${fullDate(p.datePausedAt)}`);
      }
    } catch (error) {
      lines.push(`Plan details could not be loaded: ${errorMessage(error)}`);
    }
    return lines.join('\n');
  }

  private async groupTooltip(node: GroupNode): Promise<string> {
    const r = node.row;
    const lines = [
      `${r.friendlyName} (${r.name})`,
      `${count(r.members)} ${r.members === 1 ? 'member' : 'members'}`,
      `Storage used: ${humanSize(r.storageConsumed)}`,
    ];
    if (r.lastModified) lines.push(`Modified ${shortDate(r.lastModified)}`);
    try {
      const names = await this.extrasFor(node.portalId)?.customNames(node.accountId);
      const words = filesWord(names);
      if (words.many !== 'Files') lines.push(`Files are called "${words.many}" here.`);
    } catch {
      // Custom names only decorate the tooltip.
    }
    return lines.join('\n');
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
    else if (node instanceof AccountNode) this.extras.get(node.portalId)?.extras.clear(node.accountId);
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
    super.dispose();
  }
}
