/**
 * The nodes of the Explorer, Members and Applications views. Commands receive these objects as their argument,
 * so each carries the ids a command needs (portalId, accountId, groupId, fileId, username, clientId).
 *
 * contextValue of each node (for `when` clauses in package.json menus; use `viewItem =~ /^member\./` style
 * regexes where a value has states):
 *
 * | contextValue               | node                                    | fields                                  |
 * |----------------------------|-----------------------------------------|-----------------------------------------|
 * | portal.signedIn            | a portal with a session (any view)      | portalId                                |
 * | portal.signedOut           | a portal without a session              | portalId                                |
 * | account                    | an organisation (Explorer)              | portalId, accountId                     |
 * | account.admin              | …where the user is an administrator     | portalId, accountId                     |
 * | group                      | a group (Explorer)                      | portalId, accountId, groupId            |
 * | folder                     | a folder file record                    | portalId, accountId, groupId, fileId    |
 * | file                       | a file record                           | portalId, accountId, groupId, fileId    |
 * | member.enabled             | a member (Members view)                 | portalId, accountId, username           |
 * | member.disabled            | a disabled member                       | portalId, accountId, username           |
 * | member.enabled.locked      | a locked member (also .disabled.locked) | portalId, accountId, username           |
 * | application                | an application (Applications view)      | portalId, clientId                      |
 * | application.current        | the application this window signs in as | portalId, clientId                      |
 * | loadMore                   | "Load more…"                            | (internal)                              |
 * | range                      | rows 1–100… of a long list, folded      | (internal)                              |
 * | error                      | a failed load; click retries            | portalId                                |
 * | error.signedOut            | "Sign in again"                         | portalId                                |
 * | empty                      | "No groups" and similar                 |                                         |
 */
import * as vscode from 'vscode';
import { accountPermissionLabel, isPortalError, NOT_SIGNED_IN } from '../../api';
import type { PortalConnection } from '../../auth/portalRegistry';
import { plain } from '../../shared/plainText';
import type { PagedList } from '../../views/paging';
import { errorMessage } from '../../shared/errors';
import { count, countLabel, humanSize, iconForContentType, relativeTime, shortDate } from '../../shared/format';
import {
  accountKey, applicationKey, errorKey, fileKey, groupKey, memberKey, moreKey, portalKey, rangeKey, type TreeKey, type ViewName,
} from '../../shared/keys';
import type { MemberRow } from '../../shared/members';
import type { AccountRow, ApplicationRow, FileRow, GroupRow } from './loaders';

export abstract class PortalTreeNode {
  /** Stable id for VS Code (keeps expansion state across refreshes) and the cache key of this node's children. */
  abstract readonly key: TreeKey;
  abstract readonly portalId: string;
  /** The node whose children include this one; refreshing a child refreshes through its parent. */
  abstract readonly parent: PortalTreeNode | undefined;
  abstract treeItem(): vscode.TreeItem;
}

export class PortalNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly parent = undefined;
  readonly portalId: string;
  constructor(readonly connection: PortalConnection, readonly view: ViewName) {
    super();
    this.portalId = connection.entry.id;
    this.key = portalKey(view, this.portalId);
  }

  get signedIn(): boolean {
    return this.connection.client !== undefined;
  }

  treeItem(): vscode.TreeItem {
    const c = this.connection;
    const item = new vscode.TreeItem(plain(c.entry.label), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.key;
    item.contextValue = this.signedIn ? 'portal.signedIn' : 'portal.signedOut';
    item.description = this.signedIn ? plain(c.username) : 'signed out';
    item.iconPath = new vscode.ThemeIcon(this.signedIn ? 'globe' : 'debug-disconnect');
    item.tooltip = plain(this.signedIn
      ? `${c.entry.label}\n${c.entry.baseUrl}\nSigned in as ${c.username ?? ''}`
      : `${c.entry.label}\n${c.entry.baseUrl}\nSigned out${c.signedOutReason ? `: ${c.signedOutReason}` : ''}`, { multiline: true });
    return item;
  }
}

