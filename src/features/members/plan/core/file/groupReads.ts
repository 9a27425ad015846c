/**
 * Whose groups the portal must be read for to plan a file: what the file side knows without the portal's client,
 * so the planning worker can answer it.
 */
import { desiredRows } from './desiredRows';
import { groupDigest } from './membersFile';
import type { MembersFile, PortalMember } from '../model';

/**
 * Lower-case usernames whose groups must be read to plan `file`: rows with group cells, on the portal, whose
 * cells no longer match their `groupDigest` (or have none). A row whose cells still match asks no group change,
 * so its member's groups do not matter to the plan, whatever `lastModified` says; a row that does change a group
 * is read, and its member's groups read now are compared with the digest (a conflict when they moved).
 */
export function groupReadsNeeded(file: MembersFile, members: ReadonlyMap<string, PortalMember>): string[] {
  if (file.groupColumns.length === 0) return [];
  const out = new Set<string>();
  for (const row of desiredRows(file).rows) {
    const key = row.username.toLowerCase();
    if (!key || !members.has(key) || out.has(key)) continue;
    if (row.groupDigest !== undefined && groupDigest(row.groups) === row.groupDigest) continue;
    out.add(key);
  }
  return [...out];
}
