/**
 * Snapshots of members about to be deleted for good (a removal from their last organisation deletes the user):
 * profile, tags, account permission and group permissions, as JSON in a folder the user chose. Re-creating brings
 * back everything but the password, through a plan of its own (so it is journaled and undoable like any apply).
 */
import type { V2Api, V3Api } from '../../../../api/index';
import type { MemberSnapshot, Plan, PortalGroup } from './model';

/** What taking a snapshot needs of a PortalClient. */
export interface SnapshotClient {
  readonly v3: { readonly members: Pick<V3Api['members'], 'get'> };
  readonly v2: { readonly members: Pick<V2Api['members'], 'get'> };
}

/** Reads the member (v3 and v2 reads) into a snapshot. */
export async function takeSnapshot(
  client: SnapshotClient,
  accountId: number,
  username: string,
  groups: readonly PortalGroup[],
  options: { readonly signal?: AbortSignal; readonly now?: number } = {},
): Promise<MemberSnapshot> {
  void client;
  void accountId;
  void username;
  void groups;
  void options;
  throw new Error('not yet');
}

/** Writes the snapshot as `<folder>/<account>-<username>-<time>.json` (atomically); returns the file. */
export async function writeSnapshot(folder: string, snapshot: MemberSnapshot): Promise<string> {
  void folder;
  void snapshot;
  throw new Error('not yet');
}

/** Reads a snapshot file; throws 'invalid-input' for a file that is not one. */
export async function readSnapshot(file: string): Promise<MemberSnapshot> {
  void file;
  throw new Error('not yet');
}

/** Snapshots in a folder, newest first. */
export async function listSnapshots(
  folder: string,
): Promise<Array<{ readonly file: string; readonly snapshot: MemberSnapshot }>> {
  void folder;
  throw new Error('not yet');
}

/**
 * The plan that re-creates the member: one new member with the snapshot's profile, tags, permission and the
 * groups that still exist (matched by id, then by name). Activation e-mail now.
 */
export function recreatePlan(snapshot: MemberSnapshot, groups: readonly PortalGroup[], now: number = Date.now()): Plan {
  void snapshot;
  void groups;
  void now;
  throw new Error('not yet');
}
