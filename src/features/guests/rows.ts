/**
 * The rows of "Show Guests and Invitations": one per guest share and per pending invitation, under a heading row per
 * list. Every value is in words where the sources give its meaning (content masks of spec 2.9 for a share's
 * permission; account and group levels for an invitation's mask and groups) and shown as the portal sent it, saying
 * so, where they do not (what a share shares). Server text goes through plain() before it reaches the pick.
 */
import * as vscode from 'vscode';
import type { GuestShare, Invitation, NotOfferedReason, Offered } from '../../api/index';
import { AccountPermission, GroupPermission } from '../../api/index';
import { contentRightsWords } from '../../shared/contentRights';
import { count, shortDate } from '../../shared/format';
import { accountPermissionWords, groupPermissionWords } from '../../shared/permissions';
import { plain } from '../../shared/plainText';
import type { PickItem } from '../../ui/ui';

/** A row's text, kept as its value too: choosing a row changes nothing, and the listing stays read-only. */
export interface GuestRowValue {
  readonly kind: 'heading' | 'share' | 'invitation';
  readonly label: string;
  readonly description: string;
  readonly detail: string;
}

type Row = PickItem<GuestRowValue>;

function row(kind: GuestRowValue['kind'], icon: string, label: string, description: string, detail = ''): Row {
  const value = { kind, label, description, detail };
  return { icon, label, description, ...(detail ? { detail } : {}), value };
}

/** An account or group level by its name; any other number is that number, not understood. */
function levelWords(value: number | null, levels: readonly number[], words: (v: number) => string): string {
  if (value === null) return vscode.l10n.t('not given');
  return levels.includes(value) ? words(value) : vscode.l10n.t('{0} (not understood)', String(value));
}

const dateOr = (ms: number | null, none: string): string => (ms === null ? none : shortDate(ms) || none);

export function notOfferedWords(reason: NotOfferedReason): string {
  return reason === 'absent'
    ? vscode.l10n.t('this portal does not offer them')
    : vscode.l10n.t('your sign-in lacks the capability for them here');
}

function expiry(s: GuestShare, now: number): string {
  if (s.dateExpire === null) return vscode.l10n.t('no expiry date');
  return s.dateExpire < now
    ? vscode.l10n.t('expired {0}', shortDate(s.dateExpire))
    : vscode.l10n.t('expires {0}', shortDate(s.dateExpire));
}

function password(s: GuestShare): string {
  if (s.passwordEnabled === null) return vscode.l10n.t('password: not given');
  return s.passwordEnabled ? vscode.l10n.t('password set') : vscode.l10n.t('no password');
}

function shareRow(s: GuestShare, now: number): Row {
  const what =
    s.contentContext === null
      ? vscode.l10n.t('what is shared: not given')
      : vscode.l10n.t('shared: {0} (as the portal sent it)', plain(s.contentContext));
  return row(
    'share',
    'person',
    plain(s.email ?? vscode.l10n.t('(no e-mail given)')),
    contentRightsWords(s.permission),
    [
      what,
      vscode.l10n.t('created {0}', dateOr(s.dateCreated, vscode.l10n.t('not given'))),
      expiry(s, now),
      password(s),
    ].join(' · '),
  );
}

function invitationRow(i: Invitation, groupNames: ReadonlyMap<string, string>): Row {
  const groups = i.parameters
    ? i.parameters.groups
        .map((g) =>
          vscode.l10n.t(
            '{0}: {1}',
            plain(groupNames.get(g.groupId) ?? vscode.l10n.t('group {0}', g.groupId)),
            levelWords(g.permission, Object.values(GroupPermission), groupPermissionWords),
          ),
        )
        .join(', ') || vscode.l10n.t('none')
    : vscode.l10n.t('{0} (as the portal sent it, not understood)', plain(i.parametersAsSent ?? ''));
  const mask = i.parameters
    ? levelWords(i.parameters.mask, Object.values(AccountPermission), accountPermissionWords)
    : vscode.l10n.t('not understood');
  return row(
    'invitation',
    'mail',
    plain(i.targetName ?? vscode.l10n.t('(no address given)')),
    mask,
    [
      vscode.l10n.t('groups: {0}', groups),
      vscode.l10n.t('sent {0}', dateOr(i.dateCreated, vscode.l10n.t('not given'))),
    ].join(' · '),
  );
}

function sharesRows(shares: Offered<GuestShare[]>, now: number): Row[] {
  if (shares.kind === 'not-offered')
    return [row('heading', 'circle-slash', vscode.l10n.t('Guests'), notOfferedWords(shares.reason))];
  return [
    row(
      'heading',
      'person',
      vscode.l10n.t('Guests ({0})', count(shares.value.length)),
      vscode.l10n.t('every guest share your sign-in sees: the portal does not say which organisation each is in'),
    ),
    ...shares.value.map((s) => shareRow(s, now)),
  ];
}

function invitationsRows(invitations: Offered<Invitation[]>, groupNames: ReadonlyMap<string, string>): Row[] {
  if (invitations.kind === 'not-offered')
    return [row('heading', 'circle-slash', vscode.l10n.t('Pending invitations'), notOfferedWords(invitations.reason))];
  const pending = invitations.value.filter((i) => i.pending);
  const others = invitations.value.length - pending.length;
  return [
    row(
      'heading',
      'mail',
      vscode.l10n.t('Pending invitations ({0})', count(pending.length)),
      others > 0 ? vscode.l10n.t('{0} more no longer pending', count(others)) : '',
    ),
    ...pending.map((i) => invitationRow(i, groupNames)),
  ];
}

/** Every row of the listing: guests first, then pending invitations. `now` decides what has expired. */
export function guestRows(
  shares: Offered<GuestShare[]>,
  invitations: Offered<Invitation[]>,
  groupNames: ReadonlyMap<string, string>,
  now: number,
): Row[] {
  return [...sharesRows(shares, now), ...invitationsRows(invitations, groupNames)];
}
