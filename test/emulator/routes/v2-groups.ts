// v2 groups (spec 4.4): list, get, create, update, delete to trash, duplicate.
import { accountAccess, groupAccess, requireGroupAdmin, visibleGroups, type AccountAccess } from '../access';
import { badRequest, conflict, empty, forbidden, json, type ApiRequest, type Reply } from '../http';
import { GROUP_COMPONENTS, type FileRecord, type Group, type GroupBranding, type GroupSettings } from '../model';
import { plainList } from '../profile';
import type { RouteDef } from '../router';
import { groupV2 } from '../serialize-v2';
import { BodyReader, isReserved } from '../validate';
import type { World } from '../world';
import { makeGroupDefaults } from '../group-defaults';
import { touchUsers } from '../member-ops';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const BOOLEAN_SETTINGS = ['disableChat', 'disableWidgets', 'disableComments', 'disableAccordionWidgets'] as const;
const BRANDING_STRINGS = ['headerColor', 'textColor', 'alignment'] as const;
const BRANDING_BOOLEANS = [
  'logo',
  'background',
  'hideBackgroundGradient',
  'hideLogoBackground',
  'hideGroupName',
] as const;
const BRANDING_NUMBERS = ['backgroundPositionX', 'backgroundPositionY'] as const;

/** Group names end up in paths and v2 member maps: no slashes, no control characters. */
function plainName(name: string): boolean {
  return ![...name].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 0x20);
}

interface GroupBody {
  name?: string;
  settings: Partial<GroupSettings>;
  branding: Partial<GroupBranding>;
}

function readGroupBody(req: ApiRequest, creating: boolean): GroupBody {
  const r = new BodyReader(req.body);
  const name = r.string('name', { required: creating, nonEmpty: true, max: 100 });
  if (name !== undefined && !plainName(name)) r.fail('name', 'must not contain slashes or control characters');
  const settings: Partial<GroupSettings> = {};
  const friendlyName = r.string('friendlyName', { nonEmpty: true, max: 200 });
  if (friendlyName !== undefined) settings.friendlyName = friendlyName.trim();
  for (const field of BOOLEAN_SETTINGS) {
    const v = r.boolean(field);
    if (v !== undefined) settings[field] = v;
  }
  const components = r.stringArray('components', 20);
  const unknown = components?.filter((c) => !(GROUP_COMPONENTS as readonly string[]).includes(c)) ?? [];
  if (unknown.length > 0)
    r.fail('components', `unknown components: ${unknown.join(', ')}; known: ${GROUP_COMPONENTS.join(', ')}`);
  else if (components) settings.components = [...new Set(components)];
  const branding: Partial<GroupBranding> = {};
  const b = r.object('branding');
  if (b) {
    for (const field of BRANDING_STRINGS) {
      const v = b.string(field, { max: 40 });
      if (v !== undefined) branding[field] = v;
    }
    for (const field of BRANDING_BOOLEANS) {
      const v = b.boolean(field);
      if (v !== undefined) branding[field] = v;
    }
    for (const field of BRANDING_NUMBERS) {
      const v = b.number(field, { integer: false });
      if (v !== undefined) branding[field] = v;
    }
  }
  r.done();
  return { name: name?.trim(), settings, branding };
}

/** Names are unique per organisation, case-insensitively, trash included; some are reserved. */
function checkName(w: World, access: AccountAccess, name: string, self?: Group): void {
  if (isReserved(name))
    throw badRequest(`The group name ${name} is reserved`, [{ field: 'name', message: 'is reserved' }]);
  const holder = w.store.groupByName(access.account.id, name);
  if (holder && holder !== self)
    throw conflict(`A group named ${name} already exists`, [{ field: 'name', message: 'is already taken' }]);
}

function list(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  const groups = visibleGroups(w, access).sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
  return json(plainList(req, w, groups).map((g) => groupV2(w, g)));
}

function get(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  return json(groupV2(w, groupAccess(req, w, access)));
}

