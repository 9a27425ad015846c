/**
 * One organisation's access matrix in memory: members as compact rows (see shared/accessRow.ts), group names and
 * tags interned once, so 20,000 members in 500 groups take a few megabytes. Which rows are stale is a question of
 * their read time; the reader decides what to read, the journal what is kept on disk. No VS Code here.
 */
import { levelCode, ROW, type WireRow } from '../../../../shared/accessRow';
import type { OutsidersRecord, SignInRecord } from '../outsiders/outsiders.protocol';

/** What the v3 member list says of a member (one page row), before its groups are read. */
export interface ListedMember {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly tags: readonly string[];
  readonly permission: number | null;
  readonly lastActive: number | null;
  /** FLAG bits (shared/memberStates.ts). */
  readonly flags: number;
}

/** The same as a small array, as the journal writes it. */
export type ListedTuple = [string, string, string, string[], number, number, number];

export function listedTuple(m: ListedMember): ListedTuple {
  return [m.username, m.name, m.email, [...m.tags], m.permission ?? 0, m.lastActive ?? -1, m.flags];
}

export function listedOf(t: unknown): ListedMember | undefined {
  if (!Array.isArray(t) || t.length < 7) return undefined;
  const [username, name, email, tags, permission, lastActive, flags] = t as unknown[];
  if (typeof username !== 'string' || !username) return undefined;
  return {
    username,
    name: typeof name === 'string' ? name : username,
    email: typeof email === 'string' ? email : '',
    tags: Array.isArray(tags) ? tags.filter((x): x is string => typeof x === 'string') : [],
    permission: typeof permission === 'number' ? permission : null,
    lastActive: typeof lastActive === 'number' && lastActive >= 0 ? lastActive : null,
    flags: typeof flags === 'number' ? flags : 0,
  };
}

/** A group map as the v2 member read gives it: group name → permission. */
export type GroupMap = Readonly<Record<string, number>>;

export class AccessMatrix {
  readonly columns: string[] = [];
  private readonly columnIndex = new Map<string, number>();
  readonly tags: string[] = [];
  private readonly tagIndex = new Map<string, number>();
  private readonly rows = new Map<string, WireRow>();
  private nextId = 1;
  /** Group name (lower case) → the name people know the group by; when they were read (0: never). */
  private readonly friendly = new Map<string, string>();
  namesAt = 0;
  /** When the member list was last walked to its end (0: never); `listLimit` when only the first members were. */
  listedAt = 0;
  listLimit: number | undefined;
  /** The guests and pending invitations as last read (observed endpoints), and the members' sign-ins. */
  outsiders: OutsidersRecord | undefined;
  signIns: SignInRecord | undefined;

  get size(): number {
    return this.rows.size;
  }

  all(): IterableIterator<WireRow> {
    return this.rows.values();
  }

  row(username: string): WireRow | undefined {
    return this.rows.get(username);
  }

  /** Rows read before `cutoff` (or never), in list order. */
  staleRows(cutoff: number): WireRow[] {
    const out: WireRow[] = [];
    for (const row of this.rows.values()) if (row[ROW.readAt] < cutoff) out.push(row);
    return out;
  }

  /** The earliest read time among the read rows (0 when none is read). */
  oldestRead(): number {
    let oldest = 0;
    for (const row of this.rows.values()) {
      const at = row[ROW.readAt];
      if (at > 0 && (oldest === 0 || at < oldest)) oldest = at;
    }
    return oldest;
  }

  readCount(): number {
    let n = 0;
    for (const row of this.rows.values()) if (row[ROW.readAt] > 0) n++;
    return n;
  }

  /** Adds the member or refreshes what the list says of them; their cells stay. */
  upsert(m: ListedMember): WireRow {
    const tags = m.tags.map((t) => this.intern(this.tags, this.tagIndex, t));
    const existing = this.rows.get(m.username);
    if (existing) {
      existing[ROW.name] = m.name;
      existing[ROW.email] = m.email;
      existing[ROW.tags] = tags;
      existing[ROW.permission] = m.permission ?? 0;
      existing[ROW.lastActive] = m.lastActive ?? -1;
      existing[ROW.flags] = m.flags;
      return existing;
    }
    const row: WireRow = [
      this.nextId++,
      m.username,
      m.name,
      m.email,
      tags,
      m.permission ?? 0,
      m.lastActive ?? -1,
      m.flags,
      [],
      0,
    ];
    this.rows.set(m.username, row);
    return row;
  }

