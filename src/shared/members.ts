/**
 * The Members view's row and query, shared by the view, its commands and anything that lists members (a CSV
 * export, a bulk edit). Search, tags and order run on the portal, so they see rows that are not loaded yet; the
 * activity filter is checked on the rows as the list is walked. Pure.
 */
import * as l10n from '@vscode/l10n';
import type { Member } from '../api/models/member';
import type { MemberOrder } from '../api/endpoints/v3';
import { flagsOf, hasState, inactiveFor, notStarted, type MemberState } from './memberStates';

/** What a member row shows and what its commands need: far smaller than the parsed API object. */
export interface MemberRow {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly permission: number | null;
  readonly enabled: boolean;
  readonly locked: boolean;
  readonly pendingUnlock: boolean;
  readonly tags: readonly string[];
  readonly lastActive: number | null;
  /** The user belongs to another organisation too, so removing them here leaves their user on the portal. */
  readonly multipleAccounts: boolean;
  readonly twoFactor: boolean;
  /** An activation e-mail still to be sent: 'now', or at `activationDate`; null when none is pending. */
  readonly activation: 'now' | 'custom' | null;
  readonly activationDate: number | null;
  readonly verifiedEmail: boolean;
  /** Null: the portal did not say. */
  readonly jobTitle: string | null;
  readonly telephone: string | null;
}

export function memberRow(m: Member): MemberRow {
  return {
    username: m.user.username,
    name: m.user.name || m.user.username,
    email: m.user.email,
    permission: m.permission,
    enabled: m.user.enabled,
    locked: m.user.locked,
    pendingUnlock: m.pendingUnlock,
    tags: m.tags,
    lastActive: m.user.lastActive,
    multipleAccounts: m.memberOfMultipleAccounts,
    twoFactor: m.twoFactorAuthentication,
    activation: m.activation.mode,
    activationDate: m.activation.date,
    verifiedEmail: m.user.verifiedEmail,
    jobTitle: m.user.jobTitle,
    telephone: m.user.telephone,
  };
}

/**
 * Stale and risky members: conditions the portal's member list cannot be asked for, so the view checks them on the
 * rows as it walks the list (see the Members view's loaders). Every condition given must hold.
 */
export interface ActivityFilter {
  /** Not active for at least this many days; members never active count as inactive. */
  readonly inactiveDays?: number | undefined;
  /** Never active at all. */
  readonly never?: boolean | undefined;
  readonly disabled?: boolean | undefined;
  readonly locked?: boolean | undefined;
  /** An activation e-mail still to be sent. */
  readonly pending?: boolean | undefined;
  readonly twoFactorOff?: boolean | undefined;
  /**
   * True: members not started yet (never active, activation still to come) count as inactive and never active too;
   * by default those two conditions leave them out.
   */
  readonly notStarted?: boolean | undefined;
  /**
   * Only members of this group. The portal lists no group's members, so a row that meets the other conditions has
   * its groups learnt (from the access store when fresh, else one v2 member read) before it is kept.
   */
  readonly group?: GroupScope | undefined;
  /**
   * No sign-in since invited or created, as the audit read tells (the access store's sign-ins); where the audit does
   * not tell, never active. The pending invitations are shown too: an invitation still pending was never signed in to.
   */
  readonly neverSignedIn?: boolean | undefined;
  /** The pending invitations alone, as *Invited* rows: no member is listed. */
  readonly invited?: boolean | undefined;
}

/** A group a filter is scoped to: its id, its unique name (what a member's map of groups is keyed by) and its label. */
export interface GroupScope {
  readonly id: number;
  readonly name: string;
  /** The friendly name, as people know the group. */
  readonly label: string;
}

export function hasActivityFilter(f: ActivityFilter | undefined): f is ActivityFilter {
  return Boolean(
    f &&
    (f.inactiveDays !== undefined ||
      f.never ||
      f.disabled ||
      f.locked ||
      f.pending ||
      f.twoFactorOff ||
      f.group ||
      f.neverSignedIn ||
      f.invited),
  );
}

/** The filter's conditions as member states (memberStates.ts), so they mean here what they mean everywhere. */
const STATE_OF: ReadonlyArray<readonly [keyof ActivityFilter, MemberState]> = [
  ['never', 'neverActive'],
  ['disabled', 'disabled'],
  ['locked', 'locked'],
  ['pending', 'pending'],
  ['twoFactorOff', 'twoFactorOff'],
];

/** True when the row meets every condition of the filter that the row itself can tell (not the group). */
export function meetsActivity(row: MemberRow, f: ActivityFilter, now: number): boolean {
  const lastActive = row.lastActive ?? -1;
  if (f.inactiveDays !== undefined && !inactiveFor(lastActive, f.inactiveDays, now)) return false;
  const flags = flagsOf(row);
  if (leavesOutNotStarted(f) && notStarted(flags, lastActive)) return false;
  return STATE_OF.every(([condition, state]) => !f[condition] || hasState(flags, lastActive, state));
}

/** Whether the filter asks about activity (inactive N days, never active) and leaves out who has not started yet. */
export function leavesOutNotStarted(f: ActivityFilter): boolean {
  return (f.inactiveDays !== undefined || f.never === true) && f.notStarted !== true;
}

