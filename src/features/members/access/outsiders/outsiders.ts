/**
 * The people outside the member list who can reach an organisation, as the access matrix shows them beside its
 * members: guests with a share of its content, and pending invitations (shown as *Invited*), with each member's last
 * sign-in from the audit. All three come from observed endpoints (api/endpoints/observed.ts). What the store keeps is
 * what was read (OutsidersRecord); the rows are made from it here, in words, on the host, and both the page and the
 * CSV filter them with the same function. Pure: the matrix's webview reads it too.
 */
import * as l10n from '@vscode/l10n';
import type { GuestShare, Invitation, NotOfferedReason } from '../../../../api/index';
import { contentRightsWords } from '../../../../shared/contentRights';
import { accountPermissionWords, groupPermissionWords } from '../../../../shared/permissions';
import { holdsPower } from '../../plan/core/elevation';

const DAY_MS = 86_400_000;
/** A guest can edit when the share's mask holds the content Edit bit or one above it (spec 2.9: 4, 8, 16). */
const EDIT_BITS = 4 | 8 | 16;

/** A group of the organisation as the outsiders' rows name it. */
export interface OutsiderGroup {
  readonly id: number;
  readonly name: string;
  readonly label: string;
}

/** What one read of the outsiders brought, as the access store keeps it (parsed at the edge, as sent otherwise). */
export interface OutsidersRecord {
  readonly at: number;
  readonly shares: readonly GuestShare[] | NotOfferedReason;
  readonly invitations: readonly Invitation[] | NotOfferedReason;
  readonly groups: readonly OutsiderGroup[];
  /** Record id → its path ("Folder/name"), for the records a read could resolve. */
  readonly paths: Readonly<Record<string, string>>;
}

/** Every member's last sign-in as one read of the audit gave it, or why there is none. */
export type SignInRecord =
  | {
      readonly kind: 'read';
      readonly at: number;
      readonly dateStart: string;
      readonly complete: boolean;
      /** Username (lower case) → last login or signup (ms). */
      readonly last: Readonly<Record<string, number>>;
    }
  | { readonly kind: 'not-understood'; readonly at: number; readonly why: string }
  | { readonly kind: 'refused'; readonly at: number; readonly reason: NotOfferedReason };

/** One row of the outsiders' table: server text (`email`, names in `what`) stays as sent; the page sets it as text. */
export interface OutsiderRow {
  readonly key: string;
  readonly kind: 'guest' | 'invited';
  readonly email: string;
  /** Guest: the record by its path, or contentContext as sent. Invited: the groups and levels the invite grants. */
  readonly what: string;
  /** Guest: the content rights in words. Invited: the organisation permission the invite grants. */
  readonly permission: string;
  readonly canEdit: boolean;
  /** Invited: the invite grants more than a Member has (as a plan names it). */
  readonly power: boolean;
  /** ms; -1 when the portal did not say. */
  readonly created: number;
  /** ms; -1 for no expiry date (guest) or none (invited). */
  readonly expires: number;
  /** 1 password set, 0 none, -1 not said (and not asked of an invitation). */
  readonly password: 1 | 0 | -1;
  /** The unique names of the groups it reaches: the share's group, the invite's groups. */
  readonly groups: readonly string[];
}

/** The outsiders' filters: every field optional, absent means "any". */
export interface OutsiderView {
  readonly kind?: 'guest' | 'invited' | undefined;
  readonly noExpiry?: boolean | undefined;
  readonly expired?: boolean | undefined;
  readonly noPassword?: boolean | undefined;
  /** Created at least this many days ago. */
  readonly olderDays?: number | undefined;
  readonly canEdit?: boolean | undefined;
}

export const OUTSIDER_KINDS = ['guest', 'invited'] as const;

export function outsiderMatches(row: OutsiderRow, view: OutsiderView, now: number, group?: string): boolean {
  if (view.kind !== undefined && row.kind !== view.kind) return false;
  if (view.noExpiry && (row.kind !== 'guest' || row.expires >= 0)) return false;
  if (view.expired && (row.expires < 0 || row.expires >= now)) return false;
  if (view.noPassword && (row.kind !== 'guest' || row.password !== 0)) return false;
  if (view.olderDays !== undefined && (row.created < 0 || row.created > now - view.olderDays * DAY_MS)) return false;
  if (view.canEdit && !row.canEdit) return false;
  if (group !== undefined && !row.groups.some((g) => g.toLowerCase() === group.toLowerCase())) return false;
  return true;
}

/** The rows a view shows: guests first, then the invited, each by address. */
export function visibleOutsiders(
  rows: readonly OutsiderRow[],
  view: OutsiderView,
  now: number,
  group?: string,
): OutsiderRow[] {
  return rows
    .filter((r) => outsiderMatches(r, view, now, group))
    .sort((a, b) => (a.kind === b.kind ? a.email.localeCompare(b.email) : a.kind === 'guest' ? -1 : 1));
}

/** Why the portal gave no guests or invitations, in words. */
export function refusalWords(reason: NotOfferedReason): string {
  return reason === 'absent'
    ? l10n.t('this portal does not offer them')
    : l10n.t('your sign-in lacks the capability for them here');
}

