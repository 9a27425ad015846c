// v3 members and member tags (spec 4.2, 4.3).
import { accountAccess, memberAccess, requireSuperAdmin } from '../access';
import { badRequest, empty, json, param, type ApiRequest, type Reply } from '../http';
import { queryMembers } from '../member-query';
import { applyGroups, checkIdentity, cleanTags, createMember, removeMember } from '../member-ops';
import type { AccountPermission, GroupPermission, Membership, User } from '../model';
import { plainList } from '../profile';
import { bool, oneOf, paging, text, v3Envelope, windowOf } from '../query';
import type { RouteDef } from '../router';
import { hashPassword } from '../secrets';
import { memberV3 } from '../serialize-v3';
import { BodyReader, EMAIL, PERMISSIONS, USERNAME } from '../validate';
import type { World } from '../world';

const NEW_GROUP_PERMISSIONS = [0, 1, 4, 16] as const;
const MAX_TAG = 50;

function listMembers(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  const p = paging(req.query);
  const all = queryMembers(w.store, access.account.id, req.query);
  return json(v3Envelope(windowOf(all, p), (m) => memberV3(w, m)));
}

function getMember(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  return json(memberV3(w, memberAccess(req, w, access).m));
}

/** Reads the group-assignment fields of 4.3 into one change set; unknown group ids are field errors. */
function readGroupChanges(
  r: BodyReader,
  w: World,
  accountId: number,
  withRemove: boolean,
): Map<number, GroupPermission | 0> {
  const live = new Map(w.store.groupsOf(accountId).map((g) => [g.id, g]));
  const changes = new Map<number, GroupPermission | 0>();
  const groupId = (field: string, raw: string | number): number | undefined => {
    const id = typeof raw === 'number' ? raw : /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!live.has(id)) return r.fail(field, `unknown group ${raw}`);
    return id;
  };
  const allRights = r.oneOf('assignToAllGroupsWithRights', PERMISSIONS);
  if (allRights !== undefined) for (const id of live.keys()) changes.set(id, allRights);
  if (r.boolean('assignToAllGroupsWithAdmin') === true) for (const id of live.keys()) changes.set(id, 16);
  for (const field of ['assignGroups', 'assignGroupsRights']) {
    for (const [key, value] of r.numberMap(field) ?? []) {
      const id = groupId(`${field}.${key}`, key);
      if (id === undefined) continue;
      if (!(PERMISSIONS as readonly number[]).includes(value)) r.fail(`${field}.${key}`, 'must be 1, 4 or 16');
      else changes.set(id, value as GroupPermission);
    }
  }
  for (const raw of r.numberArray('assignGroupsAdmin') ?? []) {
    const id = groupId('assignGroupsAdmin', raw);
    if (id !== undefined) changes.set(id, 16);
  }
  if (withRemove) {
    for (const raw of r.numberArray('removeGroups') ?? []) {
      const id = groupId('removeGroups', raw);
      if (id !== undefined) changes.set(id, 0);
    }
  }
  return changes;
}

function readTags(r: BodyReader): string[] | undefined {
  const tags = r.stringArray('tags', 100);
  if (tags?.some((t) => t.length > MAX_TAG)) return r.fail('tags', `each tag must be at most ${MAX_TAG} characters`);
  return tags && cleanTags(tags);
}

function createMemberV3(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireSuperAdmin(access, 'add members');
  const r = new BodyReader(req.body);
  const name = r.string('name', { required: true, max: 200 });
  const username = r.string('username', {
    required: true,
    pattern: USERNAME,
    patternMessage: 'must be 2-64 letters, digits, dots, dashes, underscores or @',
  });
  const email = r.string('email', {
    required: true,
    max: 254,
    pattern: EMAIL,
    patternMessage: 'must be an e-mail address',
  });
  const telephone = r.string('phone', { max: 50 });
  const password = r.string('password', { nonEmpty: true, max: 200 });
  const realName = r.string('realName', { max: 200 });
  const enabled = r.boolean('enabled') ?? true;
  const tags = readTags(r) ?? [];
  const rights = r.oneOf('rights', PERMISSIONS) ?? r.oneOf('permission', PERMISSIONS);
  const admin = r.boolean('admin');
  const newGroups = r.oneOf('assignToNewGroupsPermission', NEW_GROUP_PERMISSIONS) ?? 0;
  const groups = readGroupChanges(r, w, access.account.id, false);
  r.done();
  checkIdentity(w, username, email);
  if (username === undefined || name === undefined || email === undefined)
    throw badRequest('username, name and email are required');
  const permission: AccountPermission = admin ? 16 : (rights ?? 1);
  const m = createMember(
    w,
    access.account.id,
    {
      username,
      name,
      email,
      password,
      realName,
      telephone,
      enabled,
      permission,
      tags,
      assignToNewGroupsPermission: newGroups,
      activationType: 'now',
    },
    groups,
    req.now,
  );
  return json(memberV3(w, m));
}

