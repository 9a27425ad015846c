/** Account (2.3), Subscription (2.4) and Component (2.5) of v3. */
import * as read from './read';
// Bound once, not imported by name: see the note at the top of read.ts.
const { asObject, bool, num, numOrNull, requireNum, requireObject, requireStr, str, strArray, strOrNull } = read;

export interface Account {
  id: number;
  /** Slug used in URIs. */
  name: string;
  friendlyName: string;
  enabled: boolean;
  hash: string;
  domain: string | null;
  locale: string | null;
  dateCreated: number | null;
  lastModified: number | null;
  twoFactorModes: string[];
  twoFactorEnforce: boolean;
}

export function parseAccount(json: unknown): Account {
  const o = requireObject(json, 'account');
  return {
    id: requireNum(o, 'id', 'account'),
    name: str(o, 'name'),
    friendlyName: strOrNull(o, 'friendlyName') ?? str(o, 'name'),
    enabled: bool(o, 'enabled'),
    hash: str(o, 'hash'),
    domain: strOrNull(o, 'domain'),
    locale: strOrNull(o, 'locale'),
    dateCreated: numOrNull(o, 'dateCreated'),
    lastModified: numOrNull(o, 'lastModified'),
    twoFactorModes: strArray(o, 'twoFactorModes'),
    twoFactorEnforce: bool(o, 'twoFactorEnforce'),
  };
}

export interface BillingCard {
  number: string;
  type: string;
  lastFour: string;
  verificationValue: string;
  expirationMonth: number | null;
  expirationYear: number | null;
}

export interface BillingDetails {
  firstName: string;
  lastName: string;
  email: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  card: BillingCard | null;
}

export interface AccountPackage {
  code: string;
  /** null when not a trial account. */
  trialExpires: number | null;
  paused: boolean;
  pausedBillingCycles: number | null;
  datePausedAt: number | null;
  planDetails: { interval: number | null; currency: string | null } | null;
  /** How many members can be invited. */
  members: number | null;
  /** Allowed storage in bytes. */
  storage: number | null;
  /** Allowed daily e-mail quota. */
  emailQuota: number | null;
  suspended: boolean;
}

export interface Subscription {
  accountPackage: AccountPackage;
  plan: string;
  storageUsed: number;
  membersUsed: number;
  emailsUsed: number;
  billingDetails: BillingDetails | null;
}

export function parseSubscription(json: unknown): Subscription {
  const o = requireObject(json, 'subscription');
  const p = asObject(o.accountPackage) ?? {};
  const plan = asObject(p.planDetails);
  const billing = asObject(o.billingDetails);
  const card = billing ? asObject(billing.card) : undefined;
  return {
    accountPackage: {
      code: str(p, 'code'),
      trialExpires: numOrNull(p, 'trialExpires'),
      paused: bool(p, 'paused'),
      pausedBillingCycles: numOrNull(p, 'pausedBillingCycles'),
      datePausedAt: numOrNull(p, 'datePausedAt'),
      planDetails: plan ? { interval: numOrNull(plan, 'interval'), currency: strOrNull(plan, 'currency') } : null,
      members: numOrNull(p, 'members'),
      storage: numOrNull(p, 'storage'),
      emailQuota: numOrNull(p, 'emailQuota'),
      suspended: bool(p, 'suspended'),
    },
    plan: str(o, 'plan'),
    storageUsed: num(o, 'storageUsed'),
    membersUsed: num(o, 'membersUsed'),
    emailsUsed: num(o, 'emailsUsed'),
    billingDetails: billing
      ? {
          firstName: str(billing, 'firstName'),
          lastName: str(billing, 'lastName'),
          email: str(billing, 'email'),
          address1: str(billing, 'address1'),
          address2: str(billing, 'address2'),
          city: str(billing, 'city'),
          state: str(billing, 'state'),
          zip: str(billing, 'zip'),
          country: str(billing, 'country'),
          card: card
            ? {
                number: str(card, 'number'),
                type: str(card, 'type'),
                lastFour: str(card, 'lastFour'),
                verificationValue: str(card, 'verificationValue'),
                expirationMonth: numOrNull(card, 'expirationMonth'),
                expirationYear: numOrNull(card, 'expirationYear'),
              }
            : null,
        }
      : null,
  };
}

export interface Component {
  name: string;
  beta: boolean;
  title: string;
  description: string;
  iconName: string;
}

export function parseComponent(json: unknown): Component {
  // Tolerate a bare name, as Userinfo's component list may carry.
  if (typeof json === 'string' && json) return { name: json, beta: false, title: json, description: '', iconName: '' };
  const o = requireObject(json, 'component');
  return {
    name: requireStr(o, 'name', 'component'),
    beta: bool(o, 'beta'),
    title: str(o, 'title'),
    description: str(o, 'description'),
    iconName: str(o, 'iconName'),
  };
}
