/**
 * The groups of a few members, for a filter scoped to a group: the access store's reads when they are within the
 * maximum age, else one v2 member read each (the portal lists no group's members), within the request budget and
 * at most `concurrency` at once. Each answer goes into the store and its journal as the matrix's own reads do, so
 * the matrix does not read those members again. No VS Code here.
 */
import { setMaxListeners } from 'node:events';
import { isPortalError, PortalError } from '../../../../api/index';
import { runPool } from '../../../../node/pool';
import type { MemberGroups } from '../../../../shared/activityScan';
import type { MemberRow } from '../../../../shared/members';
import { flagsOf } from '../../../../shared/memberStates';
import type { AccessMatrix, ListedMember } from './accessMatrix';
import type { AccessStoreFile } from './accessStoreFile';
import type { MatrixClient } from './matrixRead';
import { ROW, type WireRow } from '../../../../shared/accessRow';

export interface MemberGroupsOptions {
  readonly signal?: AbortSignal | undefined;
  /** Reads older than this are not trusted: the member is read again. */
  readonly maxAgeMs: number;
  readonly concurrency: number;
  readonly now?: () => number;
  /** A member was read (the matrix panels show the row's new groups). */
  readonly onRow?: (row: WireRow) => void;
}

function listedFromRow(r: MemberRow): ListedMember {
  const { username, name, email, tags, permission, lastActive } = r;
  return { username, name, email, tags, permission, lastActive, flags: flagsOf(r) };
}

const cancelled = () =>
  new PortalError({ kind: 'cancelled', endpoint: '', message: 'Reading the members\u2019 groups was cancelled.' });

export async function readMemberGroups(
  client: Pick<MatrixClient, 'v2'>,
  accountId: number,
  store: { readonly matrix: AccessMatrix; readonly journal: AccessStoreFile },
  rows: readonly MemberRow[],
  o: MemberGroupsOptions,
): Promise<Map<string, MemberGroups>> {
  const { matrix, journal } = store;
  const now = o.now ?? Date.now;
  const cutoff = now() - o.maxAgeMs;
  const out = new Map<string, MemberGroups>();
  const toRead: MemberRow[] = [];
  for (const r of rows) {
    const known = matrix.row(r.username);
    if (known && known[ROW.readAt] >= cutoff) out.set(r.username, matrix.groupsOf(known));
    else toRead.push(r);
  }
  if (o.signal) setMaxListeners(0, o.signal);
  const { notStarted } = await runPool(
    toRead,
    o.concurrency,
    async (r) => {
      let groups: MemberGroups;
      try {
        groups =
          (await client.v2.members.get(accountId, r.username, o.signal ? { signal: o.signal } : {})).groups ?? {};
      } catch (error) {
        // Gone since the list was read: in no group.
        if (isPortalError(error, 'not-found')) return;
        throw error;
      }
      const at = now();
      const listed = listedFromRow(r);
      matrix.upsert(listed);
      const row = matrix.setGroups(r.username, groups, at);
      journal.read(listed, groups, at);
      out.set(r.username, groups);
      if (row) o.onRow?.(row);
    },
    o.signal,
  );
  if (notStarted.length > 0 || o.signal?.aborted) throw cancelled();
  return out;
}
