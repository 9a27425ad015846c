/**
 * Snapshots of members about to be deleted for good (a removal from their last organisation deletes the user):
 * profile, tags, account permission and group permissions, as JSON in a folder the user chose. Re-creating brings
 * back everything but the password, through a plan of its own (so it is journaled and undoable like any apply).
 */
import { z } from 'zod';
import { PortalError, type Member, type MemberV2, type V2Api, type V3Api } from '../../api/index';
import { listFolder, readText, writeFileSafely } from '../../node/disk';
import { inFolder, privateFolder } from '../../node/privateFiles';
import {
  derivedPlan,
  type GroupLevel,
  type MemberSnapshot,
  type Plan,
  type PortalGroup,
  type RestoreChange,
} from './model';
import { groupLevelsOf } from './portal';
import { snapshotSchema } from './snapshotSchema';

/** What taking a snapshot needs of a PortalClient. */
export interface SnapshotClient {
  readonly v3: { readonly members: Pick<V3Api['members'], 'get'> };
  readonly v2: { readonly members: Pick<V2Api['members'], 'get'> };
}

/** A portal's origin (what a snapshot records): scheme, host and port, without a path or credentials. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** A snapshot from the member's v3 and v2 reads, on the portal at `baseUrl`. */
export function snapshotFrom(
  accountId: number,
  member: Member,
  v2: MemberV2,
  groups: readonly PortalGroup[],
  now: number = Date.now(),
  baseUrl?: string,
): MemberSnapshot {
  const levels = groupLevelsOf(v2.groups, groups);
  const u = member.user;
  return {
    version: 2,
    takenAt: now,
    ...(baseUrl ? { portal: originOf(baseUrl) } : {}),
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

/**
 * Writes the snapshot as `<folder>/<account>-<username>-<time>.json` (atomically), readable by the user alone (it
 * holds a phone number and an address); returns the file. The folder is a private one (0700, made or tightened), and
 * neither it nor the file may be a link: a snapshot is never written through one to wherever it points.
 */
export async function writeSnapshot(folder: string, snapshot: MemberSnapshot): Promise<string> {
  const safe = snapshot.username
    .replace(/[^\w.@-]+/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 80);
  const file = inFolder(folder, `${snapshot.accountId}-${safe}-${snapshot.takenAt}.json`);
  await privateFolder(folder);
  await writeFileSafely(file, JSON.stringify(snapshot, null, 2), { replace: true });
  return file;
}

function invalid(message: string): PortalError {
  return new PortalError({ kind: 'invalid-input', endpoint: '', message });
}

/** A snapshot is a few kilobytes; a file far larger is not one, and is not read whole to find out. */
const SNAPSHOT_MAX_BYTES = 1_000_000;

/** Reads a snapshot file, every value checked; throws 'invalid-input' for a file that is not one. */
export async function readSnapshot(file: string): Promise<MemberSnapshot> {
  let json: unknown;
  try {
    json = JSON.parse(await readText(file, { maxBytes: SNAPSHOT_MAX_BYTES }));
  } catch {
    throw invalid('This file is not a member snapshot.');
  }
  const parsed = snapshotSchema.safeParse(json);
  if (!parsed.success) throw invalid(`This file is not a member snapshot: ${z.prettifyError(parsed.error)}`);
  return parsed.data as MemberSnapshot;
}

/** How a snapshot differs from where it would be re-created: another portal, another organisation, or unknown. */
export interface SnapshotMismatch {
  /** The snapshot's portal, or undefined when it does not say (a version 1 snapshot). */
  readonly portal?: { readonly from: string | undefined; readonly to: string };
  readonly account?: { readonly from: number; readonly to: number };
}

/** Undefined when the snapshot was taken on the target portal's target organisation. */
export function snapshotMismatch(
  snapshot: MemberSnapshot,
  target: { readonly baseUrl: string; readonly accountId: number },
): SnapshotMismatch | undefined {
  const to = originOf(target.baseUrl);
  const portal = snapshot.portal === to ? undefined : { from: snapshot.portal, to };
  const account =
    snapshot.accountId === target.accountId ? undefined : { from: snapshot.accountId, to: target.accountId };
  return portal || account ? { ...(portal ? { portal } : {}), ...(account ? { account } : {}) } : undefined;
}

/** Snapshots in a folder, newest first (files that are not snapshots, and links, left out). */
export async function listSnapshots(
  folder: string,
): Promise<Array<{ readonly file: string; readonly snapshot: MemberSnapshot }>> {
  let names: string[];
  try {
    names = (await listFolder(folder)).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
  const out: Array<{ file: string; snapshot: MemberSnapshot }> = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const file = inFolder(folder, name);
      out.push({ file, snapshot: await readSnapshot(file) });
    } catch {
      // Not a snapshot.
    }
  }
  return out.sort((a, b) => b.snapshot.takenAt - a.snapshot.takenAt);
}

/** The snapshot's groups that the target organisation has no group of that name for (left out of a re-create). */
export function missingGroups(snapshot: MemberSnapshot, groups: readonly PortalGroup[]): string[] {
  const names = new Set(groups.map((g) => g.name.toLowerCase()));
  return snapshot.groups.filter((g) => !names.has(g.name.toLowerCase())).map((g) => g.name);
}

/**
 * The plan that re-creates the member in the organisation whose `groups` are given (the target, which the caller
 * has checked against the snapshot's): one new member with the snapshot's profile, tags, permission and the groups
 * of the same unique name there. Never by id: an id from another portal or organisation can be any group there.
 * Activation e-mail now.
 */
export function recreatePlan(
  snapshot: MemberSnapshot,
  groups: readonly PortalGroup[],
  now: number = Date.now(),
  accountId: number = snapshot.accountId,
): Plan {
  const byName = new Map(groups.map((g) => [g.name.toLowerCase(), g]));
  const levels = new Map<number, GroupLevel>();
  for (const g of snapshot.groups) {
    const found = byName.get(g.name.toLowerCase());
    if (found && g.level !== 0) levels.set(found.id, g.level);
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
  return derivedPlan({ accountId, groups, origin: 'recreate', createdAt: now }, { newMembers: [change] });
}
