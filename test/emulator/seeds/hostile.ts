// The hostile seed: a portal whose every server string carries a payload (command links, icon
// syntax, HTML and script, bidi controls, names that break lookups and paths), with traps that
// answer errors carrying a command link, and one list that answers ten times the rows asked for.
// Identifiers a client needs to function (ids, time zones, locales, enums, content types) stay valid.
import { COMPONENTS, CUSTOM_NAME_KEYS } from '../catalog';
import type { AccountPermission, Application, Group, GroupPermission, Quirks, User } from '../model';
import { Store } from '../store';
import { DAY, SEED_BASE, makeAccount, makeGroup, makeTree, makeUser, type FileSpec } from './common';
import {
  CONFLICT_WITH_LINK,
  ERROR_WITH_LINK,
  FORMULA_NAMES,
  GIT_CONFIG_TRAP,
  TASKS_TRAP,
  TOOL_FOLDER_GROUP,
  HOSTILE_PAYLOADS as P,
  LONG_NAME,
  PAYLOAD_KINDS,
  hostileEmail,
  payloadRotation,
} from './hostile-payloads';

type Next = () => string;

/**
 * Every free-text field of a user carries a payload; the username stays a legal one. Eight draws
 * per user (prime to the seven payloads), so each field sees every payload over seven users.
 */
function hostileUser(store: Store, next: Next, username: string, name: string, extra: Partial<User> = {}): User {
  return makeUser(store, {
    username,
    name: `${name} ${next()}`,
    realName: next(),
    email: hostileEmail(username, next()),
    jobTitle: next(),
    organisation: next(),
    address: next(),
    telephone: next(),
    other: next(),
    ...extra,
  });
}

interface People {
  demo: User;
  twoFa: User;
  member: User;
  payload: User[];
  named: User[];
  trap: User;
}

function people(store: Store, next: Next): People {
  // The documented logins first, so their ids are 1001, 1002, 1003 as in every seed.
  const demo = hostileUser(store, next, 'demo', 'Dana Demo', {
    lastLogin: SEED_BASE - DAY,
    lastActive: SEED_BASE - DAY,
  });
  const twoFa = hostileUser(store, next, 'demo-2fa', 'Tomás Twofactor', {
    twoFactorCode: '123456',
    twoFactorMode: 'Authenticator',
  });
  const member = hostileUser(store, next, 'member', 'Mia Member');
  // One member per payload, whose name carries exactly that payload.
  const payload = PAYLOAD_KINDS.map((kind) =>
    hostileUser(store, next, `payload.${kind.toLowerCase()}`, `${kind} ${P[kind]}`),
  );
  // Usernames that are legal and still break a lookup in a plain object.
  const named = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'CON'].map((u) =>
    hostileUser(store, next, u, u),
  );
  const trap = hostileUser(store, next, 'trap.member', 'Trap Member');
  return { demo, twoFa, member, payload, named, trap };
}

function organisations(store: Store, next: Next, creator: User): { main: number; second: number } {
  const text = (): Record<string, { title: string; description: string }> =>
    Object.fromEntries(COMPONENTS.map((c) => [c.name, { title: `${c.title} ${next()}`, description: next() }]));
  const custom = (): Record<string, string> => Object.fromEntries(CUSTOM_NAME_KEYS.map((k) => [k, next()]));
  const account = (name: string, friendlyName: string): number => {
    const a = makeAccount(
      store,
      {
        name,
        friendlyName,
        creatorId: creator.id,
        domain: next(),
        mailDomain: next(),
        metadata: { region: next(), note: next() },
        custom: custom(),
        componentText: text(),
      },
      'business',
    );
    Object.assign(a.subscription.billing, { firstName: next(), lastName: next(), address1: next(), city: next() });
    a.subscription.plan = next();
    return a.id;
  };
  return { main: account('constructor', `${next()} Constructor Ltd`), second: account('con', `CON ${next()}`) };
}

function join(store: Store, accountId: number, u: User, permission: AccountPermission, tags: string[]): void {
  store.addMembership({
    accountId,
    userId: u.id,
    permission,
    assignToNewGroupsPermission: 0,
    tags,
    dateCreated: u.dateCreated,
    activationType: 'now',
  });
}

