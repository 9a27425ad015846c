// Record builders with plain defaults, shared by the seeds so each seed only states what is special.
import { PACKAGE_COMPONENTS } from '../catalog';
import { contentTypeOf, minimumSize } from '../content';
import { makeGroupDefaults } from '../group-defaults';
import { FOLDER, type Account, type FileRecord, type Group, type GroupPermission, type User } from '../model';
import { hashPassword } from '../secrets';
import type { Store } from '../store';

/** Seeds date everything from a fixed instant so their output never depends on when they run. */
export const SEED_BASE = Date.UTC(2025, 0, 15, 9, 0, 0);
export const DAY = 86_400_000;
/**
 * The one exception to SEED_BASE: members' last activity is counted back from the start of the day the seed is
 * built, so "inactive for 90 days" finds some members and not others whenever the tests run. A day, not the instant,
 * so two builds on the same day are equal.
 */
export const ACTIVITY_BASE = Math.floor(Date.now() / DAY) * DAY;
export const DEMO_PASSWORD = 'demo';

export function makeUser(
  store: Store,
  fields: Partial<User> & Pick<User, 'username' | 'name' | 'email'>,
  password: string | null = DEMO_PASSWORD,
): User {
  const id = fields.id ?? store.newId('user');
  const created = fields.dateCreated ?? SEED_BASE - 200 * DAY + id * 3_600_000;
  const user: User = {
    id,
    passwordHash: password === null ? null : hashPassword(id, password),
    realName: null,
    jobTitle: null,
    organisation: null,
    address: null,
    telephone: null,
    other: null,
    logo: false,
    timeZone: 'Europe/London',
    timeZoneOffset: 0,
    locale: 'en',
    verifiedEmail: true,
    dateFormat: 'DMY',
    twentyFourHourTimeFormat: true,
    twoFactorCode: null,
    twoFactorMode: null,
    enabled: true,
    locked: false,
    pendingUnlock: false,
    dateCreated: created,
    dateActivated: created + 3_600_000,
    lastModified: created + DAY,
    lastLogin: null,
    lastActive: null,
    ...fields,
  };
  return store.addUser(user);
}

export function makeAccount(
  store: Store,
  fields: Partial<Account> & Pick<Account, 'name' | 'friendlyName' | 'creatorId'>,
  pkg: keyof typeof PACKAGE_COMPONENTS = 'business',
): Account {
  const id = fields.id ?? store.newId('account');
  const account: Account = {
    id,
    enabled: true,
    hash: `h${((id * 2654435761) >>> 0).toString(16)}`,
    domain: null,
    locale: 'en',
    dateCreated: SEED_BASE - 400 * DAY,
    lastModified: SEED_BASE - 10 * DAY,
    twoFactorModes: ['AUTHENTICATOR', 'EMAIL'],
    twoFactorEnforce: false,
    mailDomain: `${fields.name}.example`,
    features: ['search', 'chat', 'audit', 'kanban', 'dashboard-tasks'],
    metadata: {},
    custom: {},
    branding: { backgroundColor: '#1f6feb', textColor: '#ffffff', gradientWidth: 40, logo: false },
    subscription: {
      code: pkg,
      plan: pkg[0]?.toUpperCase() + pkg.slice(1),
      trialExpires: null,
      paused: false,
      pausedBillingCycles: null,
      datePausedAt: null,
      interval: 1,
      currency: 'EUR',
      membersLimit: 500,
      storage: 100 * 1024 ** 3,
      emailQuota: 5000,
      suspended: false,
      emailsUsed: 120,
      components: [...(PACKAGE_COMPONENTS[pkg] ?? [])],
      billing: {
        firstName: 'Accounts',
        lastName: 'Payable',
        email: `billing@${fields.name}.example`,
        address1: '14 Harbour Street',
        address2: '',
        city: 'Bristol',
        state: '',
        zip: 'BS1 4RW',
        country: 'GB',
        cardType: 'VISA',
        cardLastFour: '4242',
        expirationMonth: 12,
        expirationYear: 2030,
      },
    },
    ...fields,
  };
  store.addAccount(account);
  return account;
}

export function makeGroup(
  store: Store,
  fields: Partial<Group> & Pick<Group, 'accountId' | 'name' | 'creatorId'>,
  members: Array<[number, GroupPermission]> = [],
): Group {
  const id = fields.id ?? store.newId('group');
  const group: Group = {
    ...makeGroupDefaults(fields.name),
    id,
    dateCreated: SEED_BASE - 300 * DAY + id * DAY,
    lastModified: SEED_BASE - 5 * DAY,
    trashed: false,
    members: new Map(members),
    ...fields,
  };
  store.addGroup(group);
  return group;
}

export interface FileSpec {
  name: string;
  text?: string;
  size?: number;
  lastModified?: number;
  description?: string;
  tags?: string;
  versions?: number;
  memberPermission?: number;
  sharing?: string;
  locked?: { byUserId: number; at: number };
  children?: FileSpec[];
}

/** Builds a tree of records under parentId; a spec with children is a folder. */
export function makeTree(
  store: Store,
  groupId: number,
  parentId: number,
  specs: FileSpec[],
  creator: User,
  modifiedBase: number,
): FileRecord[] {
  const out: FileRecord[] = [];
  const walk = (list: FileSpec[], parent: number, depth: number): void => {
    list.forEach((spec, i) => {
      const isFolder = spec.children !== undefined;
      const contentType = isFolder ? FOLDER : contentTypeOf(spec.name);
      const size = isFolder
        ? 0
        : spec.text !== undefined
          ? Buffer.byteLength(spec.text, 'utf8')
          : Math.max(spec.size ?? 1024, minimumSize(contentType));
      const f: FileRecord = {
        id: store.newId('file'),
        groupId,
        parentId: parent,
        name: spec.name,
        description: spec.description ?? null,
        contentType,
        size,
        creatorId: creator.id,
        uploaderName: creator.name,
        versions: spec.versions ?? 1,
        sharing: spec.sharing ?? 'NONE',
        memberPermission: spec.memberPermission ?? 4,
        hidden: false,
        tags: spec.tags ?? null,
        locked: spec.locked !== undefined,
        lockerId: spec.locked?.byUserId ?? null,
        dateLocked: spec.locked?.at ?? null,
        dateCreated: modifiedBase - 30 * DAY,
        lastModified: spec.lastModified ?? modifiedBase - (depth * 7 + i) * 3_600_000,
      };
      if (spec.text !== undefined) f.text = spec.text;
      out.push(f);
      if (spec.children) walk(spec.children, f.id, depth + 1);
    });
  };
  walk(specs, parentId, 0);
  store.addFiles(out);
  return out;
}
