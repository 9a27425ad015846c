// Guest shares, invitations and sign-in events for the seeds (observed endpoints; see guests.ts).
import type { AuditEvent, GuestShare, Invite } from '../guests';
import { FOLDER, type Account, type User } from '../model';
import { intBetween, pick, type Rng } from '../prng';
import type { Store } from '../store';
import { ACTIVITY_BASE, DAY, SEED_BASE } from './common';

/** Expiry dates are counted from the day the seed is built (like activity), so "expired" stays true whenever it runs. */
const FUTURE = ACTIVITY_BASE + 60 * DAY;

function fileNamed(store: Store, groupId: number, name: string): number {
  for (const f of store.filesOf(groupId)) if (f.name === name) return f.id;
  throw new Error(`demo seed: no file ${name} in group ${groupId}`);
}

function invite(store: Store, fields: Omit<Invite, 'id' | 'type'>): void {
  store.access.invites.push({ id: store.access.nextInviteId++, type: 'ACCEPT_DECLINE', ...fields });
}

const parameters = (mask: number, groups: Record<number, number>): string =>
  JSON.stringify({ mask, groups, extras: {} });

/**
 * Acme's guests: one with no expiry and no password, one expired, one that can edit, one password-protected that
 * expires later; two pending invitations and one accepted; logins and a sign-up over the last weeks. Globex's package
 * withholds guests, invitations and the audit, so a super administrator there is refused (403).
 */
export function demoAccess(
  store: Store,
  o: {
    acme: Account;
    globex: Account;
    demo: User;
    member: User;
    others: readonly User[];
    groups: Record<string, number>;
  },
): void {
  o.globex.withheldCapabilities = [
    'GUESTS',
    'GUESTS_UPDATE',
    'GUESTS_DELETE',
    'INVITES',
    'INVITES_CREATE',
    'INVITES_UPDATE',
    'INVITES_DELETE',
    'AUDIT',
    'AUDIT_EXPORT',
    'AUDIT_METRICS',
  ];
  const engineering = o.groups.engineering ?? 0;
  const marketing = o.groups.marketing ?? 0;
  const handbook = o.groups.handbook ?? 0;
  const share = (fields: Omit<GuestShare, 'accountId' | 'notifications' | 'component'> & Partial<GuestShare>): void => {
    store.access.shares.push({ accountId: o.acme.id, notifications: true, component: 'files', ...fields });
  };
  share({
    userId: o.demo.id,
    groupId: handbook,
    fileId: fileNamed(store, handbook, 'welcome.md'),
    email: 'auditor@kpmg-audit.example',
    permission: 1,
    dateCreated: SEED_BASE - 40 * DAY,
    dateExpire: null,
    passwordEnabled: false,
  });
  share({
    userId: o.demo.id,
    groupId: marketing,
    fileId: fileNamed(store, marketing, 'budget.csv'),
    email: 'agency@brightside.example',
    permission: 2,
    dateCreated: SEED_BASE - 90 * DAY,
    dateExpire: SEED_BASE - 30 * DAY,
    passwordEnabled: true,
    notifications: false,
  });
  share({
    userId: o.member.id,
    groupId: engineering,
    fileId: fileNamed(store, engineering, 'architecture.md'),
    email: 'contractor@devshop.example',
    permission: 4,
    dateCreated: SEED_BASE - 12 * DAY,
    dateExpire: null,
    passwordEnabled: false,
  });
  share({
    userId: o.demo.id,
    groupId: marketing,
    fileId: fileNamed(store, marketing, 'guidelines.pdf'),
    email: 'printer@presshouse.example',
    permission: 2,
    dateCreated: SEED_BASE - 5 * DAY,
    dateExpire: FUTURE,
    passwordEnabled: true,
  });
  invite(store, {
    accountId: o.acme.id,
    inviterId: o.demo.id,
    targetName: 'new.starter@acme.example',
    parameters: parameters(1, { [engineering]: 4, [handbook]: 1 }),
    status: 'NONE',
    dateCreated: SEED_BASE - 3 * DAY,
  });
  invite(store, {
    accountId: o.acme.id,
    inviterId: o.demo.id,
    targetName: 'board.observer@acme.example',
    parameters: parameters(4, { [handbook]: 1 }),
    status: 'NONE',
    dateCreated: SEED_BASE - 45 * DAY,
  });
  invite(store, {
    accountId: o.acme.id,
    inviterId: o.demo.id,
    targetName: 'joined.already@acme.example',
    parameters: parameters(1, { [marketing]: 1 }),
    status: 'ACCEPTED',
    dateCreated: SEED_BASE - 60 * DAY,
  });
  const login = (user: User, daysAgo: number, event: AuditEvent['event'] = 'login'): void => {
    store.access.audit.push({
      accountId: o.acme.id,
      userId: user.id,
      event,
      date: ACTIVITY_BASE - daysAgo * DAY + 9 * 3_600_000,
      ip: `192.0.2.${(user.id % 200) + 1}`,
    });
  };
  login(o.demo, 1);
  login(o.demo, 3);
  login(o.member, 2);
  login(o.member, 40);
  for (const [i, u] of o.others.slice(0, 6).entries()) login(u, 5 + i * 9);
  const newcomer = o.others[7];
  if (newcomer) login(newcomer, 4, 'signup');
}

