/**
 * One bulk change, and what it means for one member: the single request that applies it, or why no request is
 * needed. Pure: no I/O, so the planning is the same whatever runs it.
 */
import { PortalError, type Member, type MemberUpdate } from '../../../api/index';

/** Group permission levels a bulk change can set; 0 takes the member out of the group. */
export type GroupLevel = 0 | 1 | 4 | 16;

export type BulkChange =
  | { readonly kind: 'enable' }
  | { readonly kind: 'disable' }
  | { readonly kind: 'lock' }
  | { readonly kind: 'unlock' }
  | { readonly kind: 'delete' }
  | { readonly kind: 'setGroupPermission'; readonly groupId: number; readonly permission: GroupLevel }
  | { readonly kind: 'addTag'; readonly tag: string }
  | { readonly kind: 'removeTag'; readonly tag: string };

/**
 * What the caller knows of a member (a Members view row carries all of it). Tag changes replace the member's
 * whole tag list, computed from `tags`; a tag someone added since the row was loaded is lost.
 */
export interface BulkMember {
  readonly username: string;
  readonly enabled: boolean;
  readonly locked: boolean;
  /** The portal sets this when a locked user asked to be unlocked; unlocking clears it. */
  readonly pendingUnlock?: boolean;
  readonly tags: readonly string[];
  /** Group id → permission (0 or absent: not in the group), when known; unknown means "send the change". */
  readonly groupPermissions?: ReadonlyMap<number, number>;
}

export type SkipReason =
  | 'already-enabled'
  | 'already-disabled'
  | 'already-locked'
  | 'not-locked'
  | 'has-tag'
  | 'lacks-tag'
  | 'same-permission'
  /** Delete answered 404: the member had already left the organisation. */
  | 'already-removed';

export type MemberStep =
  | { readonly kind: 'skip'; readonly reason: SkipReason }
  | { readonly kind: 'update'; readonly update: MemberUpdate }
  | { readonly kind: 'delete' };

/** The portal keeps tags trimmed and at most this long. */
export const MAX_TAG_LENGTH = 50;
const LEVELS: readonly number[] = [0, 1, 4, 16];

/** A Members view row (a v3 Member) as a bulk member. */
export function bulkMemberOf(member: Member): BulkMember {
  return {
    username: member.user.username,
    enabled: member.user.enabled,
    locked: member.user.locked,
    pendingUnlock: member.pendingUnlock,
    tags: member.tags,
  };
}

function invalid(message: string): PortalError {
  return new PortalError({ kind: 'invalid-input', endpoint: '', message });
}

/** The change with its tag trimmed; throws 'invalid-input' for a change no member could take. */
export function checkChange(change: BulkChange): BulkChange {
  if (change.kind === 'addTag' || change.kind === 'removeTag') {
    const tag = change.tag.trim();
    if (!tag) throw invalid('A tag needs at least one character other than spaces.');
    if (tag.length > MAX_TAG_LENGTH) throw invalid(`A tag has at most ${MAX_TAG_LENGTH} characters.`);
    return { kind: change.kind, tag };
  }
  if (change.kind === 'setGroupPermission') {
    if (!Number.isSafeInteger(change.groupId) || change.groupId <= 0)
      throw invalid('Choose a group of this organisation.');
    if (!LEVELS.includes(change.permission))
      throw invalid('Choose a group permission: none, basic, standard or administrator.');
  }
  return change;
}

/**
 * The PATCH fields for one group (spec 4.3): administrator goes in assignGroupsAdmin, basic and standard in
 * assignGroupsRights, none in removeGroups.
 */
function groupLevelUpdate(groupId: number, level: GroupLevel): MemberUpdate {
  if (level === 0) return { removeGroups: [groupId] };
  if (level === 16) return { assignGroupsAdmin: [groupId] };
  return { assignGroupsRights: { [String(groupId)]: level } };
}

/** The one request that applies `change` to `member`, or the reason none is needed. `change` is checked. */
export function stepFor(change: BulkChange, member: BulkMember): MemberStep {
  const skip = (reason: SkipReason): MemberStep => ({ kind: 'skip', reason });
  const update = (u: MemberUpdate): MemberStep => ({ kind: 'update', update: u });
  switch (change.kind) {
    case 'enable':
      return member.enabled ? skip('already-enabled') : update({ enabled: true });
    case 'disable':
      return member.enabled ? update({ enabled: false }) : skip('already-disabled');
    case 'lock':
      return member.locked ? skip('already-locked') : update({ lock: true });
    case 'unlock':
      return member.locked || member.pendingUnlock ? update({ lock: false }) : skip('not-locked');
    case 'delete':
      return { kind: 'delete' };
    case 'addTag':
      return member.tags.includes(change.tag) ? skip('has-tag') : update({ tags: [...member.tags, change.tag] });
    case 'removeTag':
      return member.tags.includes(change.tag)
        ? update({ tags: member.tags.filter((t) => t !== change.tag) })
        : skip('lacks-tag');
    case 'setGroupPermission': {
      const known = member.groupPermissions;
      if (known && (known.get(change.groupId) ?? 0) === change.permission) return skip('same-permission');
      return update(groupLevelUpdate(change.groupId, change.permission));
    }
  }
}

/**
 * Whether the portal's answer to the PATCH shows the change. A portal that answers 200 with the old values has not
 * applied it, and the summary must not say it did. Group permissions are not in a v3 Member, so they cannot be seen.
 */
export function answerShowsChange(change: BulkChange, answer: Member): boolean {
  switch (change.kind) {
    case 'enable':
      return answer.user.enabled;
    case 'disable':
      return !answer.user.enabled;
    case 'lock':
      return answer.user.locked;
    case 'unlock':
      return !answer.user.locked;
    case 'addTag':
      return answer.tags.includes(change.tag);
    case 'removeTag':
      return !answer.tags.includes(change.tag);
    default:
      return true;
  }
}