function memberships(store: Store, next: Next, ids: { main: number; second: number }, p: People): void {
  join(store, ids.main, p.demo, 16, [next(), next()]);
  join(store, ids.main, p.twoFa, 4, [next()]);
  join(store, ids.main, p.member, 1, [next(), next()]);
  // Each payload member's tags carry their own payload and the next in turn.
  p.payload.forEach((u, i) => join(store, ids.main, u, i % 3 === 0 ? 4 : 1, [P[PAYLOAD_KINDS[i] ?? 'icons'], next()]));
  for (const u of p.named) join(store, ids.main, u, 1, [next()]);
  join(store, ids.main, p.trap, 1, [next()]);
  join(store, ids.second, p.demo, 16, [next()]);
  join(store, ids.second, p.member, 1, [next()]);
  for (const u of p.payload.slice(0, 3)) join(store, ids.second, u, 1, [next()]);
}

/** Group names stay legal for the API (no slashes or control characters), so a save can send them back. */
const MAIN_GROUPS = [
  'constructor',
  '..',
  '__proto__',
  'toString',
  '.',
  'CON',
  P.icons,
  P.commandRun,
  P.htmlImg,
  P.bidiOverride,
  P.commandDelete,
] as const;
const SECOND_GROUPS = ['hasOwnProperty', 'valueOf'] as const;

function groups(store: Store, next: Next, ids: { main: number; second: number }, p: People): Map<string, Group> {
  const byName = new Map<string, Group>();
  const add = (accountId: number, name: string, members: Array<[User, GroupPermission]>): void => {
    byName.set(
      name,
      makeGroup(
        store,
        {
          accountId,
          name,
          friendlyName: `${name === '.' || name === '..' ? 'Dot' : 'Group'} ${next()}`,
          creatorId: p.demo.id,
        },
        members.map(([u, perm]) => [u.id, perm]),
      ),
    );
  };
  MAIN_GROUPS.forEach((name, i) => {
    const named = p.named[i];
    add(ids.main, name, [
      [p.demo, 16],
      [p.member, i % 2 === 0 ? 4 : 1],
      [p.twoFa, 1],
      ...p.payload.filter((_, j) => (i + j) % 3 === 0).map((u): [User, GroupPermission] => [u, 4]),
      ...(named ? [[named, 1] as [User, GroupPermission]] : []),
    ]);
  });
  for (const name of SECOND_GROUPS)
    add(ids.second, name, [
      [p.demo, 16],
      [p.member, 4],
    ]);
  return byName;
}

function fileTree(next: Next): FileSpec[] {
  const file = (name: string): FileSpec => ({
    name,
    text: `Hostile file ${name}\n${next()}\n`,
    description: next(),
    tags: `${next()},${next()}`,
  });
  const folder = (name: string, children: FileSpec[]): FileSpec => ({
    name,
    description: next(),
    tags: next(),
    children,
  });
  return [
    folder('..', [folder('.', [file('..'), file('CON')])]),
    folder('CON', [file('CON .txt'), file('COM¹'), file('CONIN$')]),
    folder(P.commandRun, [file(`${P.icons}.md`)]),
    folder(P.htmlImg, [file(`${P.script}.txt`)]),
    folder(P.bidiOverride, [file(`${P.bidiIsolates}.md`)]),
    file('constructor'),
    file('__proto__'),
    file('toString'),
    file('.'),
    file(LONG_NAME),
    file(`${P.commandDelete}.txt`),
    file(`${P.commandRun}.md`),
    file(`${P.htmlImg}.txt`),
    file(`invoice${P.bidiOverride}`),
  ];
}

function files(store: Store, next: Next, byName: Map<string, Group>, creator: User): void {
  const tree = (groupName: string, specs: FileSpec[]): void => {
    const g = byName.get(groupName);
    if (g) makeTree(store, g.id, 0, specs, creator, SEED_BASE);
  };
  tree('constructor', fileTree(next));
  tree('..', [
    { name: '.', description: next(), children: [{ name: '..', text: `${next()}\n` }] },
    { name: 'constructor', text: `${next()}\n` },
  ]);
  tree('__proto__', [{ name: 'toString', text: `${next()}\n`, description: next() }]);
}

function applications(store: Store, next: Next, owner: User): void {
  const app = (clientId: string, name: string, platform: string, deviceType: string): void => {
    const a: Application = {
      clientId,
      clientSecret: `hostile-secret-${clientId.length}-${name.length}`,
      ownerId: owner.id,
      name,
      description: next(),
      platform,
      deviceType,
      deviceModel: next(),
      deviceOs: next(),
      appVersion: next(),
      bundleId: next(),
      deviceToken: null,
      lastActivity: SEED_BASE - DAY,
      ip: '127.0.0.1',
      dateCreated: SEED_BASE - 20 * DAY + name.length,
      scope: ['read', 'write'],
    };
    store.addApplication(a);
  };
  // Client ids are server strings too: they end up as map keys and in paths.
  app('constructor', `${P.commandRun} Sync`, 'SYNC', 'Other');
  app('__proto__', `${P.script} ${P.icons}`, 'IOS', 'Phone');
}

