// The emulator's state and the only code that changes it. Routes validate first and then call
// these methods, so a failed request never leaves a half-written change behind.
import { emptyAccessData, type AccessData } from './guests';
import type { Account, Application, FileRecord, Group, GroupPermission, Membership, Quirks, User } from './model';

export interface NextIds {
  account: number;
  user: number;
  group: number;
  file: number;
}

export interface StoreData {
  users: User[];
  accounts: Account[];
  memberships: Membership[];
  groups: Group[];
  files: FileRecord[];
  applications: Application[];
  nextIds: NextIds;
  /** Absent in data files written before quirks existed. */
  quirks?: Quirks;
  /** Guest shares, invitations and audit events (observed endpoints); absent in older data files. */
  access?: AccessData;
}

/** Derived data (sorted listings, sums) is cached per revision; this bounds the cache between writes. */
const MAX_CACHED = 128;
const EMPTY_SET: ReadonlySet<number> = new Set();

export class Store {
  readonly users = new Map<number, User>();
  readonly accounts = new Map<number, Account>();
  readonly groups = new Map<number, Group>();
  readonly files = new Map<number, FileRecord>();
  readonly applications = new Map<string, Application>();
  quirks: Quirks = { errors: [], oversized: [] };
  /** Guest shares, invitations and sign-in events: only the observed routes read them, only invite creation writes. */
  access: AccessData = emptyAccessData();
  private readonly usernames = new Map<string, number>();
  private readonly emails = new Map<string, number>();
  /** accountId -> userId -> membership */
  private readonly memberships = new Map<number, Map<number, Membership>>();
  private nextIds: NextIds;
  /** Bumped by every data change; caches and persistence key off it. */
  revision = 0;
  private cache = new Map<string, unknown>();
  private cacheRevision = 0;

  constructor(data?: StoreData) {
    this.nextIds = data ? { ...data.nextIds } : { account: 1, user: 1001, group: 101, file: 100001 };
    if (!data) return;
    if (data.quirks) this.quirks = data.quirks;
    if (data.access) this.access = data.access;
    for (const u of data.users) this.putUser(u);
    for (const a of data.accounts) this.accounts.set(a.id, a);
    for (const m of data.memberships) this.putMembership(m);
    for (const g of data.groups) this.groups.set(g.id, g);
    for (const f of data.files) this.files.set(f.id, f);
    for (const app of data.applications) this.applications.set(app.clientId, app);
  }

  snapshot(): StoreData {
    return {
      users: [...this.users.values()],
      accounts: [...this.accounts.values()],
      memberships: [...this.memberships.values()].flatMap((m) => [...m.values()]),
      groups: [...this.groups.values()],
      files: [...this.files.values()],
      applications: [...this.applications.values()],
      nextIds: { ...this.nextIds },
      quirks: this.quirks,
      access: this.access,
    };
  }

  bump(): void {
    this.revision++;
  }

  cached<T>(key: string, compute: () => T): T {
    if (this.cacheRevision !== this.revision || this.cache.size > MAX_CACHED) {
      this.cache = new Map();
      this.cacheRevision = this.revision;
    }
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const value = compute();
    this.cache.set(key, value);
    return value;
  }

  newId(kind: keyof NextIds): number {
    const id = this.nextIds[kind];
    this.nextIds[kind] = id + 1;
    return id;
  }

  // ---- users

  userByUsername(username: string): User | undefined {
    const id = this.usernames.get(username.toLowerCase());
    return id === undefined ? undefined : this.users.get(id);
  }

  userByEmail(email: string): User | undefined {
    const id = this.emails.get(email.toLowerCase());
    return id === undefined ? undefined : this.users.get(id);
  }

  addUser(user: User): User {
    this.putUser(user);
    this.bump();
    return user;
  }

  /** Applies changes, keeping the username and e-mail indexes right. */
  updateUser(user: User, changes: Partial<Omit<User, 'id'>>): void {
    // lastModified only moves forward, one millisecond at least: two changes within a millisecond stay two, so a
    // client comparing it with a baseline sees the second.
    if (changes.lastModified !== undefined && changes.lastModified <= user.lastModified)
      changes = { ...changes, lastModified: user.lastModified + 1 };
    this.usernames.delete(user.username.toLowerCase());
    this.emails.delete(user.email.toLowerCase());
    Object.assign(user, changes);
    this.putUser(user);
    this.bump();
  }

  /** Deletes the user with everything that hangs off them; the caller kills their tokens. */
  deleteUser(userId: number): Application[] {
    const user = this.users.get(userId);
    if (!user) return [];
    this.users.delete(userId);
    this.usernames.delete(user.username.toLowerCase());
    this.emails.delete(user.email.toLowerCase());
    for (const members of this.memberships.values()) members.delete(userId);
    for (const g of this.groups.values()) g.members.delete(userId);
    const apps = [...this.applications.values()].filter((a) => a.ownerId === userId);
    for (const a of apps) this.applications.delete(a.clientId);
    this.bump();
    return apps;
  }

  private putUser(user: User): void {
    this.users.set(user.id, user);
    this.usernames.set(user.username.toLowerCase(), user.id);
    this.emails.set(user.email.toLowerCase(), user.id);
  }

  // ---- memberships