export class AccountNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly portalId: string;
  readonly accountId: number;
  constructor(readonly parent: PortalNode, readonly row: AccountRow) {
    super();
    this.portalId = parent.portalId;
    this.accountId = row.accountId;
    this.key = accountKey({ portalId: this.portalId, accountId: row.accountId });
  }

  get label(): string {
    return this.row.friendlyName;
  }

  treeItem(): vscode.TreeItem {
    const r = this.row;
    const item = new vscode.TreeItem(plain(r.friendlyName), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.key;
    item.contextValue = r.admin || r.permission >= 16 ? 'account.admin' : 'account';
    const states = [
      r.planCode,
      r.trialExpires !== null ? 'trial' : '',
      r.paused ? 'paused' : '',
      r.enabled ? '' : 'disabled',
    ].filter(Boolean);
    item.description = plain(states.join(' · '));
    item.iconPath = new vscode.ThemeIcon('organization', r.enabled ? undefined : new vscode.ThemeColor('disabledForeground'));
    // The tooltip is completed on hover (resolveTreeItem) with the subscription, which costs a request.
    return item;
  }
}

export class GroupNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly portalId: string;
  readonly accountId: number;
  readonly groupId: number;
  constructor(readonly parent: AccountNode, readonly row: GroupRow) {
    super();
    this.portalId = parent.portalId;
    this.accountId = row.accountId;
    this.groupId = row.groupId;
    this.key = groupKey({ account: parent, groupId: row.groupId });
  }

  get label(): string {
    return this.row.friendlyName;
  }

  treeItem(): vscode.TreeItem {
    const r = this.row;
    const item = new vscode.TreeItem(plain(r.friendlyName), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.key;
    item.contextValue = 'group';
    item.description = `${count(r.members)} ${r.members === 1 ? 'member' : 'members'}`;
    item.iconPath = new vscode.ThemeIcon('project');
    return item;
  }
}

/** A folder or a file: both are file records. */
export class FileNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly portalId: string;
  readonly accountId: number;
  readonly groupId: number;
  readonly fileId: number;
  constructor(readonly parent: GroupNode | FileNode, readonly row: FileRow) {
    super();
    this.portalId = parent.portalId;
    this.accountId = parent.accountId;
    this.groupId = parent.groupId;
    this.fileId = row.id;
    this.key = fileKey(parent.key, row.id);
  }

  get isFolder(): boolean {
    return this.row.isFolder;
  }

  get name(): string {
    return this.row.name;
  }

  treeItem(): vscode.TreeItem {
    const r = this.row;
    const item = new vscode.TreeItem(plain(r.name), r.isFolder ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = this.key;
    item.contextValue = r.isFolder ? 'folder' : 'file';
    item.iconPath = new vscode.ThemeIcon(r.locked ? 'lock' : iconForContentType(r.contentType, r.name));
    if (r.isFolder) {
      item.description = shortDate(r.lastModified);
    } else {
      item.description = `${humanSize(r.size)} · ${shortDate(r.lastModified)}`;
      item.command = { command: 'portal.file.openRecord', title: 'Open File Record', arguments: [this] };
    }
    // No tooltip here: it is built on hover (resolveTreeItem), so 50,000 rows do not each carry one.
    return item;
  }

  tooltip(): string {
    const r = this.row;
    return plain([
      r.name,
      r.isFolder ? 'Folder' : `${humanSize(r.size)} · ${r.contentType}`,
      r.lastModified ? `Modified ${shortDate(r.lastModified)}` : '',
      r.uploader ? `Uploaded by ${r.uploader}` : '',
      r.locked ? 'Locked' : '',
    ].filter(Boolean).join('\n'), { multiline: true });
  }
}