function quirks(ids: { main: number; second: number }, byName: Map<string, Group>): Quirks {
  const member = `/accounts/${ids.main}/members/trap.member`;
  const saveGroup = byName.get(P.icons);
  return {
    errors: [
      { method: 'DELETE', path: `/v3${member}`, code: 'forbidden', message: ERROR_WITH_LINK },
      { method: 'PATCH', path: `/v3${member}`, code: 'forbidden', message: ERROR_WITH_LINK },
      { method: 'DELETE', path: `/v2${member}`, code: 'forbidden', message: ERROR_WITH_LINK },
      { method: 'POST', path: `/v2${member}`, code: 'forbidden', message: ERROR_WITH_LINK },
      ...(saveGroup
        ? [
            {
              method: 'POST',
              path: `/v2/accounts/${ids.main}/groups/${saveGroup.id}`,
              code: 'conflict' as const,
              message: CONFLICT_WITH_LINK,
            },
          ]
        : []),
      { method: 'PATCH', path: '/v3/applications/__proto__', code: 'forbidden', message: ERROR_WITH_LINK },
    ],
    // The second organisation, so the first stays usable for the traps: its members list is the oversized answer.
    oversized: [{ path: `/v3/accounts/${ids.second}/members`, factor: 10 }],
  };
}

/** A folder Git takes for a repository: HEAD, objects/ and refs/ beside the trapped config. */
function gitFolder(name: string): FileSpec {
  return {
    name,
    children: [
      { name: 'config', text: GIT_CONFIG_TRAP },
      { name: 'HEAD', text: 'ref: refs/heads/main\n' },
      { name: 'objects', children: [{ name: 'README', text: 'objects\n' }] },
      { name: 'refs', children: [{ name: 'README', text: 'refs\n' }] },
    ],
  };
}

/**
 * Group `.git` (its friendly name too): downloaded whole into a repository's root it would be that repository's
 * `.git`; its folder `project` holds a working `.git`, a `.VSCODE/tasks.json` that runs on folder open, the same
 * folders spelt as other systems also take them, and a file `.git` pointing Git at the planted one. Added after
 * everything else, so the ids and payloads of the rest of the seed stay as they were.
 */
function toolFolders(store: Store, next: Next, ids: { main: number }, p: People): void {
  const g = makeGroup(
    store,
    { accountId: ids.main, name: TOOL_FOLDER_GROUP, friendlyName: TOOL_FOLDER_GROUP, creatorId: p.demo.id },
    [
      [p.demo.id, 16],
      [p.member.id, 1],
    ],
  );
  const root = gitFolder('root');
  makeTree(
    store,
    g.id,
    0,
    [
      ...(root.children ?? []),
      {
        name: 'project',
        description: next(),
        children: [
          gitFolder('.git'),
          { name: '.VSCODE', children: [{ name: 'tasks.json', text: TASKS_TRAP }] },
          { name: '.Git.', children: [{ name: 'config', text: GIT_CONFIG_TRAP }] },
          { name: '.vscode ', children: [{ name: 'tasks.json', text: TASKS_TRAP }] },
          { name: 'GIT~1', children: [{ name: 'config', text: GIT_CONFIG_TRAP }] },
          { name: 'vscode~2', children: [{ name: 'settings.json', text: '{}\n' }] },
          { name: 'linked', children: [{ name: '.git', text: 'gitdir: ../.git\n' }] },
          { name: 'README.md', text: `# Project\n${next()}\n` },
        ],
      },
    ],
    p.demo,
    SEED_BASE,
  );
}

/** Members whose names hide a formula after a separator some spreadsheet splits on. */
function formulaMembers(store: Store, next: Next, ids: { main: number }): void {
  FORMULA_NAMES.forEach((name, i) =>
    join(store, ids.main, hostileUser(store, next, `formula.${i + 1}`, name), 1, [next()]),
  );
}

export function hostileSeed(): Store {
  const store = new Store();
  const next = payloadRotation();
  const p = people(store, next);
  const ids = organisations(store, next, p.demo);
  memberships(store, next, ids, p);
  const byName = groups(store, next, ids, p);
  files(store, next, byName, p.demo);
  applications(store, next, p.demo);
  store.quirks = quirks(ids, byName);
  toolFolders(store, next, ids, p);
  formulaMembers(store, next, ids);
  return store;
}
