/**
 * The requests that move one member: a v3 PATCH for everything it takes (tags, enabled, lock, permission, two-factor
 * off, groups), a v2 update only for what v3 cannot change (name, e-mail, job title), and a create by v3, or by v2
 * when the member needs what only v2 takes at creation. Pure.
 */
import type { MemberBodyV2, MemberCreate, MemberUpdate } from '../../api/index';
import { groupLevelPatch, type GroupLevel } from '../../shared/groupLevel';
import {
  newMember,
  type JournalRequest,
  type JournalWork,
  type MemberBefore,
  type MemberTarget,
  type NewMemberSpec,
  type RestoreChange,
} from './model';

type Fields = MemberTarget['fields'];

function sameValue(want: unknown, now: unknown): boolean {
  if (Array.isArray(want) && Array.isArray(now))
    return want.length === now.length && want.every((x, i) => x === now[i]);
  return (want ?? '') === (now ?? '');
}

/** Whether the target names `k` with a value the member does not have. */
function differs<K extends keyof Fields>(f: Fields, k: K, now: unknown): boolean {
  return f[k] !== undefined && !sameValue(f[k], now);
}

/** The v2 update for the profile fields v3 cannot change, when one of them differs. */
function profileRequest(f: Fields, current: MemberBefore): JournalRequest | undefined {
  const user: MemberBodyV2['user'] = {};
  if (differs(f, 'name', current.name) && f.name !== undefined) user.name = f.name;
  if (differs(f, 'email', current.email) && f.email !== undefined) user.email = f.email;
  if (differs(f, 'jobTitle', current.jobTitle)) user.jobTitle = f.jobTitle ?? '';
  return Object.keys(user).length > 0 ? { method: 'v2.update', body: { user } } : undefined;
}

/** The v3 PATCH fields for what differs, groups by spec 4.3. */
function patchOf(target: MemberTarget, current: MemberBefore): MemberUpdate {
  const f = target.fields;
  const patch: MemberUpdate = {};
  if (differs(f, 'tags', current.tags) && f.tags) patch.tags = [...f.tags];
  if (differs(f, 'enabled', current.enabled) && f.enabled !== undefined) patch.enabled = f.enabled;
  if (differs(f, 'locked', current.locked) && f.locked !== undefined) patch.lock = f.locked;
  if (differs(f, 'accountPermission', current.accountPermission) && f.accountPermission !== undefined)
    patch.permission = f.accountPermission;
  if (f.twoFactor === false && current.twoFactor) patch.disableTwoFactorAuthentication = true;
  // A level not known before (a bulk edit on rows without their groups) is sent as it is: it may differ.
  const levels = Object.entries(target.groups)
    .filter(([id, level]) => !(id in current.groups) || current.groups[id] !== level)
    .map(([id, level]): [number, GroupLevel] => [Number(id), level]);
  return { ...patch, ...groupLevelPatch(levels) };
}

/** The PATCH and v2 update that move a member from `current` to `target` (only what differs). */
export function updateRequests(target: MemberTarget, current: MemberBefore): JournalRequest[] {
  const requests: JournalRequest[] = [];
  const profile = profileRequest(target.fields, current);
  if (profile) requests.push(profile);
  const patch = patchOf(target, current);
  if (Object.keys(patch).length > 0) requests.push({ method: 'v3.update', body: patch });
  return requests;
}

export function groupsRecord(groups: ReadonlyMap<number, GroupLevel>): Record<string, GroupLevel> {
  const out: Record<string, GroupLevel> = {};
  for (const [id, level] of groups) out[String(id)] = level;
  return out;
}

/** A member with nothing known: the baseline of a member being created. */
export function emptyBefore(username: string): MemberBefore {
  return {
    username,
    name: '',
    email: '',
    jobTitle: null,
    enabled: true,
    locked: false,
    accountPermission: null,
    tags: [],
    twoFactor: false,
    lastModified: null,
    groups: {},
  };
}

