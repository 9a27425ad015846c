// Who may see and change what (spec 2.9). Things a caller may not see answer 404 rather than 403,
// so ids of other organisations' records do not leak.
import { callerOf, forbidden, idParam, notFound, param, type ApiRequest } from './http';
import { memberByUsername } from './member-query';
import type { Account, Group, Membership, User } from './model';
import type { World } from './world';

export interface AccountAccess {
  account: Account;
  membership: Membership;
}

export function accountAccess(req: ApiRequest, w: World, paramName = 'account'): AccountAccess {
  const { user } = callerOf(req);
  const id = idParam(req, paramName, 'Account');
  const account = w.store.accounts.get(id);
  const membership = account ? w.store.membership(account.id, user.id) : undefined;
  if (!account || !membership) throw notFound(`Account ${id} not found`);
  return { account, membership };
}

export function requireSuperAdmin(access: AccountAccess, action: string): void {
  if (access.membership.permission !== 16)
    throw forbidden(`Only a super administrator of ${access.account.name} may ${action}`);
}

/** Super administrators see every live group of the account; everyone else only their own. */
export function canSeeGroup(access: AccountAccess, g: Group): boolean {
  return (
    !g.trashed &&
    g.accountId === access.account.id &&
    (access.membership.permission === 16 || g.members.has(access.membership.userId))
  );
}

export function visibleGroups(w: World, access: AccountAccess): Group[] {
  return w.store.groupsOf(access.account.id).filter((g) => canSeeGroup(access, g));
}

export function groupAccess(req: ApiRequest, w: World, access: AccountAccess, paramName = 'group'): Group {
  const id = idParam(req, paramName, 'Group');
  const g = w.store.groups.get(id);
  if (!g || !canSeeGroup(access, g)) throw notFound(`Group ${id} not found`);
  return g;
}

/** The member the `username` path parameter names: 404 unless they are in the account. */
export function memberAccess(req: ApiRequest, w: World, access: AccountAccess): { m: Membership; u: User } {
  const username = param(req, 'username');
  const found = memberByUsername(w.store, access.account.id, username);
  if (!found) throw notFound(`Member ${username} not found`);
  return found;
}

export function requireGroupAdmin(access: AccountAccess, g: Group, action: string): void {
  if (access.membership.permission !== 16 && g.members.get(access.membership.userId) !== 16) {
    throw forbidden(`Only an administrator of group ${g.name} may ${action}`);
  }
}
