/**
 * The people outside the member list who can reach an organisation, as the access matrix shows them beside its
 * members: guests with a share of its content, and pending invitations (shown as *Invited*), with each member's last
 * sign-in from the audit. All three come from observed endpoints (api/endpoints/observed.ts). What the store keeps is
 * what was read (OutsidersRecord); the host makes rows of it in words (outsiders.ts), and the page and the CSV filter
 * them with the same functions here. Pure: the matrix's webview reads it too.
 */
import * as l10n from '@vscode/l10n';
import type { GuestShare, Invitation, NotOfferedReason } from '../../../../api/index';
import { bool, int, oneOf, optional } from '../../../../forms/protocol/validate';
import type { OutsiderRow } from '../../../../shared/outsiderRow';

export type { OutsiderRow };

const DAY_MS = 86_400_000;

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

/** What the page filters beyond the members' own view: the outsiders', and members who never signed in. */
export interface OthersView extends OutsiderView {
  /** Members with no sign-in in the audit read (since invited or created); pending invitations always count. */
  readonly neverSignedIn?: boolean | undefined;
  /** Hide the guests and invitations (the members' matrix alone). */
  readonly hidden?: boolean | undefined;
}

/** The page's outsiders filters as they travel: checked like every other message from the page. */
export const othersShape = {
  kind: optional(oneOf(OUTSIDER_KINDS)),
  noExpiry: optional(bool),
  expired: optional(bool),
  noPassword: optional(bool),
  olderDays: optional(int({ min: 0, max: 100_000 })),
  canEdit: optional(bool),
  neverSignedIn: optional(bool),
  hidden: optional(bool),
};

/** Sign-ins as the page needs them: the last one per member, or none known. */
export interface SignInWire {
  readonly known: boolean;
  readonly complete: boolean;
  readonly dateStart: string;
  readonly last: Readonly<Record<string, number>>;
}

export function signInWire(record: SignInRecord | undefined): SignInWire {
  return record?.kind === 'read'
    ? { known: true, complete: record.complete, dateStart: record.dateStart, last: record.last }
    : { known: false, complete: false, dateStart: '', last: {} };
}

/** The invited rows the sign-in filter keeps: an invitation still pending was never signed in to. */
export function outsidersShown(
  rows: readonly OutsiderRow[],
  view: OthersView,
  now: number,
  group?: string,
): OutsiderRow[] {
  if (view.hidden) return [];
  const shown = visibleOutsiders(rows, view, now, group);
  return view.neverSignedIn ? shown.filter((r) => r.kind === 'invited') : shown;
}

/**
 * Members the sign-in filter keeps (all when it is off): no sign-in in the audit read. Where the audit does not tell
 * (not read, not understood, or read in part and no sign-in seen), it falls back to last active: never active.
 */
export function membersSigned<T>(
  rows: T[],
  view: OthersView,
  signIns: SignInWire,
  member: (row: T) => { readonly username: string; readonly lastActive: number },
): T[] {
  if (!view.neverSignedIn) return rows;
  return rows.filter((r) => {
    const { username, lastActive } = member(r);
    if (!signIns.known) return lastActive < 0;
    if (signIns.last[username.toLowerCase()] !== undefined) return false;
    return signIns.complete || lastActive < 0;
  });
}

/** What the page is sent of the outsiders and sign-ins: rows in words, one note, the members' last sign-ins. */
export interface OutsidersMessage {
  readonly rows: readonly OutsiderRow[];
  /** What the portal refused or was not understood, said once ('' when nothing). */
  readonly note: string;
  readonly signIns: SignInWire;
}
