/** v2 resources (2.8): User, Account (v2 calls it an organisation), Group, Member, custom names, and the v2 request bodies. */
import * as l10n from '@vscode/l10n';
import { invalidModel } from '../errors';
import * as read from './read';
import type { JsonObject } from './read';
import { normaliseActivation, type Activation, type ActivationMode } from './member';
import { parseUserProfile, type UserProfile } from './user';
// Bound once, not imported by name: see the note at the top of read.ts.
const {
  asObject,
  bool,
  boolOrNull,
  fields,
  num,
  numMap,
  numOrNull,
  requireNum,
  requireObject,
  str,
  strArray,
  strMap,
  strOrNull,
} = read;

export interface ContextKey {
  id: number | null;
  /** Namespaced entity class name, e.g. "...user", "...space". */
  objectType: string;
  objectId: number | null;
}

export function parseContextKey(json: unknown): ContextKey | null {
  const o = asObject(json);
  if (!o) return null;
  return { id: numOrNull(o, 'id'), objectType: str(o, 'objectType'), objectId: numOrNull(o, 'objectId') };
}

export interface UserV2 extends UserProfile {
  id: number;
  comments: number;
  attachments: number;
  contextKey: ContextKey | null;
  username: string;
  enabled: boolean;
  locked: boolean;
  twoFactorAuthentication: boolean;
  lastModified: number | null;
  lastLogin: number | null;
  lastActive: number | null;
  dateCreated: number | null;
  dateActivated: number | null;
  /** SMS or Authenticator; null when off. */
  twoFactorMode: string | null;
  timeZoneOffset: number | null;
  type: string;
}

export function parseUserV2(json: unknown): UserV2 {
  const o = requireObject(json, 'user');
  return {
    id: requireNum(o, 'id', 'user'),
    comments: num(o, 'comments'),
    attachments: num(o, 'attachments'),
    contextKey: parseContextKey(o.contextKey),
    username: str(o, 'username'),
    enabled: boolOrNull(o, 'enabled') ?? true,
    locked: bool(o, 'locked'),
    twoFactorAuthentication: bool(o, 'twoFactorAuthentication'),
    lastModified: numOrNull(o, 'lastModified'),
    lastLogin: numOrNull(o, 'lastLogin'),
    lastActive: numOrNull(o, 'lastActive'),
    dateCreated: numOrNull(o, 'dateCreated'),
    dateActivated: numOrNull(o, 'dateActivated'),
    ...parseUserProfile(o),
    twoFactorMode: strOrNull(o, 'twoFactorMode'),
    timeZoneOffset: numOrNull(o, 'timeZoneOffset'),
    type: strOrNull(o, 'type') ?? 'user',
  };
}

function userV2OrNull(json: unknown): UserV2 | null {
  const o = asObject(json);
  return o && numOrNull(o, 'id') !== null ? parseUserV2(o) : null;
}

export interface AccountBrandingV2 {
  backgroundColor: string | null;
  textColor: string | null;
  logo: boolean;
  logoLarge: boolean;
  logoMedium: boolean;
  background: boolean;
  favicon: boolean;
  textLogo: boolean;
  gradient: boolean;
  gradientWidth: number | null;
}

export interface AccountV2 {
  id: number;
  comments: number;
  attachments: number;
  contextKey: ContextKey | null;
  creator: UserV2 | null;
  /** Unique name (slug). */
  name: string;
  friendlyName: string;
  dateCreated: number | null;
  lastModified: number | null;
  enabled: boolean;
  domain: string | null;
  mobileSchema: string | null;
  hash: string | null;
  locale: string | null;
  type: string;
  branding: AccountBrandingV2 | null;
}