  membership(accountId: number, userId: number): Membership | undefined {
    return this.memberships.get(accountId)?.get(userId);
  }

  membersOf(accountId: number): Membership[] {
    return [...(this.memberships.get(accountId)?.values() ?? [])];
  }

  memberCount(accountId: number): number {
    return this.memberships.get(accountId)?.size ?? 0;
  }

  accountsOf(userId: number): Membership[] {
    const out: Membership[] = [];
    for (const members of this.memberships.values()) {
      const m = members.get(userId);
      if (m) out.push(m);
    }
    return out.sort((a, b) => a.accountId - b.accountId);
  }

  addMembership(m: Membership): void {
    this.putMembership(m);
    this.bump();
  }

  updateMembership(m: Membership, changes: Partial<Omit<Membership, 'accountId' | 'userId'>>): void {
    Object.assign(m, changes);
    this.bump();
  }

  /** Removes the member from the account and all its groups. Returns true when the user has no organisation left. */
  removeMembership(accountId: number, userId: number): boolean {
    this.memberships.get(accountId)?.delete(userId);
    for (const g of this.groups.values()) if (g.accountId === accountId) g.members.delete(userId);
    this.bump();
    return this.accountsOf(userId).length === 0;
  }

  private putMembership(m: Membership): void {
    let members = this.memberships.get(m.accountId);
    if (!members) {
      members = new Map();
      this.memberships.set(m.accountId, members);
    }
    members.set(m.userId, m);
  }

  // ---- accounts

  accountByName(name: string): Account | undefined {
    const lower = name.toLowerCase();
    for (const a of this.accounts.values()) if (a.name.toLowerCase() === lower) return a;
    return undefined;
  }

  addAccount(a: Account): void {
    this.accounts.set(a.id, a);
    this.bump();
  }

  updateAccount(a: Account, changes: Partial<Omit<Account, 'id'>>): void {
    Object.assign(a, changes);
    this.bump();
  }

  // ---- groups

  /** Live (not trashed) groups of an account, by id. */
  groupsOf(accountId: number): Group[] {
    return this.cached(`groups:${accountId}`, () =>
      [...this.groups.values()].filter((g) => g.accountId === accountId && !g.trashed),
    );
  }

  /** Live groups of the account that the user belongs to, from an index built once per revision. */
  groupIdsOf(accountId: number, userId: number): ReadonlySet<number> {
    const index = this.cached(`member-groups:${accountId}`, () => {
      const map = new Map<number, Set<number>>();
      for (const g of this.groupsOf(accountId)) {
        for (const uid of g.members.keys()) {
          let set = map.get(uid);
          if (!set) map.set(uid, (set = new Set()));
          set.add(g.id);
        }
      }
      return map;
    });
    return index.get(userId) ?? EMPTY_SET;
  }

  /** Trashed groups keep their name, so this looks at them too. */
  groupByName(accountId: number, name: string): Group | undefined {
    const lower = name.toLowerCase();
    for (const g of this.groups.values()) if (g.accountId === accountId && g.name.toLowerCase() === lower) return g;
    return undefined;
  }

  addGroup(g: Group): void {
    this.groups.set(g.id, g);
    this.bump();
  }

  updateGroup(g: Group, changes: Partial<Omit<Group, 'id'>>): void {
    Object.assign(g, changes);
    this.bump();
  }

  setGroupMember(g: Group, userId: number, permission: GroupPermission): void {
    g.members.set(userId, permission);
    this.bump();
  }

  removeGroupMember(g: Group, userId: number): void {
    g.members.delete(userId);
    this.bump();
  }

  // ---- files

  /** Every record of a group, folders included; rebuilt once per revision for all groups. */
  filesOf(groupId: number): FileRecord[] {
    const byGroup = this.cached('files-by-group', () => {
      const map = new Map<number, FileRecord[]>();
      for (const f of this.files.values()) {
        let list = map.get(f.groupId);
        if (!list) map.set(f.groupId, (list = []));
        list.push(f);
      }
      return map;
    });
    return byGroup.get(groupId) ?? [];
  }

  /** One pass over all files for every group: per-group keys would thrash the cache with 500 groups. */
  storageOf(groupId: number): number {
    const byGroup = this.cached('storage-by-group', () => {
      const map = new Map<number, number>();
      for (const f of this.files.values()) map.set(f.groupId, (map.get(f.groupId) ?? 0) + f.size);
      return map;
    });
    return byGroup.get(groupId) ?? 0;
  }

  addFiles(files: FileRecord[]): void {
    for (const f of files) this.files.set(f.id, f);
    this.bump();
  }

  // ---- applications

  applicationsOf(userId: number): Application[] {
    return [...this.applications.values()]
      .filter((a) => a.ownerId === userId)
      .sort((a, b) => a.dateCreated - b.dateCreated || a.clientId.localeCompare(b.clientId));
  }

  addApplication(a: Application): void {
    this.applications.set(a.clientId, a);
    this.bump();
  }

  updateApplication(a: Application, changes: Partial<Omit<Application, 'clientId'>>): void {
    Object.assign(a, changes);
    this.bump();
  }

  deleteApplication(clientId: string): void {
    this.applications.delete(clientId);
    this.bump();
  }
}