/** Bounded like every large-seed size: a typo cannot make the emulator allocate without end. */
const MAX_GENERATED = 100_000;

/** `count` guest shares of `bulk`'s files and `invites` invitations, from their own generator. */
export function largeAccess(
  store: Store,
  o: {
    accountId: number;
    sharerId: number;
    bulkGroup: number;
    groupIds: readonly number[];
    memberIds: readonly number[];
    rng: Rng;
  },
  counts: { guestShares: number; invites: number; signIns?: number },
): void {
  const files = store.filesOf(o.bulkGroup).filter((f) => f.contentType !== FOLDER);
  const shares = Math.min(MAX_GENERATED, counts.guestShares);
  for (let i = 0; i < shares && files.length > 0; i++) {
    const file = files[i % files.length];
    if (!file) break;
    const created = SEED_BASE - intBetween(o.rng, 1, 700) * DAY;
    const expiry = o.rng();
    store.access.shares.push({
      accountId: o.accountId,
      userId: o.sharerId,
      groupId: o.bulkGroup,
      fileId: file.id,
      email: `guest.${i}@partner${i % 97}.example`,
      permission: pick(o.rng, [1, 1, 2, 2, 4, 8] as const),
      dateCreated: created,
      dateExpire: expiry < 0.4 ? null : expiry < 0.7 ? created + 30 * DAY : FUTURE + intBetween(o.rng, 0, 300) * DAY,
      passwordEnabled: o.rng() < 0.5,
      notifications: o.rng() < 0.5,
      component: 'files',
    });
  }
  const invites = Math.min(MAX_GENERATED, counts.invites);
  for (let i = 0; i < invites; i++) {
    const group = o.groupIds[i % Math.max(1, o.groupIds.length)] ?? o.bulkGroup;
    invite(store, {
      accountId: o.accountId,
      inviterId: o.sharerId,
      targetName: `invitee.${i}@bigcorp-new.example`,
      parameters: parameters(pick(o.rng, [1, 1, 1, 4] as const), { [group]: pick(o.rng, [1, 4, 16] as const) }),
      status: i % 10 === 9 ? 'ACCEPTED' : 'NONE',
      dateCreated: SEED_BASE - intBetween(o.rng, 0, 120) * DAY,
    });
  }
  const signIns = Math.min(MAX_GENERATED, counts.signIns ?? 0);
  for (let i = 0; i < signIns && o.memberIds.length > 0; i++) {
    const userId = o.memberIds[i % o.memberIds.length] ?? 0;
    store.access.audit.push({
      accountId: o.accountId,
      userId,
      event: i % 10 === 0 ? 'signup' : 'login',
      date: ACTIVITY_BASE - intBetween(o.rng, 0, 300) * DAY,
      ip: `198.51.100.${(userId % 200) + 1}`,
    });
  }
}
