/**
 * A member row of the Members view. contextValue: member.enabled, member.disabled, and either with `.locked`
 * (menus match `viewItem =~ /^member\./`).
 */
import * as vscode from 'vscode';
import { relativeTime } from '../../shared/format';
import { memberKey, type TreeKey } from '../../shared/keys';
import type { MemberRow } from '../../shared/members';
import { accountPermissionWords } from '../../shared/permissions';
import type { AccountRef, MemberRef } from '../../shared/refs';
import { plainTooltip, treeItem } from '../../views/item';
import { PortalTreeNode } from '../../views/node';

export class MemberNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly parent = undefined;
  readonly portalId: string;
  readonly ref: MemberRef;
  constructor(account: AccountRef, readonly row: MemberRow, listKey: TreeKey) {
    super();
    this.portalId = account.portalId;
    this.ref = { kind: 'member', account, username: row.username, name: row.name };
    this.key = memberKey(listKey, row.username);
  }

  treeItem() {
    const r = this.row;
    const badges = [r.enabled ? '' : vscode.l10n.t('disabled'), r.locked ? vscode.l10n.t('locked') : ''].filter(Boolean);
    return treeItem({
      key: this.key,
      label: r.name,
      collapsible: 'none',
      contextValue: `member.${r.enabled ? 'enabled' : 'disabled'}${r.locked ? '.locked' : ''}`,
      description: [
        `${r.username} · ${accountPermissionWords(r.permission)}`,
        ...badges.map((b) => `[${b}]`),
        r.tags.length ? r.tags.map((t) => `#${t}`).join(' ') : '',
      ].filter(Boolean).join(' '),
      icon: r.locked ? 'lock' : r.enabled ? 'person' : 'circle-slash',
      ...(r.enabled ? {} : { iconColor: 'disabledForeground' }),
    });
  }

  /** Built on hover only. */
  tooltip(): string {
    const r = this.row;
    return plainTooltip([
      `${r.name} (${r.username})`,
      r.email,
      vscode.l10n.t('Account permission: {0}', accountPermissionWords(r.permission)),
      r.enabled ? vscode.l10n.t('Enabled') : vscode.l10n.t('Disabled: cannot sign in'),
      r.locked ? (r.pendingUnlock ? vscode.l10n.t('Locked (unlocks automatically)') : vscode.l10n.t('Locked')) : '',
      r.tags.length ? vscode.l10n.t('Tags: {0}', r.tags.join(', ')) : vscode.l10n.t('No tags'),
      vscode.l10n.t('Last active: {0}', relativeTime(r.lastActive)),
    ].filter(Boolean).join('\n'));
  }
}
