/**
 * What the Members view keeps for the next session, in the workspace's state: the organisation it showed (by ids,
 * with its label) and its search, tags, order and activity filter (with its group). Read back with every field checked: what is not
 * as expected is dropped, never trusted. No secret is among it.
 */
import type * as vscode from 'vscode';
import type { ActivityFilter, GroupScope, MemberQuery } from '../../../shared/members';
import type { AccountRef } from '../../../shared/refs';

const KEY = 'portal.members.shown';
const ORDERS = ['name', 'username', 'email', 'dateCreated', 'lastActive'] as const;

export interface KeptMembersView {
  readonly account: AccountRef;
  readonly query: MemberQuery;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max = 500): string | undefined => (typeof v === 'string' && v.length <= max ? v : undefined);
const flag = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const days = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 100_000 ? v : undefined;

/** Leaves out the fields that are absent, so a kept query compares equal to the one the user made. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A group scope is kept only whole: a group without its id, name or label is no scope. */
function groupOf(v: unknown): GroupScope | undefined {
  if (!isObject(v)) return undefined;
  const id = typeof v.id === 'number' && Number.isSafeInteger(v.id) && v.id > 0 ? v.id : undefined;
  const name = text(v.name, 200);
  const label = text(v.label);
  return id !== undefined && name && label ? { id, name, label } : undefined;
}

function activityOf(v: unknown): ActivityFilter | undefined {
  if (!isObject(v)) return undefined;
  const f = defined({
    inactiveDays: days(v.inactiveDays),
    never: flag(v.never),
    disabled: flag(v.disabled),
    locked: flag(v.locked),
    pending: flag(v.pending),
    twoFactorOff: flag(v.twoFactorOff),
    notStarted: flag(v.notStarted),
    neverSignedIn: flag(v.neverSignedIn),
    invited: flag(v.invited),
    group: groupOf(v.group),
  });
  return Object.keys(f).length > 0 ? f : undefined;
}

export function queryOf(v: unknown): MemberQuery {
  if (!isObject(v)) return {};
  const tags = Array.isArray(v.tags) ? v.tags.filter((t): t is string => typeof t === 'string').slice(0, 100) : [];
  return defined({
    search: text(v.search),
    startsWith: flag(v.startsWith),
    tags: tags.length > 0 ? tags : undefined,
    orderBy: ORDERS.find((o) => o === v.orderBy),
    ascending: flag(v.ascending),
    activity: activityOf(v.activity),
  });
}

export function loadMembersView(memento: vscode.Memento): KeptMembersView | undefined {
  const raw = memento.get<unknown>(KEY);
  if (!isObject(raw) || !isObject(raw.account)) return undefined;
  const { portalId, accountId, label } = raw.account;
  if (typeof portalId !== 'string' || !portalId || typeof accountId !== 'number' || typeof label !== 'string')
    return undefined;
  return { account: { kind: 'account', portalId, accountId, label }, query: queryOf(raw.query) };
}

export function keepMembersView(memento: vscode.Memento, kept: KeptMembersView | undefined): Thenable<void> {
  return memento.update(KEY, kept);
}
