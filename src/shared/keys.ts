/**
 * Every key the extension gives a row, a list or a form, built from ids only, so any handle can name a row without
 * a request. A row's key is its id in VS Code (which keeps expansion state across refreshes) and the cache key of
 * its children. Every id taken from the portal is encoded, so server text ("a/m:x", "..") cannot forge or escape a
 * level. Pure.
 */
import type { AccountRef, GroupRef, MemberRef } from './refs';
import type { MemberQuery } from './members';

declare const tree: unique symbol;
declare const form: unique symbol;
/** A row's id and its children's cache key: "explorer/<portal>/a:1/g:2/f:3". */
export type TreeKey = string & { readonly [tree]: true };
/** One open form per key: a second command for the same thing reveals its panel. */
export type FormKey = string & { readonly [form]: true };
export type ViewName = 'explorer' | 'members' | 'applications';

type AccountIds = Pick<AccountRef, 'portalId' | 'accountId'>;
type GroupIds = { readonly account: AccountIds; readonly groupId: GroupRef['groupId'] };
type MemberIds = { readonly account: AccountIds; readonly username: MemberRef['username'] };

const seg = (id: string | number): string => encodeURIComponent(String(id));
const join = (...parts: string[]): TreeKey => parts.join('/') as TreeKey;

export function portalKey(view: ViewName, portalId: string): TreeKey {
  return join(view, seg(portalId));
}

export function accountKey(a: AccountIds): TreeKey {
  return join(portalKey('explorer', a.portalId), `a:${a.accountId}`);
}

export function groupKey(g: GroupIds): TreeKey {
  return join(accountKey(g.account), `g:${g.groupId}`);
}

/** Folders nest, so a file's key grows from its parent row's key. */
export function fileKey(parent: TreeKey, fileId: number): TreeKey {
  return join(parent, `f:${fileId}`);
}

export function applicationKey(portalId: string, clientId: string): TreeKey {
  return join(portalKey('applications', portalId), `app:${seg(clientId)}`);
}

/** Every Members list of an account, whatever its query: what a change to one member walks. */
export function memberListsKey(a: AccountIds): TreeKey {
  return join('members', seg(a.portalId), `a:${a.accountId}`);
}

export function memberListKey(a: AccountIds, q: MemberQuery): TreeKey {
  return join(memberListsKey(a), `q:${seg(queryKey(q))}`);
}

export function memberKey(list: TreeKey, username: string): TreeKey {
  return join(list, `m:${seg(username)}`);
}

export function moreKey(list: TreeKey): TreeKey {
  return join(list, '#more');
}

export function errorKey(list: TreeKey): TreeKey {
  return join(list, '#error');
}

export function emptyKey(list: TreeKey): TreeKey {
  return join(list, '#empty');
}

/** A row above a list's rows that says something about all of them (e.g. an order the portal ignored). */
export function noticeKey(list: TreeKey): TreeKey {
  return join(list, '#notice');
}

/** A pending invitation shown in a Members list (`id`: the invitation's row key). */
export function invitedKey(list: TreeKey, id: string): TreeKey {
  return join(list, `i:${seg(id)}`);
}

/** The line above a Members list that says what the portal refused of its invitations and sign-ins. */
export function outsidersNoteKey(list: TreeKey): TreeKey {
  return join(list, '#outsiders');
}

export function rangeKey(list: TreeKey, start: number, size: number): TreeKey {
  return join(list, `#range:${start}:${size}`);
}

/** True when `key` is `prefix` or lies below it. */
export function isWithin(key: string, prefix: TreeKey): boolean {
  return key === prefix || key.startsWith(`${prefix}/`);
}

/** The same query always gives the same key, whatever the order its tags were chosen in. */
function activityKey(q: MemberQuery): unknown {
  const a = q.activity;
  if (!a) return null;
  return [
    a.inactiveDays ?? null,
    a.never === true,
    a.disabled === true,
    a.locked === true,
    a.pending === true,
    a.twoFactorOff === true,
    a.group?.id ?? null,
    a.notStarted === true,
    a.neverSignedIn === true,
    a.invited === true,
  ];
}

function queryKey(q: MemberQuery): string {
  return JSON.stringify([
    q.search ?? '',
    q.startsWith === true,
    [...(q.tags ?? [])].sort(),
    q.orderBy ?? 'name',
    q.ascending !== false,
    activityKey(q),
  ]);
}

const formKey = (...parts: Array<string | number>): FormKey => parts.map(seg).join(':') as FormKey;

export const formKeys = {
  assignments: (m: MemberIds): FormKey => formKey('assignments', m.account.portalId, m.account.accountId, m.username),
  member: (m: MemberIds): FormKey => formKey('member', m.account.portalId, m.account.accountId, m.username),
  /** Every "New Member" opens its own panel: `n` counts them. */
  newMember: (a: AccountIds, n: number): FormKey => formKey('member', a.portalId, a.accountId, 'new', n),
  group: (g: GroupIds): FormKey => formKey('group', g.account.portalId, g.account.accountId, g.groupId),
  newGroup: (a: AccountIds): FormKey => formKey('group', a.portalId, a.accountId, 'new'),
  overview: (a: AccountIds): FormKey => formKey('overview', a.portalId, a.accountId),
  record: (f: { readonly group: GroupIds; readonly fileId: number }): FormKey =>
    formKey('record', f.group.account.portalId, f.group.account.accountId, f.group.groupId, f.fileId),
  application: (portalId: string, clientId: string): FormKey => formKey('application', portalId, clientId),
  newApplication: (portalId: string, n: number): FormKey => formKey('application', portalId, 'new', n),
};