export class MemberNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly parent = undefined;
  readonly username: string;
  constructor(readonly portalId: string, readonly accountId: number, readonly row: MemberRow, listKey: TreeKey) {
    super();
    this.username = row.username;
    this.key = memberKey(listKey, row.username);
  }

  treeItem(): vscode.TreeItem {
    const r = this.row;
    const item = new vscode.TreeItem(plain(r.name), vscode.TreeItemCollapsibleState.None);
    item.id = this.key;
    item.contextValue = `member.${r.enabled ? 'enabled' : 'disabled'}${r.locked ? '.locked' : ''}`;
    const badges = [r.enabled ? '' : 'disabled', r.locked ? 'locked' : ''].filter(Boolean);
    item.description = plain([
      `${r.username} · ${accountPermissionLabel(r.permission)}`,
      ...badges.map((b) => `[${b}]`),
      r.tags.length ? r.tags.map((t) => `#${t}`).join(' ') : '',
    ].filter(Boolean).join(' '));
    item.iconPath = new vscode.ThemeIcon(
      r.locked ? 'lock' : r.enabled ? 'person' : 'circle-slash',
      r.enabled ? undefined : new vscode.ThemeColor('disabledForeground'),
    );
    return item;
  }

  /** Plain text: server text never becomes markup. Built on hover only. */
  tooltip(): string {
    const r = this.row;
    return plain([
      `${r.name} (${r.username})`,
      r.email,
      `Account permission: ${accountPermissionLabel(r.permission)}`,
      r.enabled ? 'Enabled' : 'Disabled: cannot sign in',
      r.locked ? (r.pendingUnlock ? 'Locked (unlocks automatically)' : 'Locked') : '',
      r.tags.length ? `Tags: ${r.tags.join(', ')}` : 'No tags',
      `Last active: ${relativeTime(r.lastActive)}`,
    ].filter(Boolean).join('\n'), { multiline: true });
  }
}

export class ApplicationNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly portalId: string;
  readonly clientId: string;
  constructor(readonly parent: PortalNode, readonly row: ApplicationRow, readonly current: boolean) {
    super();
    this.portalId = parent.portalId;
    this.clientId = row.clientId;
    this.key = applicationKey(this.portalId, row.clientId);
  }

  treeItem(): vscode.TreeItem {
    const r = this.row;
    const item = new vscode.TreeItem(plain(r.name), vscode.TreeItemCollapsibleState.None);
    item.id = this.key;
    item.contextValue = this.current ? 'application.current' : 'application';
    item.description = plain(`${r.platform || 'unknown platform'} · ${r.lastActivity ? `active ${relativeTime(r.lastActivity)}` : 'never active'}${this.current ? ' · this VS Code' : ''}`);
    item.iconPath = new vscode.ThemeIcon(this.current ? 'vm-active' : 'key');
    item.tooltip = plain([
      r.name,
      r.description,
      `Client id: ${r.clientId}`,
      `Platform: ${r.platform || 'unknown'} (${r.deviceType || 'unknown device'})`,
      `Last activity: ${relativeTime(r.lastActivity)}`,
      this.current ? 'This VS Code window signs in with this application.' : '',
    ].filter(Boolean).join('\n'), { multiline: true });
    item.command = { command: 'portal.application.details', title: 'Show Application Details', arguments: [this] };
    return item;
  }
}

/** "Load more…": appends the next page of its parent's list. */
export class LoadMoreNode extends PortalTreeNode {
  readonly key: TreeKey;
  constructor(
    readonly portalId: string,
    readonly parent: PortalTreeNode | undefined,
    readonly listKey: TreeKey,
    readonly list: PagedList<unknown>,
    private readonly noun: string,
    private readonly command: string,
  ) {
    super();
    this.key = moreKey(listKey);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(plain(`Load more ${this.noun}…`), vscode.TreeItemCollapsibleState.None);
    item.id = this.key;
    item.contextValue = 'loadMore';
    item.description = countLabel(this.list.count, this.list.total);
    item.iconPath = new vscode.ThemeIcon(this.list.loading ? 'loading~spin' : 'ellipsis');
    item.tooltip = plain(`Loads the next ${this.list.pageSize} ${this.noun} from the portal.`);
    item.command = { command: this.command, title: 'Load More', arguments: [this] };
    return item;
  }
}

