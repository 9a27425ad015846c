/**
 * The Members view's *Invited* rows and its members' sign-ins: what the access matrix reads of the organisation's
 * pending invitations and the audit's sign-ins (the access store's outsiders, read within the budget and kept there),
 * made into rows by the matrix's own words (outsiders.ts), so both say the same of an invitation.
 */
import * as vscode from 'vscode';
import type { NeverSignedInReader } from '../../../shared/activityScan';
import { calendarDate, shortDate } from '../../../shared/format';
import { invitedKey, outsidersNoteKey, type TreeKey } from '../../../shared/keys';
import type { MemberQuery } from '../../../shared/members';
import type { OutsiderRow } from '../../../shared/outsiderRow';
import { plainTooltip, treeItem } from '../../../views/item';
import { PortalTreeNode } from '../../../views/node';
import { outsiderRows } from '../access/outsiders/outsiders';
import {
  membersSigned,
  outsidersShown,
  refusalWords,
  signInNote,
  signInWire,
  type OutsidersRecord,
  type SignInRecord,
} from '../access/outsiders/outsiders.protocol';
import type { AccountRef } from '../../../shared/refs';

/** What the access store holds of an organisation's outsiders and sign-ins. */
export interface OutsidersHeld {
  readonly outsiders: OutsidersRecord | undefined;
  readonly signIns: SignInRecord | undefined;
}

/** The access store's outsiders as the Members view reads them. */
export interface OutsidersSource {
  /** What the store holds now: no request. */
  held(account: AccountRef): OutsidersHeld;
  /** Reads what is not fresh (within the budget, kept in the store), then answers what it holds. */
  read(account: AccountRef, signal: AbortSignal | undefined): Promise<OutsidersHeld>;
}

/** Who never signed in, from the store's sign-ins read now: the matrix's own test, with its fallback to last active. */
export function neverSignedInReader(source: OutsidersSource, account: AccountRef): NeverSignedInReader {
  return async (signal) => {
    const wire = signInWire((await source.read(account, signal)).signIns);
    return (row) =>
      membersSigned([row], { neverSignedIn: true }, wire, (r) => ({
        username: r.username,
        lastActive: r.lastActive ?? -1,
      })).length === 1;
  };
}

/** Whether the query shows the pending invitations: under the "never signed in" filter, or the invitations alone. */
export function showsInvited(q: MemberQuery): boolean {
  const f = q.activity;
  if (!f || !(f.invited || f.neverSignedIn) || (q.tags?.length ?? 0) > 0) return false;
  // Conditions about a member's own state (disabled, locked, activity…) no invitation meets.
  return (
    f.invited === true ||
    (f.inactiveDays === undefined && !f.never && !f.disabled && !f.locked && !f.pending && !f.twoFactorOff)
  );
}

/** The invitations the query shows: by the search's address and the filter's group, as the matrix filters them. */
export function invitedShown(held: OutsidersHeld, q: MemberQuery, now: number): OutsiderRow[] {
  const rows = outsidersShown(outsiderRows(held.outsiders).rows, { kind: 'invited' }, now, q.activity?.group?.name);
  const search = q.search?.toLowerCase();
  if (!search) return rows;
  return rows.filter((r) =>
    q.startsWith ? r.email.toLowerCase().startsWith(search) : r.email.toLowerCase().includes(search),
  );
}

/**
 * The one line that says what the portal refused or what was not understood, of what the query shows: the
 * invitations, and under the "never signed in" filter the sign-ins. '' when nothing.
 */
export function invitedNote(held: OutsidersHeld, q: MemberQuery): string {
  const invitations = held.outsiders?.invitations;
  const refused = typeof invitations === 'string' ? invitations : undefined;
  const signIns = q.activity?.neverSignedIn ? held.signIns : undefined;
  if (refused && signIns?.kind === 'refused' && signIns.reason === refused)
    return vscode.l10n.t(
      'Invitations and sign-ins are not shown: {0}; last active is shown instead.',
      refusalWords(refused),
    );
  const parts = [
    refused ? vscode.l10n.t('Invitations are not shown: {0}.', refusalWords(refused)) : '',
    held.outsiders === undefined ? vscode.l10n.t('The invitations could not be read.') : '',
    signInNote(signIns),
  ];
  return parts.filter((p) => p !== '').join(' ');
}

/** A row of the Members view's list that is not a member: no parent, and no portal object to act on. */
abstract class ListLineNode extends PortalTreeNode {
  readonly parent = undefined;
  readonly ref = undefined;
  constructor(
    readonly portalId: string,
    readonly key: TreeKey,
  ) {
    super();
  }
}

/** A pending invitation: the address, the organisation permission and groups it would grant, when it was sent. */
export class InvitedNode extends ListLineNode {
  constructor(
    portalId: string,
    listKey: TreeKey,
    readonly row: OutsiderRow,
  ) {
    super(portalId, invitedKey(listKey, row.key));
  }

  treeItem() {
    const r = this.row;
    const sent = r.created >= 0 ? vscode.l10n.t('sent {0}', calendarDate(r.created)) : '';
    const item = treeItem({
      key: this.key,
      label: r.email || vscode.l10n.t('(no address given)'),
      collapsible: 'none',
      contextValue: 'invited',
      description: [vscode.l10n.t('Invited'), r.permission, r.what, sent, r.power ? vscode.l10n.t('grants power') : '']
        .filter(Boolean)
        .join(' · '),
      icon: 'mail',
      ...(r.power ? { iconColor: 'list.warningForeground' } : {}),
    });
    item.tooltip = plainTooltip(
      [
        vscode.l10n.t('Invited: {0}', r.email),
        vscode.l10n.t('Organisation permission: {0}', r.permission),
        vscode.l10n.t('Groups: {0}', r.what),
        r.created >= 0 ? vscode.l10n.t('Sent: {0}', shortDate(r.created)) : vscode.l10n.t('Sent: not given'),
        r.power ? vscode.l10n.t('Grants power when accepted (as a plan counts it).') : '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
    return item;
  }
}

/** The line that says what is not shown and why; the members still show below it. */
export class OutsidersNoteNode extends ListLineNode {
  constructor(
    portalId: string,
    listKey: TreeKey,
    private readonly text: string,
  ) {
    super(portalId, outsidersNoteKey(listKey));
  }

  treeItem() {
    const item = treeItem({ key: this.key, label: this.text, collapsible: 'none', contextValue: 'note', icon: 'info' });
    item.tooltip = plainTooltip(this.text);
    return item;
  }
}
