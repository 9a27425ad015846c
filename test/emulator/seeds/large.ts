// The large seed: sizes from options, for paging, search and benchmark work. Records only; file
// bytes are generated on download.
import { FOLDER, type FileRecord, type GroupPermission } from '../model';
import { intBetween, mulberry32, pick } from '../prng';
import { hashPassword } from '../secrets';
import { Store } from '../store';
import { DEFAULT_LARGE, type LargeSeedOptions } from '../types';
import { largeAccess } from './access';
import { ACTIVITY_BASE, DAY, DEMO_PASSWORD, SEED_BASE, makeAccount, makeGroup, makeUser } from './common';

const FIRST = [
  'Ada',
  'Ben',
  'Cleo',
  'Dev',
  'Eva',
  'Finn',
  'Gia',
  'Hugo',
  'Iris',
  'Jack',
  'Kira',
  'Leo',
  'Mila',
  'Noah',
  'Omar',
  'Pia',
  'Ravi',
  'Sara',
  'Theo',
  'Uma',
  'Vera',
  'Wim',
  'Xena',
  'Yuri',
  'Zoe',
];
const LAST = [
  'Adler',
  'Baker',
  'Cole',
  'Diaz',
  'Ellis',
  'Ford',
  'Gray',
  'Hale',
  'Irwin',
  'Jones',
  'King',
  'Lane',
  'Moss',
  'Nash',
  'Owen',
  'Park',
  'Quinn',
  'Reed',
  'Shaw',
  'Tate',
];
const TAGS = ['alpha', 'beta', 'gamma', 'delta', 'remote', 'office', 'contractor', 'lead'];
const EXTENSIONS = ['txt', 'md', 'csv', 'json', 'png', 'pdf'];
const CONTENT_TYPE: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  png: 'image/png',
  pdf: 'application/pdf',
};

export function largeSeed(options: LargeSeedOptions = {}): Store {
  const size = { ...DEFAULT_LARGE, ...options };
  const store = new Store();
  const rng = mulberry32(424242);
  const demo = makeUser(store, { username: 'demo', name: 'Dana Demo', email: 'demo@bigcorp.example' });
  const twoFa = makeUser(store, {
    username: 'demo-2fa',
    name: 'Tomás Twofactor',
    email: 'demo-2fa@bigcorp.example',
    twoFactorCode: '123456',
    twoFactorMode: 'Authenticator',
  });
  const member = makeUser(store, {
    username: 'member',
    name: 'Mia Member',
    email: 'member@bigcorp.example',
    dateFormat: false,
  });
  const account = makeAccount(store, { name: 'bigcorp', friendlyName: 'BigCorp International', creatorId: demo.id });
  const join = (userId: number, permission: 1 | 4 | 16, tags: string[] = []): void =>
    store.addMembership({
      accountId: account.id,
      userId,
      permission,
      assignToNewGroupsPermission: 0,
      tags,
      dateCreated: SEED_BASE - DAY,
      activationType: 'now',
    });
  join(demo.id, 16);
  join(twoFa.id, 4);
  join(member.id, 1);

  // Generated users skip makeUser's per-field spreading cost only where it matters: the hash.
  const memberIds: number[] = [];
  for (let i = 0; i < size.members; i++) {
    const first = FIRST[i % FIRST.length] ?? 'Ann';
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length] ?? 'Lee';
    const username = `${first}.${last}.${i}`.toLowerCase();
    const id = store.newId('user');
    makeUser(
      store,
      {
        id,
        username,
        name: `${first} ${last} ${i}`,
        email: `${username}@bigcorp.example`,
        lastActive: rng() < 0.9 ? ACTIVITY_BASE - intBetween(rng, 0, 365) * DAY : null,
        dateCreated: SEED_BASE - intBetween(rng, 1, 1000) * DAY,
        passwordHash: hashPassword(id, DEMO_PASSWORD),
      },
      null,
    );
    join(
      id,
      i % 500 === 0 ? 16 : i % 50 === 0 ? 4 : 1,
      TAGS.filter(() => rng() < 0.15),
    );
    memberIds.push(id);
  }

  const groupIds: number[] = [];
  for (let g = 0; g < size.groups; g++) {
    const members: Array<[number, GroupPermission]> =
      g === 0
        ? [
            [demo.id, 16],
            [twoFa.id, 4],
            [member.id, 4],
          ]
        : [[demo.id, 16]];
    groupIds.push(
      makeGroup(
        store,
        {
          accountId: account.id,
          name: g === 0 ? 'bulk' : `group-${String(g).padStart(4, '0')}`,
          friendlyName: g === 0 ? 'Bulk files' : `Group ${g}`,
          creatorId: demo.id,
        },
        members,
      ).id,
    );
  }
  // Every generated member joins one group; the first thousand also join the bulk group.
  for (let i = 0; i < memberIds.length; i++) {
    const userId = memberIds[i] ?? 0;
    const groupId = groupIds[i % Math.max(1, groupIds.length)];
    const group = groupId === undefined ? undefined : store.groups.get(groupId);
    group?.members.set(userId, pick(rng, [1, 4, 4, 16] as const));
    if (i < 1000) store.groups.get(groupIds[0] ?? 0)?.members.set(userId, 1);
  }

  varyAccess(store, account.id, memberIds, groupIds);

  const bulk = groupIds[0];
  if (bulk !== undefined) store.addFiles(bulkFiles(store, bulk, demo.id, size.files, size.folderDepth, rng));
  // Its own generator, so every value drawn above stays as it was.
  if (bulk !== undefined)
    largeAccess(
      store,
      { accountId: account.id, sharerId: demo.id, bulkGroup: bulk, groupIds, memberIds, rng: mulberry32(515) },
      size,
    );
  store.bump();
  return store;
}

