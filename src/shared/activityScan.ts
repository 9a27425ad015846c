/**
 * The activity filter as a walk of the portal's member list: the portal has no query parameter for it, so the
 * Members view and the CSV export both walk the list and check the rows here, and the export writes what the view shows.
 * A filter scoped to a group then asks for the groups of only the rows that met the rest (see keepInGroup).
 */
import { meetsActivity, type MemberQuery, type MemberRow } from './members';

const DAY_MS = 86_400_000;

/**
 * How a walk of the portal's list finds what an activity filter keeps: the query to ask the portal for (the least
 * recently active first when the filter is about activity), which rows it keeps, and the row past which nothing
 * further can match. The view and the CSV export walk the same way, so the export writes what the view shows.
 */
export interface ActivityScan {
  readonly portalQuery: MemberQuery;
  keeps(row: MemberRow): boolean;
  endsAt(row: MemberRow): boolean;
}

export function activityScan(q: MemberQuery, now: number): ActivityScan {
  const f = q.activity ?? {};
  const byActivity = f.inactiveDays !== undefined || f.never === true;
  const cutoff = f.inactiveDays !== undefined ? now - f.inactiveDays * DAY_MS : undefined;
  return {
    portalQuery: byActivity
      ? { ...q, orderBy: 'lastActive', ascending: true, activity: undefined }
      : { ...q, activity: undefined },
    keeps: (row) => meetsActivity(row, f, now),
    // Ordered by last activity: past the cutoff (or past the never-active ones) nothing further can match.
    endsAt: (row) =>
      byActivity && row.lastActive !== null && (f.never === true || (cutoff !== undefined && row.lastActive > cutoff)),
  };
}

/** A member's groups as the v2 member read gives them: group name → permission. */
export type MemberGroups = Readonly<Record<string, number>>;

/**
 * Learns the groups of these members (the access store's reads when fresh, else v2 member reads within the request
 * budget); a member missing from the answer is in no group. Rejects when `signal` aborts.
 */
export type GroupsReader = (
  rows: readonly MemberRow[],
  signal: AbortSignal | undefined,
) => Promise<ReadonlyMap<string, MemberGroups>>;

/** A row kept by a group scope, with the member's permission in that group. */
export interface ScopedRow extends MemberRow {
  readonly groupPermission: number;
}

/**
 * The step after `keeps`: of the rows that met the other conditions (found from the list alone, so cheap), the ones
 * in the group, in the same order. Only these rows' groups are asked for. Without a group scope, the rows as they are.
 */
export async function keepInGroup(
  rows: readonly MemberRow[],
  q: MemberQuery,
  read: GroupsReader | undefined,
  signal?: AbortSignal,
): Promise<readonly MemberRow[]> {
  const group = q.activity?.group;
  if (!group || rows.length === 0) return rows;
  if (!read) throw new Error('A filter scoped to a group needs a reader of the members\u2019 groups.');
  const groups = await read(rows, signal);
  // The portal's group names are case-insensitive.
  const name = group.name.toLowerCase();
  const out: ScopedRow[] = [];
  for (const row of rows) {
    const permission = Object.entries(groups.get(row.username) ?? {}).find(([n]) => n.toLowerCase() === name)?.[1];
    if (permission !== undefined && permission > 0) out.push({ ...row, groupPermission: permission });
  }
  return out;
}

/**
 * Tells which members never signed in since they were invited or created (the access store's sign-ins, read within
 * the budget when not fresh): a test per row, made once per walk.
 */
export type NeverSignedInReader = (signal: AbortSignal | undefined) => Promise<(row: MemberRow) => boolean>;

/** What the steps after `keeps` read: who never signed in, and the members' groups. */
export interface ScopeReaders {
  /** Tells who never signed in, for the "never signed in" filter (required then). */
  readonly neverSignedIn?: NeverSignedInReader | undefined;
  /** Learns members' groups, for a filter scoped to a group (required then). */
  readonly groups?: GroupsReader | undefined;
}

/**
 * Every step after `keeps`, in the order the Members view and its export both take them: of the rows that met the
 * other conditions, those that never signed in (when the filter asks), then those in its group (when it has one).
 */
export async function keepScoped(
  rows: readonly MemberRow[],
  q: MemberQuery,
  read: ScopeReaders,
  signal?: AbortSignal,
): Promise<readonly MemberRow[]> {
  const signedOut = await keepNeverSignedIn(rows, q, read.neverSignedIn, signal);
  return keepInGroup(signedOut, q, read.groups, signal);
}

/**
 * The step beside keepInGroup for the "never signed in" filter: of the rows that met the other conditions, those with
 * no sign-in. The list has no such column, so the view and the export both ask the same reader.
 */
export async function keepNeverSignedIn(
  rows: readonly MemberRow[],
  q: MemberQuery,
  read: NeverSignedInReader | undefined,
  signal?: AbortSignal,
): Promise<readonly MemberRow[]> {
  if (!q.activity?.neverSignedIn || rows.length === 0) return rows;
  if (!read) throw new Error('The "never signed in" filter needs the members\u2019 sign-ins.');
  const never = await read(signal);
  return rows.filter(never);
}