export function parseAccountV2(json: unknown): AccountV2 {
  const o = requireObject(json, 'organisation');
  const b = asObject(o.branding);
  return {
    id: requireNum(o, 'id', 'organisation'),
    comments: num(o, 'comments'),
    attachments: num(o, 'attachments'),
    contextKey: parseContextKey(o.contextKey),
    creator: userV2OrNull(o.creator),
    name: str(o, 'name'),
    friendlyName: strOrNull(o, 'friendlyName') ?? str(o, 'name'),
    dateCreated: numOrNull(o, 'dateCreated'),
    lastModified: numOrNull(o, 'lastModified'),
    enabled: boolOrNull(o, 'enabled') ?? true,
    domain: strOrNull(o, 'domain'),
    mobileSchema: strOrNull(o, 'mobileSchema'),
    hash: strOrNull(o, 'hash'),
    locale: strOrNull(o, 'locale'),
    type: strOrNull(o, 'type') ?? 'account',
    branding: b
      ? {
          backgroundColor: strOrNull(b, 'backgroundColor'),
          textColor: strOrNull(b, 'textColor'),
          logo: bool(b, 'logo'),
          logoLarge: bool(b, 'logoLarge'),
          logoMedium: bool(b, 'logoMedium'),
          background: bool(b, 'background'),
          favicon: bool(b, 'favicon'),
          textLogo: bool(b, 'textLogo'),
          gradient: bool(b, 'gradient'),
          gradientWidth: numOrNull(b, 'gradientWidth'),
        }
      : null,
  };
}

export interface GroupBranding {
  headerColor: string | null;
  textColor: string | null;
  logo: boolean;
  background: boolean;
  hideBackgroundGradient: boolean;
  hideLogoBackground: boolean;
  hideGroupName: boolean;
  alignment: string | null;
  backgroundPositionX: number | null;
  backgroundPositionY: number | null;
}

export interface GroupComponent {
  /** files, pages, events, tasks, activity, chat, discussions, ... */
  name: string;
  order: number | null;
  configuration: JsonObject;
}

export interface WatermarkConfiguration {
  enableWatermark: boolean;
  enableWatermarkIp: boolean;
  enableWatermarkEmail: boolean;
  enableWatermarkTimestamp: boolean;
  enableWatermarkCustomText: boolean;
  watermarkCustomText: string | null;
  /** Values not documented. */
  watermarkStyle: string | null;
}

export interface Group {
  id: number;
  comments: number;
  attachments: number;
  contextKey: ContextKey | null;
  master: number | null;
  masterConfiguration: JsonObject | null;
  /** Read from the field named after the service. */
  user: UserV2 | null;
  name: string;
  friendlyName: string;
  /** Member count. */
  members: number;
  branding: GroupBranding | null;
  storageConsumed: number;
  dateCreated: number | null;
  lastModified: number | null;
  mailKey: string | null;
  order: number | null;
  hash: string | null;
  components: GroupComponent[];
  blind: boolean;
  duplicate: boolean;
  disableChat: boolean;
  disableComments: boolean;
  disableEmailComments: boolean;
  hideMemberDetails: boolean;
  disableAccordionWidgets: boolean;
  /** Home widgets switch: in the spec's update body but not its group response, so null when not reported. */
  disableWidgets: boolean | null;
  watermarkConfiguration: WatermarkConfiguration | null;
  type: string;
  account: AccountV2 | null;
}

/** The create answer may carry a null id (spec: "id, dates, the service, contextKey and account are null"). */
export type CreatedGroup = Omit<Group, 'id'> & { id: number | null };

function parseGroupBranding(b: JsonObject): GroupBranding {
  return {
    ...fields(b, ['headerColor', 'textColor', 'alignment'], strOrNull),
    ...fields(b, ['logo', 'background', 'hideBackgroundGradient', 'hideLogoBackground', 'hideGroupName'], bool),
    ...fields(b, ['backgroundPositionX', 'backgroundPositionY'], numOrNull),
  };
}

/** A component as a name (as some answers list them) or as {name, order, configuration}. */
function parseGroupComponent(c: unknown): GroupComponent[] {
  if (typeof c === 'string') return [{ name: c, order: null, configuration: {} }];
  const co = asObject(c);
  return co
    ? [{ name: str(co, 'name'), order: numOrNull(co, 'order'), configuration: asObject(co.configuration) ?? {} }]
    : [];
}

const WATERMARK_SWITCHES = [
  'enableWatermark',
  'enableWatermarkIp',
  'enableWatermarkEmail',
  'enableWatermarkTimestamp',
  'enableWatermarkCustomText',
] as const;

function parseWatermark(w: JsonObject): WatermarkConfiguration {
  return {
    ...fields(w, WATERMARK_SWITCHES, bool),
    ...fields(w, ['watermarkCustomText', 'watermarkStyle'], strOrNull),
  };
}