/**
 * Earlier rows of a long list, folded into a range ("1–1,000", then "1–100"…, then the rows). VS Code redraws every
 * child of a node on each "Load more…"; folding keeps that redraw small however far a list is paged.
 */
export class RangeNode extends PortalTreeNode {
  readonly key: TreeKey;
  constructor(
    readonly portalId: string,
    readonly parent: PortalTreeNode | undefined,
    readonly listKey: TreeKey,
    /** The list whose rows it groups. */
    readonly list: PagedList<unknown>,
    /** 0-based index of the first row. */
    readonly start: number,
    readonly size: number,
    readonly noun: string,
  ) {
    super();
    this.key = rangeKey(listKey, start, size);
  }

  treeItem(): vscode.TreeItem {
    const first = count(this.start + 1);
    const last = count(this.start + this.size);
    const item = new vscode.TreeItem(`${first}–${last}`, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.key;
    item.contextValue = 'range';
    item.description = plain(this.noun);
    item.iconPath = new vscode.ThemeIcon('list-unordered');
    item.tooltip = plain(`${this.noun} ${first} to ${last}, already loaded. The earlier rows of a long list are grouped so the view stays fast.`);
    return item;
  }
}

/**
 * A failed load, in place of the children it could not get (mode 'first') or of the "Load more…" row whose page
 * failed (mode 'more', the rows loaded before stay). Clicking it asks again.
 */
export class ErrorNode extends PortalTreeNode {
  readonly key: TreeKey;
  constructor(
    readonly portalId: string,
    readonly parent: PortalTreeNode | undefined,
    readonly listKey: TreeKey,
    readonly error: unknown,
    private readonly retryCommand: string,
    readonly mode: 'first' | 'more',
  ) {
    super();
    this.key = errorKey(listKey);
  }

  get signedOut(): boolean {
    return isPortalError(this.error, 'signed-out');
  }

  treeItem(): vscode.TreeItem {
    const message = errorMessage(this.error);
    if (this.signedOut) {
      const never = (this.error as { code?: unknown }).code === NOT_SIGNED_IN;
      const item = new vscode.TreeItem(never ? 'Sign in…' : 'Sign in again…', vscode.TreeItemCollapsibleState.None);
      item.id = this.key;
      item.contextValue = 'error.signedOut';
      item.description = plain(message);
      item.tooltip = plain(message, { multiline: true });
      item.iconPath = new vscode.ThemeIcon('sign-in');
      item.command = { command: 'portal.signIn', title: 'Sign In', arguments: [this.portalId] };
      return item;
    }
    const item = new vscode.TreeItem(plain(this.mode === 'more' ? `Could not load more: ${message}` : message), vscode.TreeItemCollapsibleState.None);
    item.id = this.key;
    item.contextValue = 'error';
    item.description = 'click to retry';
    item.tooltip = plain(`${message}\nClick to try again.`, { multiline: true });
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.command = { command: this.retryCommand, title: 'Retry', arguments: [this] };
    return item;
  }
}

/** A row that says why a list is empty, so a view is never blank without a reason. */
export class MessageNode extends PortalTreeNode {
  constructor(readonly portalId: string, readonly parent: PortalTreeNode | undefined, readonly key: TreeKey, private readonly text: string, private readonly icon = 'info') {
    super();
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(plain(this.text), vscode.TreeItemCollapsibleState.None);
    item.id = this.key;
    item.contextValue = 'empty';
    item.iconPath = new vscode.ThemeIcon(this.icon);
    return item;
  }
}

/** The account a node belongs to, for the Members view to follow the Explorer's selection. */
export function accountOf(node: PortalTreeNode | undefined): AccountNode | undefined {
  for (let n: PortalTreeNode | undefined = node, i = 0; n && i < 64; n = n.parent, i++) {
    if (n instanceof AccountNode) return n;
  }
  return undefined;
}