function create(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  if (access.membership.permission === 1)
    throw forbidden('Only group creators and super administrators may create groups');
  const body = readGroupBody(req, true);
  const name = body.name ?? '';
  checkName(w, access, name);
  const defaults = makeGroupDefaults(name);
  const g: Group = {
    ...defaults,
    ...body.settings,
    branding: { ...defaults.branding, ...body.branding },
    id: w.store.newId('group'),
    accountId: access.account.id,
    name,
    creatorId: access.membership.userId,
    dateCreated: req.now,
    lastModified: req.now,
    trashed: false,
    members: new Map([[access.membership.userId, 16]]),
  };
  // Members set to join every new group do so now.
  for (const m of w.store.membersOf(access.account.id)) {
    if (m.assignToNewGroupsPermission !== 0 && !g.members.has(m.userId))
      g.members.set(m.userId, m.assignToNewGroupsPermission);
  }
  w.store.addGroup(g);
  touchUsers(w, g.members.keys(), req.now);
  return json(groupV2(w, g, true));
}

function update(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  const g = groupAccess(req, w, access);
  requireGroupAdmin(access, g, 'change it');
  const body = readGroupBody(req, false);
  if (body.name !== undefined) checkName(w, access, body.name, g);
  w.store.updateGroup(g, {
    ...body.settings,
    ...(body.name !== undefined ? { name: body.name } : {}),
    branding: { ...g.branding, ...body.branding },
    lastModified: req.now,
  });
  return json(groupV2(w, g));
}

/** Trash keeps the record (and its name) but hides it from every list and get. */
function remove(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  const g = groupAccess(req, w, access);
  requireGroupAdmin(access, g, 'delete it');
  w.store.updateGroup(g, { trashed: true, lastModified: req.now });
  return empty();
}

/** Copies settings, members and the file tree, synchronously; the 202 only mirrors the spec. */
function duplicate(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  const g = groupAccess(req, w, access);
  requireGroupAdmin(access, g, 'duplicate it');
  const raw = req.query.get('duplicateName');
  if (raw === null || raw.trim() === '')
    throw badRequest('duplicateName is required', [{ field: 'duplicateName', message: 'is required' }]);
  const name = raw.trim();
  if (name.length > 100 || !plainName(name))
    throw badRequest('duplicateName is not a valid group name', [
      { field: 'duplicateName', message: 'must be at most 100 characters, without slashes or control characters' },
    ]);
  checkName(w, access, name);
  const copy: Group = {
    ...g,
    branding: { ...g.branding },
    components: [...g.components],
    id: w.store.newId('group'),
    name,
    friendlyName: `${g.friendlyName} (copy)`,
    creatorId: access.membership.userId,
    dateCreated: req.now,
    lastModified: req.now,
    trashed: false,
    members: new Map(g.members),
  };
  const idMap = new Map<number, number>([[0, 0]]);
  const files = w.store.filesOf(g.id);
  for (const f of files) idMap.set(f.id, w.store.newId('file'));
  const copies = files.map((f): FileRecord => ({
    ...f,
    id: idMap.get(f.id) ?? 0,
    groupId: copy.id,
    parentId: idMap.get(f.parentId) ?? 0,
  }));
  w.store.addGroup(copy);
  touchUsers(w, copy.members.keys(), req.now);
  w.store.addFiles(copies);
  return empty(202);
}

export const v2GroupRoutes: RouteDef[] = [
  { id: 'v2.groups.list', method: 'GET', pattern: '/v2/accounts/:account/groups', handler: list },
  { id: 'v2.group.get', method: 'GET', pattern: '/v2/accounts/:account/groups/:group', handler: get },
  { id: 'v2.group.create', method: 'POST', pattern: '/v2/accounts/:account/groups', handler: create },
  { id: 'v2.group.update', method: 'POST', pattern: '/v2/accounts/:account/groups/:group', handler: update },
  { id: 'v2.group.delete', method: 'DELETE', pattern: '/v2/accounts/:account/groups/:group', handler: remove },
  {
    id: 'v2.group.duplicate',
    method: 'GET',
    pattern: '/v2/accounts/:account/groups/:group/duplicate',
    handler: duplicate,
  },
];