function patchMember(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireSuperAdmin(access, 'change members');
  const { m, u } = memberAccess(req, w, access);
  const r = new BodyReader(req.body);
  const tags = readTags(r);
  const password = r.string('password', { nonEmpty: true, max: 200 });
  const permission = r.oneOf('permission', PERMISSIONS) ?? r.oneOf('rights', PERMISSIONS);
  const enabled = r.boolean('enabled');
  const lock = r.boolean('lock');
  const disable2fa = r.boolean('disableTwoFactorAuthentication');
  r.boolean('assignmentNotification');
  const activation = r.object('activation');
  const activationDate = activation?.number('date', { min: 0 });
  activation?.string('message', { max: 5000 });
  const newRights = r.oneOf('assignToNewGroupsRights', NEW_GROUP_PERMISSIONS);
  const newAdmin = r.boolean('assignToNewGroupsAdmin');
  const groups = readGroupChanges(r, w, access.account.id, true);
  r.done();

  // On a portal whose group changes leave lastModified alone, a PATCH of groups only does not move it.
  const memberFields = [password, enabled, lock, disable2fa, tags, permission, activationDate, newRights, newAdmin];
  const groupsOnly = memberFields.every((v) => v === undefined);
  const userChanges: Partial<User> = groupsOnly && w.groupChangesKeepLastModified ? {} : { lastModified: req.now };
  if (password !== undefined) userChanges.passwordHash = hashPassword(u.id, password);
  if (enabled !== undefined) userChanges.enabled = enabled;
  if (lock !== undefined) Object.assign(userChanges, { locked: lock, pendingUnlock: false });
  if (disable2fa === true) Object.assign(userChanges, { twoFactorCode: null, twoFactorMode: null });
  w.store.updateUser(u, userChanges);

  const memberChanges: Partial<Membership> = {};
  if (tags !== undefined) memberChanges.tags = tags;
  if (permission !== undefined) memberChanges.permission = permission;
  // "Not admin" clears only an administrator default, and only when no new rights come with it: a PATCH
  // that moves from administrator to standard sends both, and the rights must win.
  if (newAdmin === false && m.assignToNewGroupsPermission === 16 && newRights === undefined)
    memberChanges.assignToNewGroupsPermission = 0;
  if (newRights !== undefined) memberChanges.assignToNewGroupsPermission = newRights;
  if (newAdmin === true) memberChanges.assignToNewGroupsPermission = 16;
  if (activationDate !== undefined) memberChanges.activationType = activationDate;
  w.store.updateMembership(m, memberChanges);
  applyGroups(w, u.id, groups);
  return json(memberV3(w, m));
}

function deleteMember(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireSuperAdmin(access, 'remove members');
  removeMember(w, access.account.id, memberAccess(req, w, access).u.id);
  return empty();
}

function tagCounts(w: World, accountId: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of w.store.membersOf(accountId)) for (const t of m.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function memberTags(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  const counts = tagCounts(w, access.account.id);
  if (!req.query.has('summary')) {
    return json(
      plainList(
        req,
        w,
        [...counts.keys()].sort((a, b) => collator.compare(a, b) || a.localeCompare(b)),
      ),
    );
  }
  const order = oneOf(req.query, 'orderBy', ['name', 'members'] as const, 'name');
  const ascending = bool(req.query, 'ascending', true);
  const name = text(req.query, 'name')?.toLowerCase();
  const prefix = text(req.query, 'startsWith')?.toLowerCase();
  const rows = [...counts]
    .filter(
      ([t]) =>
        (name === undefined || t.toLowerCase().includes(name)) &&
        (prefix === undefined || t.toLowerCase().startsWith(prefix)),
    )
    .map(([tag, members]) => ({ name: tag, members }))
    .sort(
      (a, b) =>
        (order === 'members' ? a.members - b.members : 0) ||
        collator.compare(a.name, b.name) ||
        a.name.localeCompare(b.name),
    );
  if (!ascending) rows.reverse();
  return json(plainList(req, w, rows));
}

function membersWithTags(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  const wanted = new Set(
    param(req, 'tags')
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== ''),
  );
  if (wanted.size === 0)
    throw badRequest('Give at least one tag', [{ field: 'tags', message: 'must name at least one tag' }]);
  const p = paging(req.query);
  const all = queryMembers(w.store, access.account.id, req.query, {
    key: `tags=${[...wanted].join('\u0000')}`,
    test: (m) => m.tags.some((t) => wanted.has(t)),
  });
  return json(v3Envelope(windowOf(all, p), (m) => memberV3(w, m)));
}

export const v3MemberRoutes: RouteDef[] = [
  { id: 'v3.members.list', method: 'GET', pattern: '/v3/accounts/:account/members', handler: listMembers },
  { id: 'v3.member.create', method: 'POST', pattern: '/v3/accounts/:account/members', handler: createMemberV3 },
  { id: 'v3.member.get', method: 'GET', pattern: '/v3/accounts/:account/members/:username', handler: getMember },
  { id: 'v3.member.update', method: 'PATCH', pattern: '/v3/accounts/:account/members/:username', handler: patchMember },
  {
    id: 'v3.member.delete',
    method: 'DELETE',
    pattern: '/v3/accounts/:account/members/:username',
    handler: deleteMember,
  },
  { id: 'v3.member-tags.list', method: 'GET', pattern: '/v3/accounts/:account/member-tags', handler: memberTags },
  {
    id: 'v3.member-tags.members',
    method: 'GET',
    pattern: '/v3/accounts/:account/member-tags/:tags',
    handler: membersWithTags,
  },
];
