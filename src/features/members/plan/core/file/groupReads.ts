/**
 * Whose groups the portal must be read for to plan a file: what the file side knows without the portal's client,
 * so the planning worker can answer it.
 */
import { desiredRows } from './desiredRows';
import { groupDigest } from './membersFile';
import { signInChanges } from './diagnose';
import { holdsPower } from '../elevation';
import type { MembersFile, PortalMember } from '../model';

/**
 * Lower-case usernames whose groups must be read to plan `file`: rows with group cells, on the portal, whose
 * cells no longer match their `groupDigest` (or have none). A row whose cells still match asks no group change,
 * so its member's groups do not matter to the plan, whatever `lastModified` says; a row that does change a group
 * is read, and its member's groups read now are compared with the digest (a conflict when they moved). A row that
 * would hand over a member's sign-in (a new e-mail, two-factor off, enabled, unlocked) is read too, unless the
 * member's organisation permission already makes them an administrator: an Administrator of a group is one.
 */
export function groupReadsNeeded(file: MembersFile, members: ReadonlyMap<string, PortalMember>): string[] {
  const out = new Set<string>();
  for (const row of desiredRows(file).rows) {
    const key = row.username.toLowerCase();
    const portal = key ? members.get(key) : undefined;
    if (!portal || out.has(key)) continue;
    if (!holdsPower(portal.accountPermission, []) && signInChanges(row, portal).length > 0) out.add(key);
    else if (file.groupColumns.length === 0) continue;
    else if (row.groupDigest === undefined || groupDigest(row.groups) !== row.groupDigest) out.add(key);
  }
  return [...out];
}

/** Whether any member's groups may need reading for `file`: it has group columns, or columns that hand over a sign-in. */
export function mayReadGroups(file: MembersFile): boolean {
  return file.groupColumns.length > 0 || SIGN_IN_COLUMNS.some((c) => file.columns.has(c));
}

const SIGN_IN_COLUMNS = ['email', 'twoFactor', 'enabled', 'locked'] as const;
