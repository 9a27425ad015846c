/**
 * Snapshots of members about to be deleted for good (a removal from their last organisation deletes the user):
 * profile, tags, account permission and group permissions, as JSON in a folder the user chose. Re-creating brings
 * back everything but the password, through a plan of its own (so it is journaled and undoable like any apply).
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PortalError, type Member, type MemberV2, type V2Api, type V3Api } from '../../api/index';
import { writeAtomically } from '../../node/atomicFile';
import {
  derivedPlan,
  type GroupLevel,
  type MemberSnapshot,
  type Plan,
  type PortalGroup,
  type RestoreChange,
} from './model';
import { groupLevelsOf } from './portal';

/** What taking a snapshot needs of a PortalClient. */
export interface SnapshotClient {
  readonly v3: { readonly members: Pick<V3Api['members'], 'get'> };
  readonly v2: { readonly members: Pick<V2Api['members'], 'get'> };
}

/** A snapshot from the member's v3 and v2 reads. */
export function snapshotFrom(
  accountId: number,
  member: Member,
  v2: MemberV2,
  groups: readonly PortalGroup[],
  now: number = Date.now(),
): MemberSnapshot {
  const levels = groupLevelsOf(v2.groups, groups);
  const u = member.user;
  return {
    version: 1,
    takenAt: now,
    accountId,
    username: u.username,
    name: u.name,
    email: u.email,
    jobTitle: u.jobTitle,
    telephone: u.telephone ?? v2.user.telephone ?? null,
    address: u.address ?? v2.user.address ?? null,
    organisation: u.organisation ?? v2.user.organisation ?? null,
    enabled: u.enabled,
    accountPermission: member.permission,
    tags: member.tags,
    groups: groups
      .filter((g) => levels.has(g.id))
      .map((g) => ({ id: g.id, name: g.name, level: levels.get(g.id) as GroupLevel })),
  };
}

/** Reads the member (v3 and v2 reads) into a snapshot. */
export async function takeSnapshot(
  client: SnapshotClient,
  accountId: number,
  username: string,
  groups: readonly PortalGroup[],
  options: { readonly signal?: AbortSignal; readonly now?: number } = {},
): Promise<MemberSnapshot> {
  const member = await client.v3.members.get(accountId, username, { signal: options.signal });
  const v2 = await client.v2.members.get(accountId, username, { signal: options.signal });
  return snapshotFrom(accountId, member, v2, groups, options.now);
}

/** Writes the snapshot as `<folder>/<account>-<username>-<time>.json` (atomically); returns the file. */
export async function writeSnapshot(folder: string, snapshot: MemberSnapshot): Promise<string> {
  const safe = snapshot.username.replace(/[^\w.@-]+/g, '_').slice(0, 80);
  const file = join(folder, `${snapshot.accountId}-${safe}-${snapshot.takenAt}.json`);
  await mkdir(folder, { recursive: true });
  await writeAtomically(file, Readable.from([JSON.stringify(snapshot, null, 2)]), { replace: true });
  return file;
}

function invalid(message: string): PortalError {
  return new PortalError({ kind: 'invalid-input', endpoint: '', message });
}

/** Reads a snapshot file; throws 'invalid-input' for a file that is not one. */
export async function readSnapshot(file: string): Promise<MemberSnapshot> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    throw invalid('This file is not a member snapshot.');
  }
  const o = json as Partial<MemberSnapshot> | null;
  if (
    !o ||
    o.version !== 1 ||
    typeof o.username !== 'string' ||
    typeof o.name !== 'string' ||
    typeof o.email !== 'string' ||
    typeof o.accountId !== 'number' ||
    !Array.isArray(o.tags) ||
    !Array.isArray(o.groups)
  )
    throw invalid('This file is not a member snapshot.');
  return o as MemberSnapshot;
}

/** Snapshots in a folder, newest first (files that are not snapshots left out). */
export async function listSnapshots(
  folder: string,
): Promise<Array<{ readonly file: string; readonly snapshot: MemberSnapshot }>> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const out: Array<{ file: string; snapshot: MemberSnapshot }> = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      out.push({ file: join(folder, name), snapshot: await readSnapshot(join(folder, name)) });
    } catch {
      // Not a snapshot.
    }
  }
  return out.sort((a, b) => b.snapshot.takenAt - a.snapshot.takenAt);
}

/**
 * The plan that re-creates the member: one new member with the snapshot's profile, tags, permission and the
 * groups that still exist (matched by id, then by name). Activation e-mail now.
 */
export function recreatePlan(snapshot: MemberSnapshot, groups: readonly PortalGroup[], now: number = Date.now()): Plan {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const byName = new Map(groups.map((g) => [g.name.toLowerCase(), g]));
  const levels = new Map<number, GroupLevel>();
  for (const g of snapshot.groups) {
    const found = byId.get(g.id) ?? byName.get(g.name.toLowerCase());
    if (found) levels.set(found.id, g.level);
  }
  const change: RestoreChange = {
    kind: 'restore',
    id: `${snapshot.username.toLowerCase()}#restore`,
    username: snapshot.username,
    row: undefined,
    member: {
      username: snapshot.username,
      name: snapshot.name,
      email: snapshot.email,
      jobTitle: snapshot.jobTitle,
      enabled: snapshot.enabled,
      locked: false,
      accountPermission: snapshot.accountPermission ?? 1,
      tags: snapshot.tags,
      groups: levels,
      activationDate: undefined,
    },
    profile: { telephone: snapshot.telephone, address: snapshot.address, organisation: snapshot.organisation },
  };
  return derivedPlan(
    { accountId: snapshot.accountId, groups, origin: 'recreate', createdAt: now },
    { newMembers: [change] },
  );
}
