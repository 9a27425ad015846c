/**
 * The activity filter as a walk of the portal's member list: the portal has no query parameter for it, so the
 * Members view and the CSV export both walk the list and check the rows here, and the export writes what the view shows.
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
