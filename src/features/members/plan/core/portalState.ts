/**
 * Reads what the plan compares a file with: one walk of the v3 member list, the group list, and v2 member reads
 * (the only read that carries a member's groups, in every portal profile) only for the rows whose groups may
 * change: rows whose group cells differ from their `groupDigest`, rows without one, and conflicting rows.
 */
import type { Member, V2Api, V3Api } from '../../../../api/index';
import type { MembersFile, PortalGroup, PortalMember, PortalState } from './model';

/** What reading the portal needs of a PortalClient. */
export interface PortalStateClient {
  readonly v3: { readonly members: Pick<V3Api['members'], 'page'> };
  readonly v2: {
    readonly groups: Pick<V2Api['groups'], 'list'>;
    readonly members: Pick<V2Api['members'], 'get'>;
  };
}

export interface PortalStateOptions {
  readonly signal?: AbortSignal;
  /** After each page and each group read: what has been read, and the total when known. */
  readonly onProgress?: (progress: {
    readonly requests: number;
    readonly members: number;
    readonly total: number | undefined;
  }) => void;
  /** Group reads at once; default the client's default concurrency. */
  readonly concurrency?: number;
}

/** Reads the organisation's members, groups and, for the rows that need it, members' groups. */
export async function readPortalState(
  client: PortalStateClient,
  accountId: number,
  file: MembersFile | undefined,
  options: PortalStateOptions = {},
): Promise<PortalState> {
  void client;
  void accountId;
  void file;
  void options;
  throw new Error('not yet');
}

/** A v3 member in the file's terms (no groups: those come from a v2 read). */
export function portalMemberOf(member: Member): PortalMember {
  void member;
  throw new Error('not yet');
}

/**
 * Lower-case usernames whose groups must be read to plan `file`: rows with group cells, on the portal, whose
 * cells no longer match their `groupDigest` (or have none), or whose member changed on the portal since the export.
 */
export function groupReadsNeeded(file: MembersFile, members: ReadonlyMap<string, PortalMember>): string[] {
  void file;
  void members;
  throw new Error('not yet');
}

/** The organisation's groups (one request on most portals): for the export's group columns and for diagnostics. */
export async function readGroups(
  client: { readonly v2: { readonly groups: Pick<V2Api['groups'], 'list'> } },
  accountId: number,
  options: { readonly signal?: AbortSignal } = {},
): Promise<PortalGroup[]> {
  void client;
  void accountId;
  void options;
  throw new Error('not yet');
}