/** The one sentence saying what the portal refused of the outsiders; '' when it refused nothing. */
export function outsidersNote(record: OutsidersRecord | undefined): string {
  if (!record) return '';
  const guests = typeof record.shares === 'string' ? record.shares : undefined;
  const invited = typeof record.invitations === 'string' ? record.invitations : undefined;
  if (guests && invited && guests === invited)
    return l10n.t('Guests and invitations are not shown: {0}.', refusalWords(guests));
  if (guests && invited)
    return l10n.t('Guests are not shown ({0}), nor invitations ({1}).', refusalWords(guests), refusalWords(invited));
  if (guests) return l10n.t('Guests are not shown: {0}.', refusalWords(guests));
  if (invited) return l10n.t('Invitations are not shown: {0}.', refusalWords(invited));
  return '';
}

/** What the matrix says of sign-ins once: '' when they were read whole. */
export function signInNote(record: SignInRecord | undefined): string {
  if (!record) return '';
  switch (record.kind) {
    case 'read':
      return record.complete
        ? ''
        : l10n.t('Sign-ins: the audit was read only in part; a member without one shown may have signed in.');
    case 'not-understood':
      return l10n.t(
        'Sign-ins: the audit\u2019s answer was not understood ({0}); last active is shown instead.',
        record.why,
      );
    case 'refused':
      return l10n.t('Sign-ins are not shown: {0}; last active is shown instead.', refusalWords(record.reason));
  }
}

/** A member's last sign-in: ms, -1 for none in what was read, undefined when sign-ins are not known. */
export function lastSignIn(record: SignInRecord | undefined, username: string): number | undefined {
  if (record?.kind !== 'read') return undefined;
  return record.last[username.toLowerCase()] ?? -1;
}

/**
 * Whether a member never signed in since they were created, as far as the audit read tells: no login or signup in
 * it. Unknown (sign-ins not read, or read in part) is never "never".
 */
export function neverSignedIn(record: SignInRecord | undefined, username: string): boolean {
  return record?.kind === 'read' && record.complete && record.last[username.toLowerCase()] === undefined;
}

function shareGroup(s: GuestShare, groups: ReadonlyMap<number, OutsiderGroup>): OutsiderGroup | undefined {
  return s.place ? groups.get(s.place.groupId) : undefined;
}

function shareWhat(s: GuestShare, group: OutsiderGroup | undefined, paths: OutsidersRecord['paths']): string {
  const id = s.place?.recordId;
  const path = id !== null && id !== undefined ? paths[String(id)] : undefined;
  if (group && path !== undefined) return `${group.label} / ${path}`;
  if (s.contentContext === null) return l10n.t('not given');
  return l10n.t('{0} (as the portal sent it)', s.contentContext);
}

function guestRow(s: GuestShare, n: number, group: OutsiderGroup | undefined, paths: OutsidersRecord['paths']) {
  const mask = s.permission;
  return {
    key: `g:${n}`,
    kind: 'guest' as const,
    email: s.email ?? '',
    what: shareWhat(s, group, paths),
    permission: contentRightsWords(mask),
    canEdit: mask !== null && Number.isSafeInteger(mask) && mask > 0 && (mask & EDIT_BITS) !== 0,
    power: false,
    created: s.dateCreated ?? -1,
    expires: s.dateExpire ?? -1,
    password: s.passwordEnabled === null ? (-1 as const) : s.passwordEnabled ? (1 as const) : (0 as const),
    groups: group ? [group.name] : [],
  };
}

function invitedRow(i: Invitation, n: number, groups: ReadonlyMap<number, OutsiderGroup>): OutsiderRow {
  const p = i.parameters;
  const granted = (p?.groups ?? []).map((g) => ({
    group: groups.get(Number(g.groupId)),
    id: g.groupId,
    level: g.permission,
  }));
  const what = p
    ? granted
        .map((g) => l10n.t('{0}: {1}', g.group?.label ?? l10n.t('group {0}', g.id), groupPermissionWords(g.level)))
        .join('; ') || l10n.t('no group')
    : l10n.t('{0} (as the portal sent it, not understood)', i.parametersAsSent ?? '');
  return {
    key: `i:${i.id ?? n}`,
    kind: 'invited',
    email: i.targetName ?? '',
    what,
    permission: p ? accountPermissionWords(p.mask) : l10n.t('not understood'),
    canEdit: false,
    power: p
      ? holdsPower(
          p.mask,
          granted.map((g) => (g.level === 16 ? 16 : g.level === 4 ? 4 : 1)),
        )
      : false,
    created: i.dateCreated ?? -1,
    expires: -1,
    password: -1,
    groups: granted.flatMap((g) => (g.group ? [g.group.name] : [])),
  };
}

/**
 * The rows of a read: the organisation's guest shares (a share placed in a group of another organisation is left
 * out; one the portal does not place is kept, since leaving a guest out of an access review is the worse mistake)
 * and its pending invitations.
 */
export function outsiderRows(record: OutsidersRecord | undefined): { rows: OutsiderRow[]; elsewhere: number } {
  if (!record) return { rows: [], elsewhere: 0 };
  const groups = new Map(record.groups.map((g) => [g.id, g]));
  const rows: OutsiderRow[] = [];
  let elsewhere = 0;
  if (typeof record.shares !== 'string') {
    for (const [n, s] of record.shares.entries()) {
      const group = shareGroup(s, groups);
      if (s.place && !group && groups.size > 0) {
        elsewhere++;
        continue;
      }
      rows.push(guestRow(s, n, group, record.paths));
    }
  }
  if (typeof record.invitations !== 'string')
    for (const [n, i] of record.invitations.entries()) if (i.pending) rows.push(invitedRow(i, n, groups));
  return { rows, elsewhere };
}
