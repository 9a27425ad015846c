// Guest shares, invitations and the sign-in audit: endpoints public clients of the live service were seen to call
// (api-observations.md, "Other endpoints seen"); the spec has none, so the literal profile leaves every one out.
// Each needs its capability (spec 2.2 `capabilities`: GUESTS, INVITES, INVITES_CREATE, AUDIT) in the organisation,
// else 403.
import { accountAccess, type AccountAccess } from '../access';
import { capabilitiesFor } from '../catalog';
import { auditV3, inviteV3, shareV3, type AuditEventName, type Invite } from '../guests';
import { badRequest, callerOf, conflict, forbidden, json, notFound, type ApiRequest, type Reply } from '../http';
import { paging, v3Envelope, windowOf } from '../query';
import type { RouteDef } from '../router';
import { BodyReader, EMAIL, PERMISSIONS, isPlainObject } from '../validate';
import type { World } from '../world';

function has(access: AccountAccess, capability: string): boolean {
  return capabilitiesFor(access.membership.permission, access.account.withheldCapabilities).includes(capability);
}

function requireCapability(access: AccountAccess, capability: string): void {
  if (!has(access, capability)) throw forbidden(`The ${capability} capability is not yours in ${access.account.name}`);
}

/** Every organisation of the caller where they hold the capability. */
function accessesWith(req: ApiRequest, w: World, capability: string): AccountAccess[] {
  const { user } = callerOf(req);
  return w.store.accountsOf(user.id).flatMap((membership) => {
    const account = w.store.accounts.get(membership.accountId);
    return account && has({ account, membership }, capability) ? [{ account, membership }] : [];
  });
}

/**
 * GET /v3/shares names no organisation (as observed), so it answers the shares of every organisation where the
 * caller holds GUESTS, oldest first; 403 when they hold it nowhere.
 */
function listShares(req: ApiRequest, w: World): Reply {
  const accounts = new Set(accessesWith(req, w, 'GUESTS').map((a) => a.account.id));
  if (accounts.size === 0) throw forbidden('The GUESTS capability is yours in no organisation');
  const shares = w.store.access.shares.filter((s) => accounts.has(s.accountId));
  return json(v3Envelope(windowOf(shares, paging(req.query)), (s) => shareV3(w.store, s)));
}

function listInvites(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireCapability(access, 'INVITES');
  const invites = w.store.access.invites.filter((i) => i.accountId === access.account.id);
  return json(v3Envelope(windowOf(invites, paging(req.query)), inviteV3));
}

/** `parameters` is JSON text of {mask, groups: {groupId: permission}, extras}; each value is checked here. */
function readParameters(r: BodyReader, raw: string | undefined, w: World, accountId: number): void {
  if (raw === undefined) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    r.fail('parameters', 'must be JSON text');
    return;
  }
  if (!isPlainObject(parsed)) {
    r.fail('parameters', 'must be JSON text of an object');
    return;
  }
  const p = new BodyReader(parsed, 'parameters.', r.errors);
  p.oneOf('mask', PERMISSIONS, true);
  for (const [groupId, level] of p.numberMap('groups') ?? []) {
    const group = w.store.groups.get(Number(groupId));
    if (!group || group.trashed || group.accountId !== accountId) p.fail(`groups.${groupId}`, 'is not a group here');
    else if (!(PERMISSIONS as readonly number[]).includes(level)) p.fail(`groups.${groupId}`, 'must be 1, 4 or 16');
  }
  if (parsed.extras !== undefined && !isPlainObject(parsed.extras)) p.fail('extras', 'must be an object');
}

function createInvite(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireCapability(access, 'INVITES_CREATE');
  const r = new BodyReader(req.body);
  const targetName = r.string('targetName', { required: true, max: 254, pattern: EMAIL });
  // ACCEPT_DECLINE is the only type observed.
  const type = r.oneOf('type', ['ACCEPT_DECLINE'] as const, true);
  const parameters = r.string('parameters', { required: true });
  readParameters(r, parameters, w, access.account.id);
  r.done();
  if (targetName === undefined || type === undefined || parameters === undefined) throw badRequest('Invalid request');
  const address = targetName.trim().toLowerCase();
  const pending = w.store.access.invites.some(
    (i) => i.accountId === access.account.id && i.status === 'NONE' && i.targetName.toLowerCase() === address,
  );
  if (pending) throw conflict(`An invitation to ${targetName} is already pending`);
  const invite: Invite = {
    id: w.store.access.nextInviteId++,
    accountId: access.account.id,
    inviterId: access.membership.userId,
    targetName: targetName.trim(),
    type,
    parameters,
    status: 'NONE',
    dateCreated: req.now,
  };
  w.store.access.invites.push(invite);
  w.store.bump();
  return json(inviteV3(invite));
}

const AUDIT_EVENTS: readonly AuditEventName[] = ['login', 'signup'];

/** The query names its organisation (`account`), a first day (`dateStart`, YYYY-MM-DD, UTC) and the events. */
function listAudit(req: ApiRequest, w: World): Reply {
  const accountId = req.query.get('account') ?? '';
  if (!/^[1-9]\d{0,14}$/.test(accountId))
    throw badRequest('Query parameter account must name an organisation', [
      { field: 'account', message: 'is required' },
    ]);
  const account = w.store.accounts.get(Number(accountId));
  const membership = account && w.store.membership(account.id, callerOf(req).user.id);
  if (!account || !membership) throw notFound(`Account ${accountId} not found`);
  const access = { account, membership };
  requireCapability(access, 'AUDIT');
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(req.query.get('dateStart') ?? '');
  const from = day ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : Number.NaN;
  if (!Number.isFinite(from))
    throw badRequest('Query parameter dateStart must be a day, YYYY-MM-DD', [
      { field: 'dateStart', message: 'must be YYYY-MM-DD' },
    ]);
  const asked = (req.query.get('events') ?? AUDIT_EVENTS.join(',')).split(',').filter((e) => e !== '');
  const unknown = asked.filter((e) => !(AUDIT_EVENTS as readonly string[]).includes(e));
  if (unknown.length > 0)
    throw badRequest(`Unknown events: ${unknown.join(', ')}`, [
      { field: 'events', message: `must be among ${AUDIT_EVENTS.join(', ')}` },
    ]);
  const events = w.store.access.audit
    .filter((e) => e.accountId === access.account.id && e.date >= from && asked.includes(e.event))
    .sort((a, b) => b.date - a.date);
  return json(v3Envelope(windowOf(events, paging(req.query)), (e) => auditV3(w.store.users.get(e.userId), e)));
}

export const observedAccessRoutes: RouteDef[] = [
  { id: 'v3.shares.list', method: 'GET', pattern: '/v3/shares', handler: listShares },
  { id: 'v3.invites.list', method: 'GET', pattern: '/v3/accounts/:account/invites', handler: listInvites },
  { id: 'v3.invite.create', method: 'POST', pattern: '/v3/accounts/:account/invites', handler: createInvite },
  { id: 'v3.audit.list', method: 'GET', pattern: '/v3/audit', handler: listAudit },
];
