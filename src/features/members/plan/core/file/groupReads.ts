/**
 * Whose groups the portal must be read for to plan a file: what the file side knows without the portal's client,
 * so the planning worker can answer it.
 */
import { desiredRows, type DesiredRow } from './desiredRows';
import { groupDigest } from './membersFile';
import { signInChanges } from './diagnose';
import { holdsPower } from '../elevation';
import type { FileWithoutRows, MembersFile, PortalMember } from '../model';

/**
 * Lower-case usernames whose groups must be read to plan `file`: rows with group cells, on the portal, whose
 * cells no longer match their `groupDigest` (or have none). A row whose cells still match asks no group change,
 * so its member's groups do not matter to the plan, whatever `lastModified` says; a row that does change a group
 * is read, and its member's groups read now are compared with the digest (a conflict when they moved). A row that
 * would hand over a member's sign-in (a new e-mail, two-factor off, enabled, unlocked) is read too, unless the
 * member's organisation permission already makes them an administrator: an Administrator of a group is one.
 */
export function groupReadsNeeded(file: MembersFile, members: ReadonlyMap<string, PortalMember>): string[] {
  const reads = new GroupReads(file, members);
  for (const row of desiredRows(file).rows) reads.row(row);
  return reads.usernames();
}

/** groupReadsNeeded a row at a time, for a reader that keeps no rows: the same usernames once it has seen them all. */
export class GroupReads {
  private readonly out = new Set<string>();

  constructor(
    private readonly file: FileWithoutRows,
    private readonly members: ReadonlyMap<string, PortalMember>,
  ) {}

  /** Whether a row of this username can matter: only a member on the portal is read. */
  concerns(username: string): boolean {
    const key = username.toLowerCase();
    return key !== '' && this.members.has(key) && !this.out.has(key);
  }

  row(row: DesiredRow): void {
    const key = row.username.toLowerCase();
    const portal = key ? this.members.get(key) : undefined;
    if (!portal || this.out.has(key)) return;
    if (!holdsPower(portal.accountPermission, []) && signInChanges(row, portal).length > 0) this.out.add(key);
    else if (this.file.groupColumns.length === 0) return;
    else if (row.groupDigest === undefined || groupDigest(row.groups) !== row.groupDigest) this.out.add(key);
  }

  usernames(): string[] {
    return [...this.out];
  }
}

/** Whether any member's groups may need reading for `file`: it has group columns, or columns that hand over a sign-in. */
export function mayReadGroups(file: FileWithoutRows): boolean {
  return file.groupColumns.length > 0 || SIGN_IN_COLUMNS.some((c) => file.columns.has(c));
}

const SIGN_IN_COLUMNS = ['email', 'twoFactor', 'enabled', 'locked'] as const;
