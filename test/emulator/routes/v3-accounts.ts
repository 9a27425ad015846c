// v3 userinfo, accounts, subscription and components (spec 4.2).
import { accountAccess, requireSuperAdmin } from '../access';
import { badRequest, callerOf, conflict, json, type ApiRequest, type Reply } from '../http';
import type { Account } from '../model';
import { plainList } from '../profile';
import { bool } from '../query';
import type { RouteDef } from '../router';
import { accountV3, componentsOf, subscriptionV3, userinfoV3 } from '../serialize-v3';
import { BodyReader, LOCALE, SLUG, isReserved } from '../validate';
import type { World } from '../world';

function userinfo(req: ApiRequest, w: World): Reply {
  return json(userinfoV3(w, callerOf(req).user));
}

export function accountsOfCaller(req: ApiRequest, w: World): Account[] {
  return w.store.accountsOf(callerOf(req).user.id).flatMap((m) => {
    const a = w.store.accounts.get(m.accountId);
    return a ? [a] : [];
  });
}

function listAccounts(req: ApiRequest, w: World): Reply {
  const enabledOnly = bool(req.query, 'enabledOnly', false);
  const accounts = accountsOfCaller(req, w).filter((a) => !enabledOnly || a.enabled);
  return json(plainList(req, w, accounts).map(accountV3));
}

function getAccount(req: ApiRequest, w: World): Reply {
  return json(accountV3(accountAccess(req, w).account));
}

function patchAccount(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireSuperAdmin(access, 'change the organisation');
  const r = new BodyReader(req.body);
  const friendlyName = r.string('friendlyName', { nonEmpty: true, max: 200 });
  const name = r.string('name', { pattern: SLUG, patternMessage: 'must be 2-63 lower-case letters, digits or dashes' });
  const locale =
    r.has('locale') && req.body.locale === null
      ? null
      : r.string('locale', { pattern: LOCALE, patternMessage: 'must be a locale such as en or en_GB' });
  r.done();
  if (name !== undefined && isReserved(name))
    throw badRequest(`The name ${name} is reserved`, [{ field: 'name', message: 'is reserved' }]);
  const holder = name === undefined ? undefined : w.store.accountByName(name);
  if (holder && holder !== access.account)
    throw conflict(`The name ${name} is already taken`, [{ field: 'name', message: 'is already taken' }]);
  const changes: Partial<Account> = { lastModified: req.now };
  if (friendlyName !== undefined) changes.friendlyName = friendlyName.trim();
  if (name !== undefined) changes.name = name;
  if (locale !== undefined) changes.locale = locale;
  w.store.updateAccount(access.account, changes);
  return json(accountV3(access.account));
}

function subscription(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  requireSuperAdmin(access, 'see the subscription');
  return json(subscriptionV3(w, access.account));
}

function components(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  return json(plainList(req, w, componentsOf(access.account)));
}

export const v3AccountRoutes: RouteDef[] = [
  { id: 'v3.userinfo', method: 'GET', pattern: '/v3/userinfo', handler: userinfo },
  { id: 'v3.accounts.list', method: 'GET', pattern: '/v3/accounts', handler: listAccounts },
  { id: 'v3.account.get', method: 'GET', pattern: '/v3/accounts/:account', handler: getAccount },
  { id: 'v3.account.update', method: 'PATCH', pattern: '/v3/accounts/:account', handler: patchAccount },
  { id: 'v3.subscription.get', method: 'GET', pattern: '/v3/accounts/:account/subscription', handler: subscription },
  { id: 'v3.components.list', method: 'GET', pattern: '/v3/accounts/:account/components', handler: components },
];
