/**
 * The Explorer's rows below a portal. contextValue of each (for `when` clauses in package.json menus; a value
 * with states is matched with a regex such as `viewItem =~ /^account/`):
 *
 * | contextValue      | row                                        |
 * |-------------------|--------------------------------------------|
 * | portal.signedIn   | a portal with a session (views/portalNode) |
 * | portal.signedOut  | a portal without a session                 |
 * | account           | an organisation                            |
 * | account.admin     | …where the user is an administrator        |
 * | group             | a group                                    |
 * | folder            | a folder file record                       |
 * | file              | a file record                              |
 * | loadMore, range, error, error.signedOut, empty: see views/rows.ts  |
 */
import * as vscode from 'vscode';
import { accountKey, fileKey, groupKey, type TreeKey } from '../../../shared/keys';
import { count, given, humanSize, iconForContentType, onOff, shortDate, yesNo } from '../../../shared/format';
import type { AccountRef, FileRef, FolderStep, GroupRef } from '../../../shared/refs';
import { plainTooltip, treeItem } from '../../../views/item';
import { PortalTreeNode } from '../../../views/node';
import type { PortalNode } from '../../../views/portalNode';
import type { AccountRow, GroupRow, listedFile } from './loaders';
import { fileRightsTooltip } from './tooltips';

/** The account permission mask from which a user administers the organisation. */
const ADMIN_PERMISSION = 16;

export class AccountNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly portalId: string;
  readonly ref: AccountRef;
  constructor(
    readonly parent: PortalNode,
    readonly row: AccountRow,
  ) {
    super();
    this.portalId = parent.portalId;
    this.ref = { kind: 'account', portalId: this.portalId, accountId: row.accountId, label: row.friendlyName };
    this.key = accountKey(this.ref);
  }

  treeItem() {
    const r = this.row;
    const states = [
      r.planCode,
      r.trialExpires !== null ? vscode.l10n.t('trial') : '',
      r.paused ? vscode.l10n.t('paused') : '',
      r.enabled ? '' : vscode.l10n.t('disabled'),
    ].filter(Boolean);
    // The tooltip is completed on hover (resolveTreeItem) with the subscription, which costs a request.
    return treeItem({
      key: this.key,
      label: r.friendlyName,
      collapsible: 'collapsed',
      contextValue: r.admin || r.permission >= ADMIN_PERMISSION ? 'account.admin' : 'account',
      description: states.join(' · '),
      icon: 'organization',
      ...(r.enabled ? {} : { iconColor: 'disabledForeground' }),
    });
  }
}

export class GroupNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly portalId: string;
  readonly ref: GroupRef;
  constructor(
    readonly parent: AccountNode,
    readonly row: GroupRow,
    /** The order and filters its file records are listed in, as words (none for the defaults). */
    private readonly fileView: (node: GroupNode) => readonly string[] = () => [],
  ) {
    super();
    this.portalId = parent.portalId;
    this.ref = { kind: 'group', account: parent.ref, groupId: row.groupId, label: row.friendlyName };
    this.key = groupKey(this.ref);
  }

  treeItem() {
    const r = this.row;
    return treeItem({
      key: this.key,
      label: r.friendlyName,
      collapsible: 'collapsed',
      contextValue: 'group',
      description: [
        r.members === 1 ? vscode.l10n.t('1 member') : vscode.l10n.t('{0} members', count(r.members)),
        ...this.fileView(this),
      ].join(' · '),
      icon: 'project',
    });
  }
}

const AT_ROOT: readonly FolderStep[] = [];

/** A folder or a file: both are file records. */
export class FileNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly portalId: string;
  readonly ref: FileRef;
  /** A folder's way from the group's root to itself, shared by all its children's refs. */
  readonly inside: readonly FolderStep[] | undefined;
  constructor(
    readonly parent: GroupNode | FileNode,
    readonly row: ReturnType<typeof listedFile>,
  ) {
    super();
    this.portalId = parent.portalId;
    const group = parent instanceof GroupNode ? parent.ref : parent.ref.group;
    const folders = parent instanceof GroupNode ? AT_ROOT : (parent.inside ?? AT_ROOT);
    this.inside = row.isFolder ? [...folders, { id: row.id, name: row.name }] : undefined;
    this.ref = {
      kind: 'file',
      group,
      fileId: row.id,
      name: row.name,
      isFolder: row.isFolder,
      size: row.size,
      contentType: row.contentType,
      folders,
      lastModified: row.lastModified,
    };
    this.key = fileKey(parent.key, row.id);
  }

  treeItem() {
    const r = this.row;
    // No tooltip here: it is built on hover (resolveTreeItem), so 50,000 rows do not each carry one.
    return treeItem({
      key: this.key,
      label: r.name,
      collapsible: r.isFolder ? 'collapsed' : 'none',
      contextValue: r.isFolder ? 'folder' : 'file',
      icon: r.locked ? 'lock' : iconForContentType(r.contentType, r.name),
      description: r.isFolder ? shortDate(r.lastModified) : `${humanSize(r.size)} · ${shortDate(r.lastModified)}`,
      ...(r.isFolder
        ? {}
        : {
            command: { command: 'portal.file.openRecord', title: vscode.l10n.t('Open File Record'), arguments: [this] },
          }),
    });
  }

  tooltip(): string {
    const r = this.row;
    return plainTooltip(
      [
        r.name,
        r.isFolder ? vscode.l10n.t('Folder') : `${humanSize(r.size)} · ${r.contentType}`,
        r.lastModified ? vscode.l10n.t('Modified {0}', shortDate(r.lastModified)) : '',
        r.uploaded ? vscode.l10n.t('Uploaded by {0}', r.uploaded.name) : '',
        r.locked ? vscode.l10n.t('Locked') : '',
        ...(r.isFolder ? [] : fileRightsTooltip(r)),
        ...recordFacts(r),
      ]
        .filter(Boolean)
        .join('\n'),
    );
  }
}

/** The group a row of its file records lies in. */
export function groupNodeOf(node: GroupNode | FileNode): GroupNode {
  let n: GroupNode | FileNode = node;
  while (n instanceof FileNode) n = n.parent;
  return n;
}

/** Versions, watermark and availability as the listing gave them; null reads "not given", never a default. */
function recordFacts(r: ReturnType<typeof listedFile>): string[] {
  return [
    ...(r.isFolder ? [] : [vscode.l10n.t('Versions: {0}', given(r.versions, count))]),
    ...(r.isFolder ? [] : [vscode.l10n.t('Watermark: {0}', given(r.watermark, onOff))]),
    vscode.l10n.t('Available: {0}', given(r.available, yesNo)),
  ];
}
