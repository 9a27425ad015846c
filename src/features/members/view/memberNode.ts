/**
 * A member row of the Members view. contextValue: member.enabled, member.disabled, and either with `.locked`
 * (menus match `viewItem =~ /^member\./`).
 */
import * as vscode from 'vscode';
import { calendarDate, relativeTime, shortDate } from '../../../shared/format';
import { memberKey, type TreeKey } from '../../../shared/keys';
import type { ActivityFilter, MemberRow } from '../../../shared/members';
import { accountPermissionWords, groupPermissionWords } from '../../../shared/permissions';
import type { AccountRef, MemberRef } from '../../../shared/refs';
import { plainTooltip, treeItem } from '../../../views/item';
import { PortalTreeNode } from '../../../views/node';
import type { MemberDetail } from './memberDetails';

export class MemberNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly parent = undefined;
  readonly portalId: string;
  readonly ref: MemberRef;
  /**
   * `activity`: the list's activity filter; a row it kept names the date that made it match. `signIn`: the last
   * sign-in the access store's audit read holds (ms; -1 none in what was read; undefined not known).
   */
  constructor(
    account: AccountRef,
    readonly row: MemberRow,
    listKey: TreeKey,
    private readonly activity?: ActivityFilter,
    private readonly signIn?: number,
  ) {
    super();
    this.portalId = account.portalId;
    this.ref = { kind: 'member', account, username: row.username, name: row.name };
    this.key = memberKey(listKey, row.username);
  }

  treeItem() {
    const r = this.row;
    const badges = [r.enabled ? '' : vscode.l10n.t('disabled'), r.locked ? vscode.l10n.t('locked') : ''].filter(
      Boolean,
    );
    return treeItem({
      key: this.key,
      label: r.name,
      collapsible: 'none',
      contextValue: `member.${r.enabled ? 'enabled' : 'disabled'}${r.locked ? '.locked' : ''}`,
      // Under an activity filter the date that made the row match (and the level in the filter's group) takes the
      // permission's place (it is in the tooltip), so a narrow view still shows why the row is there.
      description: [
        `${r.username} · ${[this.matchWords(), this.groupWords()].filter(Boolean).join(' · ') || accountPermissionWords(r.permission)}`,
        ...badges.map((b) => `[${b}]`),
        r.tags.length ? r.tags.map((t) => `#${t}`).join(' ') : '',
      ]
        .filter(Boolean)
        .join(' '),
      icon: r.locked ? 'lock' : r.enabled ? 'person' : 'circle-slash',
      ...(r.enabled ? {} : { iconColor: 'disabledForeground' }),
    });
  }

  /**
   * Under an activity filter about activity: "never active", "last active 14 Aug 2026", with the last sign-in beside
   * it when the audit tells; under the sign-in filter, "never signed in" (or, where the audit does not tell, the
   * activity it fell back to).
   */
  private matchWords(): string {
    const f = this.activity;
    if (!f) return '';
    const last = this.row.lastActive;
    const active = last === null ? vscode.l10n.t('never active') : vscode.l10n.t('last active {0}', calendarDate(last));
    if (f.neverSignedIn) return this.signIn === -1 ? vscode.l10n.t('never signed in') : active;
    if (f.inactiveDays === undefined && !f.never) return '';
    return this.signIn !== undefined && this.signIn >= 0
      ? `${active} · ${vscode.l10n.t('signed in {0}', calendarDate(this.signIn))}`
      : active;
  }

  /** Under a filter scoped to a group: "Standard in Engineering". */
  private groupWords(): string {
    const group = this.activity?.group;
    const permission = 'groupPermission' in this.row ? this.row.groupPermission : undefined;
    if (!group || typeof permission !== 'number') return '';
    return vscode.l10n.t('{0} in {1}', groupPermissionWords(permission), group.label);
  }

  /** Built on hover only; `detail` is what v2's member detail adds (undefined: not read, or refused). */
  tooltip(detail?: MemberDetail): string {
    const r = this.row;
    const notGiven = vscode.l10n.t('not given');
    return plainTooltip(
      [
        `${r.name} (${r.username})`,
        r.email
          ? r.verifiedEmail
            ? vscode.l10n.t('{0} (verified)', r.email)
            : vscode.l10n.t('{0} (not verified)', r.email)
          : '',
        vscode.l10n.t('Job title: {0}', r.jobTitle || notGiven),
        vscode.l10n.t('Telephone: {0}', r.telephone || notGiven),
        vscode.l10n.t('Organisation permission: {0}', accountPermissionWords(r.permission)),
        this.groupWords(),
        // "Enabled" means able to sign in (memberStates.ts): a locked member's line is the one below.
        !r.enabled ? vscode.l10n.t('Disabled: cannot sign in') : r.locked ? '' : vscode.l10n.t('Enabled'),
        r.locked ? (r.pendingUnlock ? vscode.l10n.t('Locked (unlocks automatically)') : vscode.l10n.t('Locked')) : '',
        activationLine(r),
        twoFactorLine(r.twoFactor, detail),
        r.tags.length ? vscode.l10n.t('Tags: {0}', r.tags.join(', ')) : vscode.l10n.t('No tags'),
        vscode.l10n.t('Last active: {0}', r.lastActive === null ? notGiven : relativeTime(r.lastActive)),
        this.signInLine(),
        detail
          ? vscode.l10n.t('Last signed in: {0}', detail.lastLogin === null ? notGiven : relativeTime(detail.lastLogin))
          : '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
  }

  /** The audit's last sign-in, from what the access store read (no request on hover); '' when not known. */
  private signInLine(): string {
    if (this.signIn === undefined) return '';
    return this.signIn < 0
      ? vscode.l10n.t('Last sign-in (audit): none in what the audit gave')
      : vscode.l10n.t('Last sign-in (audit): {0}', relativeTime(this.signIn));
  }
}

/**
 * Only an activation e-mail at a later date is still waiting: the portal sends a 'now' one when the member is
 * added, so every member it has activated reads 'now' too.
 */
function activationLine(r: MemberRow): string {
  if (r.activation !== 'custom') return '';
  return r.activationDate === null
    ? vscode.l10n.t('Activation pending (date not given)')
    : vscode.l10n.t('Activation pending: the e-mail goes out {0}', shortDate(r.activationDate));
}

function twoFactorLine(on: boolean, detail: MemberDetail | undefined): string {
  if (!(on || detail?.twoFactor)) return vscode.l10n.t('Two-factor authentication: off');
  return detail?.twoFactorMode
    ? vscode.l10n.t('Two-factor authentication: on ({0})', detail.twoFactorMode)
    : vscode.l10n.t('Two-factor authentication: on');
}
