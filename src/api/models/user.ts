/** User (2.1) and Userinfo (2.2) of v3. */
import { parseAccount, type Account } from './account';
import * as read from './read';
import type { JsonObject } from './read';
// Bound once, not imported by name: see the note at the top of read.ts.
const {
  asObject,
  bool,
  boolOrNull,
  num,
  numOrNull,
  objArray,
  requireNum,
  requireObject,
  str,
  strArray,
  strArrayOrNull,
  strMap,
  strOrNull,
} = read;

export type DateFormat = 'YMD' | 'MDY' | 'DMY';

/**
 * The spec lists YMD/MDY/DMY but types the field as Boolean: accept a string in any case or with separators
 * ("y-m-d"), and turn anything else (boolean, null, unknown text) into null = "use the default".
 */
export function normaliseDateFormat(value: unknown): DateFormat | null {
  if (typeof value !== 'string') return null;
  const letters = value.toUpperCase().replace(/[^A-Z]/g, '');
  if (letters === 'YMD' || letters === 'MDY' || letters === 'DMY') return letters;
  if (letters === 'YYYYMMDD') return 'YMD';
  if (letters === 'MMDDYYYY') return 'MDY';
  if (letters === 'DDMMYYYY') return 'DMY';
  return null;
}

/** The profile fields v2 and v3 users share, read the same way in both. */
export interface UserProfile {
  name: string;
  jobTitle: string | null;
  organisation: string | null;
  email: string;
  address: string | null;
  telephone: string | null;
  other: string | null;
  logo: boolean;
  timeZone: string | null;
  locale: string | null;
  verifiedEmail: boolean;
}

export function parseUserProfile(o: JsonObject): UserProfile {
  return {
    name: str(o, 'name'),
    jobTitle: strOrNull(o, 'jobTitle'),
    organisation: strOrNull(o, 'organisation'),
    email: str(o, 'email'),
    address: strOrNull(o, 'address'),
    telephone: strOrNull(o, 'telephone'),
    other: strOrNull(o, 'other'),
    logo: bool(o, 'logo'),
    timeZone: strOrNull(o, 'timeZone'),
    locale: strOrNull(o, 'locale'),
    verifiedEmail: bool(o, 'verifiedEmail'),
  };
}

export interface User extends UserProfile {
  id: number;
  username: string;
  enabled: boolean;
  locked: boolean;
  lastModified: number | null;
  dateFormat: DateFormat | null;
  /** null when the server did not say. */
  twentyFourHourTimeFormat: boolean | null;
  twoFactorAuthentication: boolean;
  lastActive: number | null;
  /** Present in member responses. */
  realName: string | null;
}

export function parseUser(json: unknown): User {
  const o = requireObject(json, 'user');
  return {
    id: requireNum(o, 'id', 'user'),
    username: str(o, 'username'),
    enabled: boolOrNull(o, 'enabled') ?? true,
    locked: bool(o, 'locked'),
    ...parseUserProfile(o),
    lastModified: numOrNull(o, 'lastModified'),
    dateFormat: normaliseDateFormat(o.dateFormat),
    twentyFourHourTimeFormat: boolOrNull(o, 'twentyFourHourTimeFormat'),
    twoFactorAuthentication: bool(o, 'twoFactorAuthentication'),
    lastActive: numOrNull(o, 'lastActive'),
    realName: strOrNull(o, 'realName'),
  };
}

export interface MembershipSubscription {
  code: string;
  /** null when not a trial account. */
  trialExpires: number | null;
  paused: boolean;
}

/** One entry of Userinfo.accounts: the user's standing in one organisation. */
export interface AccountMembership {
  account: Account;
  subscription: MembershipSubscription;
  /** Account permission mask (see AccountPermission). */
  permission: number;
  memberOfSpaces: number;
  adminInSpaces: number;
  features: string[];
  /** Names of the available components; null when the server sent null. */
  components: string[] | null;
  capabilities: string[];
  mailDomain: string | null;
  twoFactorAuthentication: boolean;
  metadata: Record<string, string>;
  admin: boolean;
}

function componentNames(o: JsonObject): string[] | null {
  const v = o.components;
  if (!Array.isArray(v)) return strArrayOrNull(o, 'components');
  const out: string[] = [];
  for (const x of v) {
    if (typeof x === 'string') out.push(x);
    else {
      const c = asObject(x);
      const name = c ? strOrNull(c, 'name') : null;
      if (name) out.push(name);
    }
  }
  return out;
}

export function parseAccountMembership(json: unknown): AccountMembership {
  const o = requireObject(json, 'account membership');
  const sub = asObject(o.subscription) ?? {};
  return {
    account: parseAccount(o.account),
    subscription: { code: str(sub, 'code'), trialExpires: numOrNull(sub, 'trialExpires'), paused: bool(sub, 'paused') },
    permission: num(o, 'permission'),
    memberOfSpaces: num(o, 'memberOfSpaces'),
    adminInSpaces: num(o, 'adminInSpaces'),
    features: strArray(o, 'features'),
    components: componentNames(o),
    capabilities: strArray(o, 'capabilities'),
    mailDomain: strOrNull(o, 'mailDomain'),
    twoFactorAuthentication: bool(o, 'twoFactorAuthentication'),
    metadata: strMap(o, 'metadata'),
    admin: bool(o, 'admin'),
  };
}

export interface UserInfo {
  /** The username. */
  name: string;
  /** The user object, read from the field named after the service ("portal"); null when absent. */
  user: User | null;
  authorities: string[];
  accounts: AccountMembership[];
}

/** `service` names the field that carries the user object (the spec calls it "the service"). */
export function parseUserInfo(json: unknown, service: string): UserInfo {
  const o = requireObject(json, 'userinfo');
  const userJson = o[service];
  const user = asObject(userJson) ? parseUser(userJson) : null;
  const name = strOrNull(o, 'name') ?? user?.username ?? '';
  return {
    name,
    user,
    authorities: strArray(o, 'authorities'),
    accounts: objArray(o, 'accounts').map(parseAccountMembership),
  };
}