/** The filter in words: "inactive 90+ days, disabled", "inactive 90+ days in Engineering". */
export function describeActivity(f: ActivityFilter): string {
  const conditions = describeConditions(f);
  if (!f.group) return conditions;
  return conditions ? l10n.t('{0} in {1}', conditions, f.group.label) : l10n.t('in {0}', f.group.label);
}

function describeConditions(f: ActivityFilter): string {
  const parts: string[] = [];
  if (f.never) parts.push(l10n.t('never active'));
  if (f.inactiveDays !== undefined) parts.push(l10n.t('inactive {0}+ days', f.inactiveDays));
  if (f.disabled) parts.push(l10n.t('disabled'));
  if (f.locked) parts.push(l10n.t('locked'));
  if (f.pending) parts.push(l10n.t('pending activation'));
  if (f.twoFactorOff) parts.push(l10n.t('two-factor off'));
  if (f.neverSignedIn) parts.push(l10n.t('never signed in since invited or created'));
  if (f.invited) parts.push(l10n.t('pending invitations'));
  if (f.notStarted && (f.inactiveDays !== undefined || f.never)) parts.push(l10n.t('members not started yet included'));
  return parts.join(', ');
}

/** How the Members view asks the portal. */
export interface MemberQuery {
  /** Name, username or e-mail contains. */
  readonly search?: string | undefined;
  /** True: name or e-mail starts with `search`. */
  readonly startsWith?: boolean | undefined;
  /** Members carrying any of these tags. */
  readonly tags?: readonly string[] | undefined;
  readonly orderBy?: MemberOrder | undefined;
  readonly ascending?: boolean | undefined;
  /** Checked on the rows as the list is walked, not by the portal. */
  readonly activity?: ActivityFilter | undefined;
}

export interface MemberOrderChoice {
  /** In the picker. */
  readonly label: string;
  /** In the view's description: "by {words}". */
  readonly words: string;
  readonly orderBy: MemberOrder;
  readonly ascending: boolean;
}

/** The orders the view offers (made on each call, so the words are in the language VS Code runs in). */
export function memberOrders(): readonly MemberOrderChoice[] {
  return [
    { label: l10n.t('Name (A → Z)'), words: l10n.t('by name'), orderBy: 'name', ascending: true },
    { label: l10n.t('Name (Z → A)'), words: l10n.t('by name, descending'), orderBy: 'name', ascending: false },
    { label: l10n.t('Username'), words: l10n.t('by username'), orderBy: 'username', ascending: true },
    { label: l10n.t('E-mail'), words: l10n.t('by e-mail'), orderBy: 'email', ascending: true },
    {
      label: l10n.t('Newest members first'),
      words: l10n.t('by date joined, newest first'),
      orderBy: 'dateCreated',
      ascending: false,
    },
    { label: l10n.t('Oldest members first'), words: l10n.t('by date joined'), orderBy: 'dateCreated', ascending: true },
    {
      label: l10n.t('Recently active first'),
      words: l10n.t('by last activity, most recent first'),
      orderBy: 'lastActive',
      ascending: false,
    },
  ];
}

/** True when the query asks for the portal's default order (by name, A → Z). */
function isDefaultOrder(q: MemberQuery): boolean {
  return (q.orderBy ?? 'name') === 'name' && q.ascending !== false;
}

/**
 * A leading "^" means "starts with": `^ann` finds Anna and ann@… but not Joanne. Plain text matches anywhere in the
 * name, username or e-mail. Both run on the portal.
 */
export function parseSearch(input: string): { search?: string; startsWith?: boolean } {
  const raw = input.trim();
  if (!raw) return {};
  if (raw.startsWith('^')) {
    const rest = raw.slice(1).trim();
    return rest ? { search: rest, startsWith: true } : {};
  }
  return { search: raw };
}

/** The search as the user typed it, for the search box's starting value. */
export function searchText(q: MemberQuery): string {
  return q.search ? `${q.startsWith ? '^' : ''}${q.search}` : '';
}

/** The query in words for the view's description: 'matches "ann" · by e-mail'; '' for no filter and default order. */
export function describeQuery(q: MemberQuery): string {
  const parts: string[] = [];
  if (q.search) parts.push(q.startsWith ? l10n.t('starts with "{0}"', q.search) : l10n.t('matches "{0}"', q.search));
  if (q.tags?.length) parts.push(l10n.t('tagged {0}', q.tags.map((t) => `#${t}`).join(', ')));
  if (hasActivityFilter(q.activity)) parts.push(describeActivity(q.activity));
  if (!isDefaultOrder(q)) {
    const order = memberOrders().find(
      (o) => o.orderBy === (q.orderBy ?? 'name') && o.ascending === (q.ascending !== false),
    );
    parts.push(order?.words ?? String(q.orderBy));
  }
  return parts.join(' · ');
}

/** True when the query narrows the list (an empty list then means "no match", not "no members"). */
export function isFiltered(q: MemberQuery): boolean {
  return Boolean(q.search) || Boolean(q.tags?.length) || hasActivityFilter(q.activity);
}
