/**
 * One bulk change, and what it means for one member: the member's values it sets (the engine turns them into the
 * one request), with the values the member had, or why no request is needed. Pure: no I/O, so the planning is the
 * same whatever runs it.
 */
import { PortalError, type Member } from '../../../api/index';
import type { MemberEdit } from '../../../engine/members/edits';
import type { MemberBefore, MemberTarget } from '../../../engine/members/model';
import { GROUP_LEVELS, groupLevelPatch, type GroupLevel } from '../../../shared/groupLevel';
import { MAX_TAG_LENGTH } from '../../../shared/memberRules';

export type { GroupLevel } from '../../../shared/groupLevel';

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
  /**
   * A fresh read found them in no other organisation, and the user confirmed that removing them deletes their user
   * for good. A removal without it that would now delete the user for good is left alone.
   */
  readonly deletesUser?: boolean;
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
  | 'already-removed'
  /** At the moment of sending, removing them would delete their user for good, which the user did not confirm. */
  | 'now-deleted-for-good';

export type MemberStep =
  | { readonly kind: 'skip'; readonly reason: SkipReason }
  | { readonly kind: 'update'; readonly target: MemberTarget }
  | { readonly kind: 'delete' };

/** A member just read from the portal (a v3 Member) as a bulk member: a removal of one in no other organisation deletes their user. */
export function bulkMemberOf(member: Member): BulkMember {
  return {
    username: member.user.username,
    enabled: member.user.enabled,
    locked: member.user.locked,
    pendingUnlock: member.pendingUnlock,
    tags: member.tags,
    deletesUser: !member.memberOfMultipleAccounts,
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
    if (!(GROUP_LEVELS as readonly number[]).includes(change.permission))
      throw invalid('Choose a group permission: none, basic, standard or administrator.');
  }
  return change;
}

/** What applying `change` to `member` sets, or the reason nothing needs to be sent. `change` is checked. */
export function stepFor(change: BulkChange, member: BulkMember): MemberStep {
  const skip = (reason: SkipReason): MemberStep => ({ kind: 'skip', reason });
  const set = (fields: MemberTarget['fields']): MemberStep => ({ kind: 'update', target: { fields, groups: {} } });
  switch (change.kind) {
    case 'enable':
      return member.enabled ? skip('already-enabled') : set({ enabled: true });
    case 'disable':
      return member.enabled ? set({ enabled: false }) : skip('already-disabled');
    case 'lock':
      return member.locked ? skip('already-locked') : set({ locked: true });
    case 'unlock':
      // A pending unlock request is cleared by an unlock too, so the member counts as locked.
      return member.locked || member.pendingUnlock ? set({ locked: false }) : skip('not-locked');
    case 'delete':
      return { kind: 'delete' };
    case 'addTag':
      return member.tags.includes(change.tag) ? skip('has-tag') : set({ tags: [...member.tags, change.tag] });
    case 'removeTag':
      return member.tags.includes(change.tag)
        ? set({ tags: member.tags.filter((t) => t !== change.tag) })
        : skip('lacks-tag');
    case 'setGroupPermission': {
      const known = member.groupPermissions;
      if (known && (known.get(change.groupId) ?? 0) === change.permission) return skip('same-permission');
      return { kind: 'update', target: { fields: {}, groups: { [String(change.groupId)]: change.permission } } };
    }
  }
}

/** What the member was before, as far as the caller knows: the flags and tags, and a group's level when loaded. */
export function bulkBefore(member: BulkMember): MemberBefore {
  const groups: Record<string, GroupLevel> = {};
  for (const [id, level] of member.groupPermissions ?? []) groups[String(id)] = level as GroupLevel;
  return {
    username: member.username,
    name: '',
    email: '',
    jobTitle: null,
    // An unlock of a pending request sends lock=false even when the row shows unlocked: the undo leaves it so.
    enabled: member.enabled,
    locked: member.locked,
    accountPermission: null,
    tags: member.tags,
    twoFactor: false,
    lastModified: null,
    groups,
  };
}

/**
 * The member's part of a bulk edit as an engine edit; undefined for a member that needs no request. A group level
 * not known before is sent all the same (the engine's PATCH compares with what it knows, which is nothing).
 */
export function bulkEditOf(
  step: MemberStep,
  member: BulkMember,
  groupNames: Record<string, string>,
): MemberEdit | undefined {
  if (step.kind === 'skip') return undefined;
  const before = bulkBefore(member);
  if (step.kind === 'delete')
    return { username: member.username, action: 'remove', before, after: null, permanent: member.deletesUser === true };
  const action = step.target.fields.enabled === false ? 'disable' : 'update';
  const edit: MemberEdit = { username: member.username, action, before, after: step.target, groupNames };
  const unknownLevels = Object.entries(step.target.groups).filter(([id]) => !(id in before.groups));
  if (unknownLevels.length === 0) return edit;
  // Not known before: sent as it is, since the engine would compare it with "not in the group".
  const levels = unknownLevels.map(([id, level]): [number, GroupLevel] => [Number(id), level]);
  return { ...edit, requests: [{ method: 'v3.update', body: groupLevelPatch(levels) }] };
}
