/**
 * A member's states, with one meaning each wherever members are filtered or described: chat's answers, the access
 * matrix (its State filter, its column and its CSV) and the Members view's filter and export. "Enabled" means able
 * to sign in: neither disabled nor locked, since the portal keeps a locked member out as it does a disabled one.
 * Pure: the webview reads it too.
 */
import * as l10n from '@vscode/l10n';
import type { ActivationMode } from '../api/models/member';

/** Member flags, one bit each, as the access store keeps them. */
export const FLAG = { disabled: 1, locked: 2, pending: 4, twoFactor: 8 } as const;

export const MEMBER_STATES = ['enabled', 'disabled', 'locked', 'pending', 'neverActive', 'twoFactorOff'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

const DAY_MS = 86_400_000;

/** What the portal says of a member that their state is told from. */
export interface MemberFacts {
  readonly enabled: boolean;
  readonly locked: boolean;
  readonly activation: ActivationMode | null;
  readonly twoFactor: boolean;
}

/**
 * A member's flags. Only an activation e-mail at a later date is still waiting: the portal answers 'now' for every
 * member it has activated, so that one is no pending activation.
 */
export function flagsOf(m: MemberFacts): number {
  return (
    (m.enabled ? 0 : FLAG.disabled) |
    (m.locked ? FLAG.locked : 0) |
    (m.activation === 'custom' ? FLAG.pending : 0) |
    (m.twoFactor ? FLAG.twoFactor : 0)
  );
}

/** Whether a member with these flags, last active at `lastActive` (negative: never), is in `state`. */
export function hasState(flags: number, lastActive: number, state: MemberState): boolean {
  switch (state) {
    case 'enabled':
      return (flags & (FLAG.disabled | FLAG.locked)) === 0;
    case 'disabled':
      return (flags & FLAG.disabled) !== 0;
    case 'locked':
      return (flags & FLAG.locked) !== 0;
    case 'pending':
      return (flags & FLAG.pending) !== 0;
    case 'neverActive':
      return lastActive < 0;
    case 'twoFactorOff':
      return (flags & FLAG.twoFactor) === 0;
  }
}

/** Not active for at least `days` at `now` (last active at `lastActive`, negative: never, which counts as inactive). */
export function inactiveFor(lastActive: number, days: number, now: number): boolean {
  return lastActive < 0 || lastActive <= now - days * DAY_MS;
}

/**
 * Not started yet: never active, and their activation e-mail is still to come (a starter whose first day is ahead).
 * They have not had the access an activity filter measures the use of, so "inactive 90+ days" and "never active"
 * leave them out unless asked to keep them: one meaning for the access matrix, the Members view, the access review
 * and chat's answers.
 */
export function notStarted(flags: number, lastActive: number): boolean {
  return lastActive < 0 && (flags & FLAG.pending) !== 0;
}

/** What the access matrix and the access review both filter members by: absent means "any". */
export interface ActivityFacets {
  readonly state?: MemberState | undefined;
  /** Not active for at least this many days; never active counts as inactive. */
  readonly inactiveDays?: number | undefined;
  /**
   * True: members not started yet (never active, activation e-mail still to come) count under "inactive N days" and
   * "never active"; by default those leave them out.
   */
  readonly notStarted?: boolean | undefined;
}

/** Whether the facets filter on activity: inactive N days, or never active. */
export function filtersActivity(f: ActivityFacets): boolean {
  return f.inactiveDays !== undefined || f.state === 'neverActive';
}

/**
 * Whether a filter leaves this member out as not started yet: it asks about activity (inactive N days, never active)
 * and was not told to keep them.
 */
export function leftOutAsNotStarted(
  filter: { readonly activity: boolean; readonly keepNotStarted?: boolean | undefined },
  flags: number,
  lastActive: number,
): boolean {
  return filter.activity && filter.keepNotStarted !== true && notStarted(flags, lastActive);
}

/** A state in words, as every filter and column says it. */
export function stateWord(state: MemberState): string {
  switch (state) {
    case 'enabled':
      return l10n.t('Enabled');
    case 'disabled':
      return l10n.t('Disabled');
    case 'locked':
      return l10n.t('Locked');
    case 'pending':
      return l10n.t('Pending activation');
    case 'neverActive':
      return l10n.t('Never active');
    case 'twoFactorOff':
      return l10n.t('Two-factor off');
  }
}