/**
 * What an access review looks for: members in more than one group (at mixed levels), and some disabled, locked,
 * pending activation or with two-factor on. From its own generator, so every value drawn above stays as it was.
 */
function varyAccess(store: Store, accountId: number, memberIds: readonly number[], groupIds: readonly number[]): void {
  const rng = mulberry32(0x2100_5eed);
  const levels = [1, 4, 4, 16] as const;
  for (let i = 0; i < memberIds.length; i++) {
    const userId = memberIds[i] ?? 0;
    const extraGroups = rng() < 0.4 ? (rng() < 0.25 ? 2 : 1) : 0;
    for (let k = 1; k <= extraGroups && groupIds.length > 1; k++) {
      const groupId = groupIds[(i + k * 97) % groupIds.length] ?? 0;
      const group = store.groups.get(groupId);
      if (group && !group.members.has(userId)) group.members.set(userId, pick(rng, levels));
    }
    const user = store.users.get(userId);
    const state = rng();
    if (user && state < 0.03) user.enabled = false;
    else if (user && state < 0.05) {
      user.locked = true;
      user.pendingUnlock = true;
    }
    if (user && rng() < 0.2) {
      user.twoFactorCode = '123456';
      user.twoFactorMode = 'Authenticator';
    }
    const membership = store.membership(accountId, userId);
    if (membership && rng() < 0.02) membership.activationType = SEED_BASE + 30 * DAY;
  }
}

function bulkFiles(
  store: Store,
  groupId: number,
  creatorId: number,
  count: number,
  depth: number,
  rng: () => number,
): FileRecord[] {
  const out: FileRecord[] = [];
  const record = (parentId: number, name: string, contentType: string, fileSize: number): FileRecord => {
    const f: FileRecord = {
      id: store.newId('file'),
      groupId,
      parentId,
      name,
      description: null,
      contentType,
      size: fileSize,
      creatorId,
      uploaderName: 'Dana Demo',
      versions: 1,
      sharing: 'NONE',
      memberPermission: 4,
      hidden: false,
      tags: null,
      locked: false,
      lockerId: null,
      dateLocked: null,
      dateCreated: SEED_BASE - 400 * DAY,
      lastModified: SEED_BASE - Math.floor(rng() * 365 * DAY),
    };
    out.push(f);
    return f;
  };
  for (let i = 1; i <= count; i++) {
    const ext = EXTENSIONS[i % EXTENSIONS.length] ?? 'txt';
    const contentType = CONTENT_TYPE[ext] ?? 'text/plain';
    const min = ext === 'png' ? 100 : ext === 'pdf' ? 200 : 1;
    record(0, `file-${String(i).padStart(5, '0')}.${ext}`, contentType, min + Math.floor(rng() * 200_000));
  }
  // A binary tree of folders, `depth` levels deep, with two small files in each folder.
  const grow = (parentId: number, level: number, label: string): void => {
    if (level > depth) return;
    for (let b = 1; b <= 2; b++) {
      const name = `${label}${b}`;
      const folder = record(parentId, `folder-${name}`, FOLDER, 0);
      record(folder.id, `notes-${name}.md`, 'text/markdown', 1 + Math.floor(rng() * 4000));
      record(folder.id, `data-${name}.csv`, 'text/csv', 1 + Math.floor(rng() * 4000));
      grow(folder.id, level + 1, `${name}.`);
    }
  };
  grow(0, 1, '');
  return out;
}
