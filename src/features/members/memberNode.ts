/**
 * A member row of the Members view. contextValue: member.enabled, member.disabled, and either with `.locked`
 * (menus match `viewItem =~ /^member\./`).
 */
import { accountPermissionLabel } from '../../api';
import { relativeTime } from '../../shared/format';
import { memberKey, type TreeKey } from '../../shared/keys';
import type { MemberRow } from '../../shared/members';
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
    const badges = [r.enabled ? '' : 'disabled', r.locked ? 'locked' : ''].filter(Boolean);
    return treeItem({
      key: this.key,
      label: r.name,
      collapsible: 'none',
      contextValue: `member.${r.enabled ? 'enabled' : 'disabled'}${r.locked ? '.locked' : ''}`,
      description: [
        `${r.username} · ${accountPermissionLabel(r.permission)}`,
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
      `Account permission: ${accountPermissionLabel(r.permission)}`,
      r.enabled ? 'Enabled' : 'Disabled: cannot sign in',
      r.locked ? (r.pendingUnlock ? 'Locked (unlocks automatically)' : 'Locked') : '',
      r.tags.length ? `Tags: ${r.tags.join(', ')}` : 'No tags',
      `Last active: ${relativeTime(r.lastActive)}`,
    ].filter(Boolean).join('\n'));
  }
}
