/**
 * The member forms' saves as engine edits: what is sent is exactly what the form built, and the member's values
 * before and after go with it, so the save is journaled and its Undo puts the member back (a create's undo removes
 * the member again; the profile fields v3 does not know, phone, organisation and address, are not put back).
 */
import type { MemberBodyV2, MemberCreate, MemberUpdate } from '../../../api/index';
import type { MemberEdit } from '../../../engine/members/edits';
import type { JournalRequest, MemberBefore, MemberTarget } from '../../../engine/members/model';
import { levelsOfPatch } from '../../../shared/groupLevel';
import type { MemberValues } from './member.protocol';

/** New Member: the create as the form built it; the password goes with it and is never journaled. */
export function createEdit(body: MemberCreate, password: string): MemberEdit {
  const fields: MemberTarget['fields'] = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    ...(body.rights !== undefined ? { accountPermission: body.rights } : {}),
    ...(body.tags !== undefined ? { tags: body.tags } : {}),
  };
  const groups = Object.fromEntries(levelsOfPatch(body));
  return {
    username: body.username ?? '',
    action: 'create',
    before: null,
    after: { fields, groups },
    requests: [{ method: 'v3.create', body }],
    ...(password ? { password } : {}),
  };
}

function beforeOf(v: MemberValues, twoFactor: boolean): MemberBefore {
  return {
    username: v.username,
    name: v.name,
    email: v.email,
    jobTitle: v.jobTitle || null,
    enabled: v.enabled,
    locked: false,
    accountPermission: v.accountPermission,
    tags: v.tags,
    twoFactor,
    lastModified: null,
    groups: {},
  };
}

/** Edit Member: the v2 profile update and the v3 PATCH the form built, with the values they replace. */
export function profileEdit(
  before: MemberValues,
  profile: NonNullable<MemberBodyV2['user']>,
  patch: MemberUpdate,
  password: string,
  twoFactor: boolean,
): MemberEdit {
  const username = before.username;
  const fields: MemberTarget['fields'] = {
    ...(profile.name !== undefined ? { name: profile.name } : {}),
    ...(profile.email !== undefined ? { email: profile.email } : {}),
    ...(profile.jobTitle !== undefined ? { jobTitle: profile.jobTitle || null } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.disableTwoFactorAuthentication ? { twoFactor: false } : {}),
  };
  const requests: JournalRequest[] = [];
  if (Object.keys(profile).length > 0) requests.push({ method: 'v2.update', body: { user: { username, ...profile } } });
  if (Object.keys(patch).length > 0 || password) requests.push({ method: 'v3.update', body: patch });
  const action = patch.enabled === false ? 'disable' : 'update';
  const after = { fields, groups: {} };
  return { username, action, before: beforeOf(before, twoFactor), after, requests, ...(password ? { password } : {}) };
}
