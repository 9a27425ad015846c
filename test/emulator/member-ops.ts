// Member changes shared by v2 and v3: creating a user with their membership, group assignment,
// and removal (spec 3: leaving the last organisation deletes the user).
import { badRequest, conflict, type FieldError } from './http';
import type { AccountPermission, GroupPermission, Membership, User } from './model';
import { hashPassword } from './secrets';
import { isReserved } from './validate';
import type { World } from './world';

export interface NewMember {
  username: string;
  name: string;
  email: string;
  password?: string;
  realName?: string;
  telephone?: string | null;
  address?: string | null;
  organisation?: string | null;
  jobTitle?: string | null;
  enabled: boolean;
  permission: AccountPermission;
  tags: string[];
  assignToNewGroupsPermission: 0 | GroupPermission;
  activationType: 'now' | number;
}

/** 400 for a reserved username, 409 for a taken username or e-mail. */
export function checkIdentity(w: World, username: string | undefined, email: string | undefined, self?: User): void {
  if (username !== undefined && isReserved(username))
    throw badRequest(`The username ${username} is reserved`, [{ field: 'username', message: 'is reserved' }]);
  const errors: FieldError[] = [];
  const byName = username === undefined ? undefined : w.store.userByUsername(username);
  if (byName && byName !== self) errors.push({ field: 'username', message: 'is already taken' });
  const byEmail = email === undefined ? undefined : w.store.userByEmail(email);
  if (byEmail && byEmail !== self) errors.push({ field: 'email', message: 'is already taken' });
  if (errors.length > 0) throw conflict(`${errors.map((e) => e.field).join(' and ')} already taken`, errors);
}

export function createMember(
  w: World,
  accountId: number,
  nm: NewMember,
  groups: Map<number, GroupPermission | 0>,
  now: number,
): Membership {
  const id = w.store.newId('user');
  const user: User = {
    id,
    username: nm.username,
    passwordHash: nm.password === undefined ? null : hashPassword(id, nm.password),
    name: nm.name,
    realName: nm.realName ?? null,
    email: nm.email,
    jobTitle: nm.jobTitle ?? null,
    organisation: nm.organisation ?? null,
    address: nm.address ?? null,
    telephone: nm.telephone ?? null,
    other: null,
    logo: false,
    timeZone: null,
    timeZoneOffset: 0,
    locale: null,
    verifiedEmail: false,
    dateFormat: null,
    twentyFourHourTimeFormat: true,
    twoFactorCode: null,
    twoFactorMode: null,
    enabled: nm.enabled,
    locked: false,
    pendingUnlock: false,
    dateCreated: now,
    dateActivated: nm.activationType === 'now' ? now : null,
    lastModified: now,
    lastLogin: null,
    lastActive: null,
  };
  w.store.addUser(user);
  const m: Membership = {
    accountId,
    userId: id,
    permission: nm.permission,
    assignToNewGroupsPermission: nm.assignToNewGroupsPermission,
    tags: nm.tags,
    dateCreated: now,
    activationType: nm.activationType,
  };
  w.store.addMembership(m);
  applyGroups(w, id, groups);
  return m;
}

/** Permission 0 removes the user from that group. */
export function applyGroups(w: World, userId: number, groups: Map<number, GroupPermission | 0>): void {
  for (const [groupId, permission] of groups) {
    const g = w.store.groups.get(groupId);
    if (!g) continue;
    if (permission === 0) w.store.removeGroupMember(g, userId);
    else w.store.setGroupMember(g, userId, permission);
  }
}

/**
 * A change to a user's group assignments is a change to the member: their lastModified moves (unless the emulator
 * plays a portal where it does not).
 */
export function touchUsers(w: World, userIds: Iterable<number>, now: number): void {
  if (w.groupChangesKeepLastModified) return;
  for (const id of userIds) {
    const u = w.store.users.get(id);
    if (u) w.store.updateUser(u, { lastModified: now });
  }
}

export function removeMember(w: World, accountId: number, userId: number): void {
  const lastOrganisation = w.store.removeMembership(accountId, userId);
  if (!lastOrganisation) return;
  // Deleting the user deletes their applications; their tokens die with them.
  w.store.deleteUser(userId);
  w.tokens.killUser(userId);
}

/** Tags are trimmed, de-duplicated and kept in the order given. */
export function cleanTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter((t) => t !== ''))];
}
