// The demo seed: small, hand-shaped data that exercises every state the UI has to show.
import {
  APPLICATION_BLANKS,
  type AccountPermission,
  type Application,
  type DateFormat,
  type GroupPermission,
  type User,
} from '../model';
import { hex, intBetween, mulberry32, pick } from '../prng';
import { Store } from '../store';
import { ACTIVITY_BASE, DAY, SEED_BASE, makeAccount, makeGroup, makeTree, makeUser } from './common';
import { demoAccess } from './access';
import { demoTrees } from './demo-files';

const FIRST = [
  'Alice',
  'Bruno',
  'Chloé',
  'Dmitri',
  'Elif',
  'Farah',
  'Göran',
  'Hana',
  'Ivan',
  'Jonas',
  'Keiko',
  'Luca',
  'Maya',
  'Nikos',
  'Olu',
  'Priya',
  'Quentin',
  'Rosa',
  'Sven',
  'Tariq',
];
const LAST = [
  'Andersen',
  'Brown',
  'Castro',
  'Dubois',
  'Evans',
  'Fischer',
  'García',
  'Hughes',
  'Ibrahim',
  'Jensen',
  'Kowalski',
  'López',
  'Müller',
  'Nakamura',
  'Okafor',
  'Petrov',
];
const TITLES = ['Designer', 'Engineer', 'Account manager', 'Researcher', 'Support lead', 'Analyst', null];
const TAGS = ['design', 'backend', 'frontend', 'sales', 'support', 'remote', 'contractor', 'lead', 'new-hire', 'ops'];
const DATE_FORMATS: DateFormat[] = ['DMY', 'YMD', 'MDY', null];