function parseGroupFields(o: JsonObject, service: string): Omit<Group, 'id'> {
  const b = asObject(o.branding);
  const w = asObject(o.watermarkConfiguration);
  const account = asObject(o.account);
  return {
    comments: num(o, 'comments'),
    attachments: num(o, 'attachments'),
    contextKey: parseContextKey(o.contextKey),
    master: numOrNull(o, 'master'),
    masterConfiguration: asObject(o.masterConfiguration) ?? null,
    user: userV2OrNull(o[service]),
    name: str(o, 'name'),
    friendlyName: strOrNull(o, 'friendlyName') ?? str(o, 'name'),
    members: num(o, 'members'),
    branding: b ? parseGroupBranding(b) : null,
    storageConsumed: num(o, 'storageConsumed'),
    dateCreated: numOrNull(o, 'dateCreated'),
    lastModified: numOrNull(o, 'lastModified'),
    mailKey: strOrNull(o, 'mailKey'),
    order: numOrNull(o, 'order'),
    hash: strOrNull(o, 'hash'),
    components: Array.isArray(o.components) ? o.components.flatMap(parseGroupComponent) : [],
    blind: bool(o, 'blind'),
    duplicate: bool(o, 'duplicate'),
    disableChat: bool(o, 'disableChat'),
    disableComments: bool(o, 'disableComments'),
    disableEmailComments: bool(o, 'disableEmailComments'),
    hideMemberDetails: bool(o, 'hideMemberDetails'),
    disableAccordionWidgets: bool(o, 'disableAccordionWidgets'),
    disableWidgets: boolOrNull(o, 'disableWidgets'),
    watermarkConfiguration: w ? parseWatermark(w) : null,
    type: strOrNull(o, 'type') ?? 'group',
    account: account && numOrNull(account, 'id') !== null ? parseAccountV2(account) : null,
  };
}

export function parseGroup(json: unknown, service: string): Group {
  const o = requireObject(json, 'group');
  return { id: requireNum(o, 'id', 'group'), ...parseGroupFields(o, service) };
}

export function parseCreatedGroup(json: unknown, service: string): CreatedGroup {
  const o = requireObject(json, 'group');
  return { id: numOrNull(o, 'id'), ...parseGroupFields(o, service) };
}

export interface MemberV2 {
  user: UserV2;
  accountPermission: number | null;
  /** Group name → group permission; present in detail, create and update answers. */
  groups?: Record<string, number>;
  /** Pending activation, when the server reports one. */
  activation: Activation;
}

export function parseMemberV2(json: unknown): MemberV2 {
  const o = requireObject(json, 'member');
  if (!asObject(o.user)) throw invalidModel('member', l10n.t('its "{0}"', 'user'));
  const groups = numMap(o, 'groups');
  return {
    user: parseUserV2(o.user),
    accountPermission: numOrNull(o, 'accountPermission'),
    ...(groups ? { groups } : {}),
    activation: normaliseActivation(o.activationType, o.activationDate),
  };
}

/**
 * Custom component names (GET /v2/accounts/{account}/custom). The field names are not documented, so the
 * answer is kept as a map of name → label; an empty object means nothing is customised.
 */
export type CustomNames = Record<string, string>;

export function parseCustomNames(json: unknown): CustomNames {
  return strMap({ names: requireObject(json, 'custom names') }, 'names');
}

/** Body of v2 group create/update. */
export interface GroupBody {
  name?: string;
  friendlyName?: string;
  branding?: Partial<{
    headerColor: string;
    textColor: string;
    logo: boolean;
    background: boolean;
    alignment: string;
    backgroundPositionX: number;
    backgroundPositionY: number;
    hideBackgroundGradient: boolean;
    hideLogoBackground: boolean;
    hideGroupName: boolean;
  }>;
  disableChat?: boolean;
  disableWidgets?: boolean;
  disableComments?: boolean;
  disableAccordionWidgets?: boolean;
  /** Enabled component names. */
  components?: string[];
}

/** Body of v2 member create/update. */
export interface MemberBodyV2 {
  user: {
    username?: string;
    password?: string;
    name?: string;
    email?: string;
    address?: string;
    telephone?: string;
    organisation?: string;
    jobTitle?: string;
    enabled?: boolean;
  };
  accountPermission?: number;
  /** Group name → group permission. */
  groups?: Record<string, number>;
  activationType?: ActivationMode;
  activationDate?: number;
  activationMessage?: string;
}

/** Reads the tags string of a file record ("a, b") as a list. */
export function splitTags(value: unknown): string[] {
  if (Array.isArray(value)) return strArray({ value }, 'value');
  if (typeof value !== 'string') return [];
  return value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}
