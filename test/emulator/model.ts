// Internal records. Everything but Group.members is plain JSON; persistence converts that Map.

export type AccountPermission = 1 | 4 | 16;
export type GroupPermission = 1 | 4 | 16;
export type DateFormat = 'YMD' | 'MDY' | 'DMY' | null | false;

export interface User {
  id: number;
  username: string;
  passwordHash: string | null;
  name: string;
  realName: string | null;
  email: string;
  jobTitle: string | null;
  organisation: string | null;
  address: string | null;
  telephone: string | null;
  other: string | null;
  logo: boolean;
  timeZone: string | null;
  timeZoneOffset: number;
  locale: string | null;
  verifiedEmail: boolean;
  dateFormat: DateFormat;
  twentyFourHourTimeFormat: boolean;
  /** Non-null means two-factor authentication is on. */
  twoFactorCode: string | null;
  twoFactorMode: 'SMS' | 'Authenticator' | null;
  enabled: boolean;
  locked: boolean;
  pendingUnlock: boolean;
  dateCreated: number;
  dateActivated: number | null;
  lastModified: number;
  lastLogin: number | null;
  lastActive: number | null;
}

export interface Subscription {
  code: string;
  plan: string;
  trialExpires: number | null;
  paused: boolean;
  pausedBillingCycles: number | null;
  datePausedAt: number | null;
  interval: number;
  currency: string;
  membersLimit: number;
  storage: number;
  emailQuota: number;
  suspended: boolean;
  emailsUsed: number;
  components: string[];
  billing: {
    firstName: string;
    lastName: string;
    email: string;
    address1: string;
    address2: string;
    city: string;
    state: string;
    zip: string;
    country: string;
    cardType: string;
    cardLastFour: string;
    expirationMonth: number;
    expirationYear: number;
  };
}

export interface Account {
  id: number;
  name: string;
  friendlyName: string;
  enabled: boolean;
  hash: string;
  domain: string | null;
  locale: string | null;
  dateCreated: number;
  lastModified: number;
  twoFactorModes: string[];
  twoFactorEnforce: boolean;
  creatorId: number;
  mailDomain: string;
  features: string[];
  metadata: Record<string, string>;
  /** Custom component names; empty when the organisation keeps the defaults. */
  custom: Record<string, string>;
  /** Per-component title and description in place of the catalog's (the hostile seed's). */
  componentText?: Record<string, { title: string; description: string }>;
  branding: { backgroundColor: string; textColor: string; gradientWidth: number; logo: boolean };
  subscription: Subscription;
  /** Capabilities this organisation's package does not offer anyone (the spec says who gets which only by example). */
  withheldCapabilities?: string[];
}

export interface Membership {
  accountId: number;
  userId: number;
  permission: AccountPermission;
  /** 0 = not assigned to new groups. */
  assignToNewGroupsPermission: 0 | GroupPermission;
  tags: string[];
  dateCreated: number;
  activationType: 'now' | number;
}

export interface GroupBranding {
  headerColor: string | null;
  textColor: string | null;
  logo: boolean;
  background: boolean;
  alignment: string;
  backgroundPositionX: number;
  backgroundPositionY: number;
  hideBackgroundGradient: boolean;
  hideLogoBackground: boolean;
  hideGroupName: boolean;
}

export interface GroupSettings {
  friendlyName: string;
  branding: GroupBranding;
  components: string[];
  disableChat: boolean;
  disableWidgets: boolean;
  disableComments: boolean;
  disableEmailComments: boolean;
  hideMemberDetails: boolean;
  disableAccordionWidgets: boolean;
}

export interface Group extends GroupSettings {
  id: number;
  accountId: number;
  name: string;
  creatorId: number;
  dateCreated: number;
  lastModified: number;
  trashed: boolean;
  /** userId -> permission in this group. */
  members: Map<number, GroupPermission>;
}

export const FOLDER = '@folder';

export interface FileRecord {
  id: number;
  groupId: number;
  /** 0 = the group's root. */
  parentId: number;
  name: string;
  description: string | null;
  contentType: string;
  size: number;
  creatorId: number;
  uploaderName: string;
  versions: number;
  sharing: string;
  memberPermission: number;
  hidden: boolean;
  tags: string | null;
  locked: boolean;
  lockerId: number | null;
  dateLocked: number | null;
  dateCreated: number;
  lastModified: number;
  /** Stored text content; absent means the bytes are generated from the record on demand. */
  text?: string;
  /** Uploaded content: its part files on disk, in order (see blobs.ts). Wins over `text`. */
  blob?: string[];
}

export interface Application {
  clientId: string;
  clientSecret: string;
  ownerId: number;
  name: string;
  description: string | null;
  platform: string;
  deviceType: string;
  deviceModel: string | null;
  deviceOs: string | null;
  appVersion: string | null;
  bundleId: string | null;
  deviceToken: string | null;
  lastActivity: number | null;
  ip: string | null;
  dateCreated: number;
  scope: string[];
}

/** What an application has before a device or a client says more: no description, device or activity yet. */
export const APPLICATION_BLANKS = {
  description: null,
  deviceModel: null,
  deviceOs: null,
  appVersion: null,
  bundleId: null,
  deviceToken: null,
  lastActivity: null,
} as const satisfies Partial<Application>;

/**
 * Behaviour a seed gives its portal beyond its data (the hostile seed's; empty elsewhere). Kept with
 * the data, so a portal restored from a data file behaves the same.
 */
export interface Quirks {
  /** A request with exactly this method and (raw) path is refused with this error instead of running. */
  errors: Array<{ method: string; path: string; code: 'forbidden' | 'conflict'; message: string }>;
  /** A GET of exactly this path answers `factor` times the rows asked for (like the oversized-page fault). */
  oversized: Array<{ path: string; factor: number }>;
}

export const PLATFORMS = ['IOS', 'ANDROID', 'SYNC', 'LINUX', 'WINDOWS', 'OTHER'] as const;
export const DEVICE_TYPES = ['Phone', 'Tablet', 'Watch', 'Browser', 'Other'] as const;
export const GROUP_COMPONENTS = ['files', 'pages', 'events', 'tasks', 'activity', 'chat', 'discussions'] as const;
/** Names no group, organisation or user may take. The spec says such a list exists but does not give it. */
export const RESERVED_NAMES = [
  'admin',
  'api',
  'www',
  'settings',
  'trash',
  'new',
  'oauth',
  'login',
  'logout',
  'static',
  'help',
  'support',
  'system',
  'root',
] as const;