export function demoSeed(): Store {
  const store = new Store();
  const rng = mulberry32(20250115);

  // The three documented logins come first so their ids are stable: 1001, 1002, 1003.
  const demo = makeUser(store, {
    username: 'demo',
    name: 'Dana Demo',
    realName: 'Dana Demo',
    email: 'demo@acme.example',
    jobTitle: 'Portal administrator',
    organisation: 'Acme Corporation',
    telephone: '+44 20 7946 0000',
    logo: true,
    lastLogin: SEED_BASE - DAY,
    lastActive: ACTIVITY_BASE - DAY,
  });
  const twoFa = makeUser(store, {
    username: 'demo-2fa',
    name: 'Tomás Twofactor',
    email: 'demo-2fa@acme.example',
    twoFactorCode: '123456',
    twoFactorMode: 'Authenticator',
    dateFormat: null,
    twentyFourHourTimeFormat: false,
    timeZone: 'America/New_York',
    timeZoneOffset: -18_000_000,
    locale: 'en_US',
    lastActive: ACTIVITY_BASE - 2 * DAY,
  });
  // The one user whose dateFormat is `false`, the reference's Boolean typing of the field.
  const member = makeUser(store, {
    username: 'member',
    name: 'Mia Member',
    email: 'member@acme.example',
    jobTitle: 'Writer',
    dateFormat: false,
    lastActive: ACTIVITY_BASE - 3 * DAY,
  });
  // Hand-made like the logins above: in Engineering with a tag of her own, so a tag lookup finds exactly one member.
  const yara = makeUser(store, {
    username: 'yara.haddad',
    name: 'Yara Haddad',
    email: 'yara.haddad@acme.example',
    jobTitle: 'Security engineer',
    other: 'Speaks Arabic and French',
  });
  const disabled = makeUser(store, {
    username: 'victor.hale',
    name: 'Victor Hale',
    email: 'victor.hale@acme.example',
    enabled: false,
    jobTitle: 'Former contractor',
  });
  const locked = makeUser(store, {
    username: 'lena.locked',
    name: 'Lena Locke',
    email: 'lena.locke@acme.example',
    locked: true,
    pendingUnlock: true,
  });

  const others: User[] = [];
  for (let i = 0; i < 34; i++) {
    const first = FIRST[i % FIRST.length] ?? 'Alex';
    const last = LAST[(i * 7) % LAST.length] ?? 'Smith';
    const username = `${first}.${last}`
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '');
    others.push(
      makeUser(store, {
        username,
        name: `${first} ${last}`,
        email: `${username}@${i < 24 ? 'acme' : 'globex'}.example`,
        jobTitle: pick(rng, TITLES),
        dateFormat: pick(rng, DATE_FORMATS),
        twentyFourHourTimeFormat: rng() < 0.7,
        // 4 to 360 days ago, or never: some members inactive for 90 days, some not.
        lastActive: rng() < 0.8 ? ACTIVITY_BASE - intBetween(rng, 1, 90) * 4 * DAY : null,
        logo: rng() < 0.3,
        telephone: rng() < 0.5 ? `+44 161 496 0${String(100 + i)}` : null,
      }),
    );
  }

  const acme = makeAccount(
    store,
    {
      name: 'acme',
      friendlyName: 'Acme Corporation',
      creatorId: demo.id,
      domain: 'portal.acme.example',
      features: [
        'storage-switch',
        'watermarking',
        'search',
        'chat',
        'audit',
        'kanban',
        'custom-domain',
        'dashboard-tasks',
        'custom-email',
      ],
      metadata: { region: 'eu-west', tier: 'trial' },
    },
    'business',
  );
  acme.subscription.code = 'business-trial';
  acme.subscription.trialExpires = SEED_BASE + 14 * DAY;

  const globex = makeAccount(
    store,
    {
      name: 'globex',
      friendlyName: 'Globex Research',
      creatorId: demo.id,
      locale: 'de',
      twoFactorModes: ['SMS', 'AUTHENTICATOR'],
      twoFactorEnforce: true,
      features: ['search', 'enforce-2fa', 'kanban'],
      custom: {
        event: 'Meeting',
        events: 'Meetings',
        discussion: 'Thread',
        discussions: 'Threads',
        file: 'Document',
        files: 'Documents',
        note: 'Memo',
        notes: 'Memos',
        task: 'Action',
        tasks: 'Actions',
        shortcuts: 'Quick links',
      },
      branding: { backgroundColor: '#14532d', textColor: '#f0fdf4', gradientWidth: 60, logo: true },
    },
    'team',
  );
  Object.assign(globex.subscription, { paused: true, pausedBillingCycles: 2, datePausedAt: SEED_BASE - 5 * DAY });

  // A disabled third organisation, so enabledOnly has something to leave out.
  const archive = makeAccount(
    store,
    {
      name: 'initech-archive',
      friendlyName: 'Initech (archived)',
      creatorId: demo.id,
      enabled: false,
      features: [],
      twoFactorModes: [],
    },
    'basic',
  );
  archive.subscription.suspended = true;

  const join = (
    accountId: number,
    u: User,
    permission: AccountPermission,
    extra: { tags?: string[]; newGroups?: 0 | GroupPermission; activation?: 'now' | number } = {},
  ): void => {
    store.addMembership({
      accountId,
      userId: u.id,
      permission,
      assignToNewGroupsPermission: extra.newGroups ?? 0,
      tags: extra.tags ?? [],
      dateCreated: u.dateCreated,
      activationType: extra.activation ?? 'now',
    });
  };
  const someTags = (): string[] => TAGS.filter(() => rng() < 0.18);

  join(acme.id, demo, 16, { tags: ['lead', 'ops'] });
  join(acme.id, twoFa, 4, { tags: ['backend'] });
  join(acme.id, member, 1, { tags: ['new-hire', 'frontend'] });
  join(acme.id, yara, 1, { tags: ['security'] });
  join(acme.id, disabled, 1, { tags: ['contractor'] });
  join(acme.id, locked, 1, { tags: ['support'] });
  join(globex.id, demo, 16);
  join(globex.id, twoFa, 1, { tags: ['remote'] });
  join(archive.id, demo, 1);

  const acmeOthers = others.slice(0, 30);
  const globexOthers = others.slice(20);
  acmeOthers.forEach((u, i) =>
    join(acme.id, u, i === 0 ? 16 : i % 6 === 1 ? 4 : 1, {
      tags: someTags(),
      newGroups: i === 2 ? 1 : i === 3 ? 4 : 0,
      activation: i === 5 || i === 6 ? SEED_BASE + (i + 2) * DAY : 'now',
    }),
  );
  globexOthers.forEach((u, i) => join(globex.id, u, i === 0 ? 16 : i % 5 === 2 ? 4 : 1, { tags: someTags() }));
  others.slice(30).forEach((u) => join(archive.id, u, 1));

  const groupIn = (
    accountId: number,
    name: string,
    friendlyName: string,
    members: Array<[User, GroupPermission]>,
  ): number =>
    makeGroup(
      store,
      { accountId, name, friendlyName, creatorId: demo.id },
      members.map(([u, p]) => [u.id, p]),
    ).id;

  const ids: Record<string, number> = {};
  const randomMembers = (pool: User[], n: number): Array<[User, GroupPermission]> =>
    pool.filter(() => rng() < n / pool.length).map((u) => [u, pick(rng, [1, 4, 4, 16] as const)]);
  ids.engineering = groupIn(acme.id, 'engineering', 'Engineering', [
    [demo, 16],
    [twoFa, 4],
    [member, 4],
    [yara, 1],
    ...randomMembers(acmeOthers, 12),
  ]);
  ids.marketing = groupIn(acme.id, 'marketing', 'Marketing', [
    [member, 1],
    [disabled, 4],
    ...randomMembers(acmeOthers, 8),
  ]);
  ids.handbook = groupIn(acme.id, 'handbook', 'Employee Handbook', [
    [demo, 16],
    [locked, 1],
    ...acmeOthers.map((u): [User, GroupPermission] => [u, 1]),
  ]);
  ids.social = groupIn(acme.id, 'social', 'Social Club', [[member, 16], [twoFa, 1], ...randomMembers(acmeOthers, 6)]);
  ids.research = groupIn(globex.id, 'research', 'Research & Development', [
    [demo, 16],
    [twoFa, 1],
    ...randomMembers(globexOthers, 6),
  ]);
  ids.operations = groupIn(globex.id, 'operations', 'Operations', randomMembers(globexOthers, 5));
  ids['old-projects'] = groupIn(archive.id, 'old-projects', 'Old projects', [[demo, 16]]);

  for (const [groupName, tree] of Object.entries(demoTrees(demo.id))) {
    const groupId = ids[groupName];
    if (groupId !== undefined) makeTree(store, groupId, 0, tree, groupName === 'social' ? member : demo, SEED_BASE);
  }

  const app = (fields: Pick<Application, 'name' | 'platform' | 'deviceType'> & Partial<Application>): void =>
    store.addApplication({
      clientId: `demo-${hex(rng, 16)}`,
      clientSecret: hex(rng, 40),
      ownerId: demo.id,
      ...APPLICATION_BLANKS,
      ip: '127.0.0.1',
      dateCreated: SEED_BASE - 20 * DAY,
      scope: ['read', 'write'],
      ...fields,
    });
  app({
    name: 'Portal Sync (laptop)',
    description: 'Desktop sync client',
    platform: 'SYNC',
    deviceType: 'Other',
    deviceOs: 'Linux',
    appVersion: '3.2.1',
    lastActivity: SEED_BASE - DAY,
  });
  app({
    name: 'Portal for iPhone',
    platform: 'IOS',
    deviceType: 'Phone',
    deviceModel: 'iPhone 15',
    deviceOs: 'iOS 18',
    appVersion: '7.0',
    bundleId: 'com.example.portal',
    dateCreated: SEED_BASE - 10 * DAY,
  });
  demoAccess(store, { acme, globex, demo, member, others, groups: ids });
  return store;
}
