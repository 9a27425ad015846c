/** Member (2.7, v3), its request bodies (4.3) and member-tag summaries. */
import * as l10n from '@vscode/l10n';
import { invalidModel } from '../errors';
import { parseUser, type User } from './user';
import * as read from './read';
import type { JsonObject } from './read';
// Bound once, not imported by name: see the note at the top of read.ts.
const { asObject, bool, num, numOrNull, requireObject, requireStr, strArray } = read;

export type ActivationMode = 'now' | 'custom';

/**
 * A pending activation e-mail. The reference lists `activationType` twice: as a String (now | custom) and as a
 * Number (the date the e-mail will be sent). Either may arrive; a date implies 'custom'.
 */
export interface Activation {
  mode: ActivationMode | null;
  date: number | null;
}

export function normaliseActivation(type: unknown, date?: unknown): Activation {
  let mode: ActivationMode | null = null;
  let when: number | null = null;
  if (typeof type === 'string') {
    const t = type.trim().toLowerCase();
    if (t === 'now' || t === 'custom') mode = t;
    else if (t !== '' && Number.isFinite(Number(t))) when = Number(t);
  } else if (typeof type === 'number' && Number.isFinite(type)) {
    when = type;
  }
  if (when === null && typeof date === 'number' && Number.isFinite(date)) when = date;
  if (when !== null && mode === null) mode = 'custom';
  return { mode, date: when };
}

export interface Member {
  user: User;
  /** Account permission mask; null when the server sent none. */
  permission: number | null;
  assignToNewGroupsPermission: number | null;
  /** Groups (ids or names) not assigned when assignToNewGroupsPermission is set. */
  notAssigned: Array<number | string>;
  assigningToGroups: boolean;
  dateCreated: number | null;
  memberOfMultipleAccounts: boolean;
  tags: string[];
  pendingUnlock: boolean;
  activation: Activation;
  twoFactorAuthentication: boolean;
}

function idList(o: JsonObject, key: string): Array<number | string> {
  const v = o[key];
  if (!Array.isArray(v)) return [];
  const out: Array<number | string> = [];
  for (const x of v) {
    if (typeof x === 'number' || typeof x === 'string') out.push(x);
    else {
      const obj = asObject(x);
      const id = obj ? numOrNull(obj, 'id') : null;
      if (id !== null) out.push(id);
    }
  }
  return out;
}

export function parseMember(json: unknown): Member {
  const o = requireObject(json, 'member');
  if (!asObject(o.user)) throw invalidModel('member', l10n.t('its "{0}"', 'user'));
  const user = parseUser(o.user);
  return {
    user,
    permission: numOrNull(o, 'permission'),
    assignToNewGroupsPermission: numOrNull(o, 'assignToNewGroupsPermission'),
    notAssigned: idList(o, 'notAssigned'),
    assigningToGroups: bool(o, 'assigningToGroups'),
    dateCreated: numOrNull(o, 'dateCreated'),
    memberOfMultipleAccounts: bool(o, 'memberOfMultipleAccounts'),
    tags: strArray(o, 'tags'),
    pendingUnlock: bool(o, 'pendingUnlock'),
    activation: normaliseActivation(o.activationType, o.activationDate),
    twoFactorAuthentication: bool(o, 'twoFactorAuthentication') || user.twoFactorAuthentication,
  };
}

export interface MemberTagSummary {
  name: string;
  members: number;
}

export function parseMemberTagSummary(json: unknown): MemberTagSummary {
  const o = requireObject(json, 'member tag');
  return { name: requireStr(o, 'name', 'member tag'), members: num(o, 'members') };
}

/** The group fields a create and an update take alike: every group at one level, or chosen groups by id. */
export interface GroupAssignments {
  assignToAllGroupsWithRights?: number;
  assignToAllGroupsWithAdmin?: boolean;
  /** Group id → right id. */
  assignGroupsRights?: Record<string, number>;
  assignGroupsAdmin?: number[];
}

/** Body of POST /v3/accounts/{account}/members (4.3). Which fields are required is not documented. */
export interface MemberCreate extends GroupAssignments {
  name?: string;
  username: string;
  email?: string;
  phone?: string;
  password?: string;
  realName?: string;
  enabled?: boolean;
  tags?: string[];
  rights?: number;
  admin?: boolean;
  assignToNewGroupsPermission?: number;
  /** Group id → group membership permission. */
  assignGroups?: Record<string, number>;
}

/** Body of PATCH /v3/accounts/{account}/members/{username} (4.3). */
export interface MemberUpdate extends GroupAssignments {
  tags?: string[];
  password?: string;
  permission?: number;
  rights?: number;
  enabled?: boolean;
  lock?: boolean;
  disableTwoFactorAuthentication?: boolean;
  assignmentNotification?: boolean;
  activation?: { date?: number; message?: string };
  removeGroups?: number[];
  assignToNewGroupsRights?: number;
  assignToNewGroupsAdmin?: boolean;
}