/** The v2 create, for a member who needs a job title, a later activation date or a snapshot's address. */
function v2Create(spec: NewMemberSpec, profile: RestoreChange['profile']): JournalRequest {
  const user: MemberBodyV2['user'] = {
    username: spec.username,
    name: spec.name,
    email: spec.email,
    enabled: spec.enabled,
  };
  if (spec.jobTitle !== null) user.jobTitle = spec.jobTitle;
  if (profile?.telephone) user.telephone = profile.telephone;
  if (profile?.address) user.address = profile.address;
  if (profile?.organisation) user.organisation = profile.organisation;
  const activation =
    spec.activationDate !== undefined
      ? { activationType: 'custom' as const, activationDate: spec.activationDate }
      : { activationType: 'now' as const };
  return { method: 'v2.create', body: { user, accountPermission: spec.accountPermission, ...activation } };
}

function v3Create(spec: NewMemberSpec, profile: RestoreChange['profile']): JournalRequest {
  const body: MemberCreate = {
    username: spec.username,
    name: spec.name,
    email: spec.email,
    enabled: spec.enabled,
    rights: spec.accountPermission,
    ...(profile?.telephone ? { phone: profile.telephone } : {}),
    ...(spec.tags.length > 0 ? { tags: [...spec.tags] } : {}),
    ...(spec.groups.size > 0 ? { assignGroups: groupsRecord(spec.groups) } : {}),
  };
  return { method: 'v3.create', body };
}

/**
 * The requests that create a member: one v3 POST with groups, tags and permission; v2 POST instead when the
 * member needs what only v2 takes at creation (a job title, a later activation date, a snapshot's address), then a
 * v3 PATCH for tags and groups (by id, as v2 takes groups by name only). A member to be locked gets a PATCH too
 * (creation takes no lock).
 */
export function createRequests(spec: NewMemberSpec, profile?: RestoreChange['profile']): JournalRequest[] {
  const extras = profile && (profile.address || profile.organisation);
  const needsV2 = spec.jobTitle !== null || spec.activationDate !== undefined || Boolean(extras);
  const later: MemberUpdate = needsV2
    ? patchOf({ fields: { tags: spec.tags }, groups: groupsRecord(spec.groups) }, emptyBefore(spec.username))
    : {};
  if (spec.locked) later.lock = true;
  const first = needsV2 ? v2Create(spec, profile) : v3Create(spec, profile);
  return Object.keys(later).length > 0 ? [first, { method: 'v3.update', body: later }] : [first];
}

/** What a new member's values are once created. */
export function targetOfSpec(spec: NewMemberSpec): MemberTarget {
  return {
    fields: {
      name: spec.name,
      email: spec.email,
      jobTitle: spec.jobTitle,
      enabled: spec.enabled,
      locked: spec.locked,
      accountPermission: spec.accountPermission,
      tags: spec.tags,
    },
    groups: groupsRecord(spec.groups),
  };
}

/** The groups a new member joins: every level but none. */
export function joinedGroups(levels: Readonly<Record<string, GroupLevel>>): Map<number, GroupLevel> {
  const groups = new Map<number, GroupLevel>();
  for (const [id, level] of Object.entries(levels)) if (level !== 0) groups.set(Number(id), level);
  return groups;
}

/**
 * The member a journal's create (or re-create) work makes, from its target alone: what a resume shows and sends.
 * Only the activation date is taken from its journaled v2 create, the one value the target does not hold.
 */
export function newMemberOf(work: JournalWork, after: MemberTarget): NewMemberSpec {
  const created = work.requests.find((r) => r.method === 'v2.create');
  return newMember(
    work.username,
    after.fields,
    joinedGroups(after.groups),
    created?.method === 'v2.create' ? created.body.activationDate : undefined,
  );
}

/**
 * A journaled unit's requests rebuilt from its `before` and `after` by the code that builds them at plan time.
 * A resume sends these, never the journal's own request bodies: a journal is a file anyone with the profile can
 * edit, and its `after` is what the resume's confirmation shows. What only the journaled requests held (a form's
 * activation message, the new-groups permission, a snapshot's address) is not sent again.
 */
export function rebuiltRequests(work: JournalWork): JournalRequest[] {
  if (work.action === 'remove') return [{ method: 'v3.delete' }];
  const after = work.after;
  if (!after) return [];
  if (work.action === 'create' || work.action === 'restore') return createRequests(newMemberOf(work, after));
  // Without the values before, the resume's plan shows no change for the member, so none is sent.
  return work.before ? updateRequests(after, work.before) : [];
}