  /** The member's groups as read at `at`. */
  setGroups(username: string, groups: GroupMap, at: number): WireRow | undefined {
    const row = this.rows.get(username);
    if (!row) return undefined;
    const cells: number[] = [];
    for (const [name, permission] of Object.entries(groups)) {
      const level = levelCode(permission);
      if (level === 0) continue;
      cells.push(this.intern(this.columns, this.columnIndex, name), level);
    }
    row[ROW.cells] = cells;
    row[ROW.readAt] = at;
    return row;
  }

  /** The read member's groups by name (for the journal). */
  groupsOf(row: WireRow): Record<string, number> {
    const out: Record<string, number> = {};
    const cells = row[ROW.cells];
    for (let i = 0; i + 1 < cells.length; i += 2) {
      const name = this.columns[cells[i] ?? -1];
      const level = cells[i + 1] ?? 0;
      if (name !== undefined) out[name] = [0, 1, 4, 16][level] ?? 0;
    }
    return out;
  }

  listedOf(row: WireRow): ListedMember {
    return {
      username: row[ROW.username],
      name: row[ROW.name],
      email: row[ROW.email],
      tags: row[ROW.tags].map((i) => this.tags[i] ?? ''),
      permission: row[ROW.permission],
      lastActive: row[ROW.lastActive] >= 0 ? row[ROW.lastActive] : null,
      flags: row[ROW.flags],
    };
  }

  /** The member's groups are to be read again (their cells stay until then). */
  markStale(username: string): WireRow | undefined {
    const row = this.rows.get(username);
    if (row) row[ROW.readAt] = 0;
    return row;
  }

  remove(username: string): WireRow | undefined {
    const row = this.rows.get(username);
    if (row) this.rows.delete(username);
    return row;
  }

  /** A complete walk of the list ended: members it did not see have left the organisation. Answers their ids. */
  keepOnly(seen: ReadonlySet<string>): number[] {
    const gone: number[] = [];
    for (const [username, row] of this.rows) {
      if (seen.has(username)) continue;
      this.rows.delete(username);
      gone.push(row[ROW.id]);
    }
    return gone;
  }

  /** The groups' friendly names as the portal's group list gave them (group name → friendly name). */
  setNames(names: Readonly<Record<string, string>>, at: number): void {
    this.friendly.clear();
    for (const [name, friendly] of Object.entries(names)) if (friendly) this.friendly.set(name.toLowerCase(), friendly);
    this.namesAt = at;
  }

  /** Every group's friendly name known, by group name (for the journal). */
  names(): Record<string, string> {
    return Object.fromEntries(this.friendly);
  }

  /** What a column is called where people read it: the group's friendly name, else its name. */
  label(column: number): string {
    const name = this.columns[column] ?? '';
    return this.friendly.get(name.toLowerCase()) ?? name;
  }

  /** The column of a group name, if any member read so far is in it. Case-insensitive, as the portal's names are. */
  columnOf(name: string): number | undefined {
    const exact = this.columnIndex.get(name);
    if (exact !== undefined) return exact;
    const lower = name.toLowerCase();
    const i = this.columns.findIndex((c) => c.toLowerCase() === lower);
    return i >= 0 ? i : undefined;
  }

  /** The column of a group, made now if no member read so far is in it (a group's list opened before its read). */
  ensureColumn(name: string): number {
    return this.columnOf(name) ?? this.intern(this.columns, this.columnIndex, name);
  }

  private intern(list: string[], index: Map<string, number>, value: string): number {
    let i = index.get(value);
    if (i === undefined) {
      i = list.length;
      list.push(value);
      index.set(value, i);
    }
    return i;
  }
}
