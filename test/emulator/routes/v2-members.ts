// v2 members (spec 4.4). The detail, create and update answers carry `groups`: group name -> permission.
import { accountAccess, memberAccess, requireSuperAdmin } from '../access';
import { badRequest, empty, json, type ApiRequest, type Reply } from '../http';
import { queryMembers } from '../member-query';
import { applyGroups, checkIdentity, createMember, removeMember } from '../member-ops';
import type { GroupPermission, Membership, User } from '../model';
import { paging, v2MemberEnvelope, windowOf } from '../query';
import type { RouteDef } from '../router';
import { hashPassword } from '../secrets';
import { memberV2 } from '../serialize-v2';
import { BodyReader, EMAIL, PERMISSIONS, USERNAME } from '../validate';
import type { World } from '../world';

interface V2MemberBody {
  user: Partial<
    Pick<User, 'username' | 'name' | 'email' | 'address' | 'telephone' | 'organisation' | 'jobTitle' | 'enabled'>
  > & { password?: string };
  accountPermission?: 1 | 4 | 16;
  /** Group id -> permission; 0 removes (update only). */
  groups?: Map<number, GroupPermission | 0>;
  activationType?: 'now' | number;
}

function readBody(req: ApiRequest, w: World, accountId: number, creating: boolean): V2MemberBody {
  const r = new BodyReader(req.body);
  const u = r.object('user');
  if (!u && creating) r.fail('user', 'is required');
  const user: V2MemberBody['user'] = {};
  if (u) {
    const username = u.string('username', {
      required: creating,
      pattern: USERNAME,
      patternMessage: 'must be 2-64 letters, digits, dots, dashes, underscores or @',
    });
    const name = u.string('name', { required: creating, max: 200 });
    const email = u.string('email', {
      required: creating,
      max: 254,
      pattern: EMAIL,
      patternMessage: 'must be an e-mail address',
    });
    const password = u.string('password', { nonEmpty: true, max: 200 });
    const enabled = u.boolean('enabled');
    Object.assign(user, { username, name: name?.trim(), email, password, enabled });
    for (const field of ['address', 'telephone', 'organisation', 'jobTitle'] as const) {
      const v = u.nullableString(field, 500);
      if (v !== undefined) user[field] = v;
    }
    for (const k of Object.keys(user) as Array<keyof typeof user>) if (user[k] === undefined) delete user[k];
  }
  const accountPermission = r.oneOf('accountPermission', PERMISSIONS);
  let groups: Map<number, GroupPermission | 0> | undefined;
  const byName = r.numberMap('groups');
  if (byName) {
    groups = new Map();
    for (const [name, permission] of byName) {
      const g = w.store.groupsOf(accountId).find((x) => x.name.toLowerCase() === name.toLowerCase());
      const allowed: readonly number[] = creating ? PERMISSIONS : [0, ...PERMISSIONS];
      if (!g) r.fail(`groups.${name}`, 'unknown group');
      else if (!allowed.includes(permission)) r.fail(`groups.${name}`, `must be ${allowed.join(', ')}`);
      else groups.set(g.id, permission as GroupPermission | 0);
    }
  }
  const type = r.oneOf('activationType', ['now', 'custom'] as const);
  const date = r.number('activationDate', { min: 0 });
  r.string('activationMessage', { max: 5000 });
  if (type === 'custom' && date === undefined) r.fail('activationDate', 'is required when activationType is custom');
  if (type === 'custom' && date !== undefined && date <= req.now) r.fail('activationDate', 'must be in the future');
  r.done();
  return { user, accountPermission, groups, activationType: type === 'custom' ? date : type };
}

function list(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  const p = paging(req.query);
  // v2 takes only page and size; the order is the v3 default (by name).
  const all = queryMembers(w.store, access.account.id, new URLSearchParams());
  return json(v2MemberEnvelope(windowOf(all, p), (m) => memberV2(w, m, false)));
}

function get(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  return json(memberV2(w, memberAccess(req, w, access).m, true));
}

function create(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireSuperAdmin(access, 'add members');
  const body = readBody(req, w, access.account.id, true);
  const { username, name, email } = body.user;
  checkIdentity(w, username, email);
  if (username === undefined || name === undefined || email === undefined)
    throw badRequest('user.username, user.name and user.email are required');
  const m = createMember(
    w,
    access.account.id,
    {
      ...body.user,
      username,
      name,
      email,
      enabled: body.user.enabled ?? true,
      permission: body.accountPermission ?? 1,
      tags: [],
      assignToNewGroupsPermission: 0,
      activationType: body.activationType ?? 'now',
    },
    body.groups ?? new Map(),
    req.now,
  );
  return json(memberV2(w, m, true));
}

/** `groups`, when sent, is the member's whole group set: groups left out are left. */
function update(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireSuperAdmin(access, 'change members');
  const { m, u } = memberAccess(req, w, access);
  const body = readBody(req, w, access.account.id, false);
  checkIdentity(w, body.user.username, body.user.email, u);
  const { password, ...profile } = body.user;
  w.store.updateUser(u, {
    ...profile,
    ...(password !== undefined ? { passwordHash: hashPassword(u.id, password) } : {}),
    lastModified: req.now,
  });
  const changes: Partial<Membership> = {};
  if (body.accountPermission !== undefined) changes.permission = body.accountPermission;
  if (body.activationType !== undefined) changes.activationType = body.activationType;
  w.store.updateMembership(m, changes);
  if (body.groups) {
    const whole = new Map<number, GroupPermission | 0>(
      w.store
        .groupsOf(access.account.id)
        .filter((g) => g.members.has(u.id))
        .map((g) => [g.id, 0]),
    );
    for (const [id, p] of body.groups) whole.set(id, p);
    applyGroups(w, u.id, whole);
  }
  return json(memberV2(w, m, true));
}

function remove(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireSuperAdmin(access, 'remove members');
  removeMember(w, access.account.id, memberAccess(req, w, access).u.id);
  return empty();
}

export const v2MemberRoutes: RouteDef[] = [
  { id: 'v2.members.list', method: 'GET', pattern: '/v2/accounts/:account/members', handler: list },
  { id: 'v2.member.get', method: 'GET', pattern: '/v2/accounts/:account/members/:username', handler: get },
  { id: 'v2.member.create', method: 'POST', pattern: '/v2/accounts/:account/members', handler: create },
  { id: 'v2.member.update', method: 'POST', pattern: '/v2/accounts/:account/members/:username', handler: update },
  { id: 'v2.member.delete', method: 'DELETE', pattern: '/v2/accounts/:account/members/:username', handler: remove },
];
