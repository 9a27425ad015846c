// What the observed upload endpoints change: chunks collected per upload id, then one record made or given a new
// version. Nothing here is in the spec (see README, "Uploads"); each choice the observations leave open is named.
import { contentTypeOf } from './content';
import { badRequest, conflict, notFound } from './http';
import { FOLDER, type FileRecord, type Group } from './model';
import type { Part } from './blobs';
import type { World } from './world';

/** An upload in progress: its chunks by first byte. Keyed by caller, group and the client's X-File-Id. */
export interface PendingUpload {
  size: number;
  parts: Map<number, Part>;
}

export interface Uploads {
  pending: Map<string, PendingUpload>;
  /** v3 temp files: id → the stored bytes. */
  temp: Map<string, { userId: number; path: string; size: number; name: string }>;
}

export const newUploads = (): Uploads => ({ pending: new Map(), temp: new Map() });

/**
 * The portal's naming rule for files is not written anywhere; this emulator's: 1-255 characters, no slash,
 * backslash or control character, not "." or "..", no leading or trailing space.
 */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 255) return 'must be 1 to 255 characters';
  if (/[/\\\p{Cc}]/u.test(name)) return 'must not contain a slash, a backslash or a control character';
  if (name === '.' || name === '..') return 'must not be "." or ".."';
  if (name.trim() !== name) return 'must not start or end with a space';
  return undefined;
}

/** The chunks cover 0..size with no gap: their paths in order, or why not. */
export function assembled(u: PendingUpload): string[] {
  const ordered = [...u.parts.values()].sort((a, b) => a.start - b.start);
  let at = 0;
  for (const p of ordered) {
    if (p.start !== at) throw badRequest(`The upload is missing bytes ${at} to ${p.start - 1}`);
    at = p.end;
  }
  if (at !== u.size) throw badRequest(`The upload is missing bytes ${at} to ${u.size - 1}`);
  return ordered.map((p) => p.path);
}

/** The folder at `names` below `parentId`, made where missing (how the web plugin's folder uploads land). */
export function folderAlong(
  w: World,
  group: Group,
  parentId: number,
  names: readonly string[],
  userId: number,
): number {
  let at = parentId;
  for (const name of names) {
    const problem = nameProblem(name);
    if (problem) throw badRequest(`Folder name "${name}" ${problem}`);
    const found = w.store.filesOf(group.id).find((f) => f.parentId === at && f.name === name);
    if (found && found.contentType !== FOLDER) throw conflict(`${name} is a file, not a folder`);
    at = found?.id ?? addRecord(w, group, at, name, FOLDER, [], 0, userId, {}).id;
  }
  return at;
}

export interface Sharing {
  sharing?: string;
  memberPermission?: number;
}

export function readSharing(body: Record<string, unknown>): Sharing {
  const out: Sharing = {};
  if (body.sharing !== undefined) {
    if (body.sharing !== 'MEMBERS' && body.sharing !== 'NONE') throw badRequest('sharing must be MEMBERS or NONE');
    out.sharing = body.sharing;
  }
  const mp = body.memberPermission;
  if (mp !== undefined) {
    if (typeof mp !== 'number' || !Number.isInteger(mp) || mp < 0 || mp > 31)
      throw badRequest('memberPermission must be a permission mask from 0 to 31');
    out.memberPermission = mp;
  }
  return out;
}

export function addRecord(
  w: World,
  group: Group,
  parentId: number,
  name: string,
  contentType: string,
  blob: string[],
  size: number,
  userId: number,
  sharing: Sharing,
): FileRecord {
  const user = w.store.users.get(userId);
  const now = Date.now();
  const f: FileRecord = {
    id: w.store.newId('file'),
    groupId: group.id,
    parentId,
    name,
    description: null,
    contentType,
    size,
    creatorId: userId,
    uploaderName: user?.name ?? '',
    versions: contentType === FOLDER ? 0 : 1,
    sharing: sharing.sharing ?? 'MEMBERS',
    memberPermission: sharing.memberPermission ?? 8,
    hidden: false,
    tags: null,
    locked: false,
    lockerId: null,
    dateLocked: null,
    dateCreated: now,
    lastModified: now,
    ...(contentType === FOLDER ? {} : { blob }),
  };
  w.store.addFiles([f]);
  return f;
}

/** A new version of an existing file record: its bytes replaced, `versions` up one, `lastModified` moved on. */
export function replaceRecord(
  w: World,
  group: Group,
  id: unknown,
  blob: string[],
  size: number,
  userId: number,
): FileRecord {
  const f = typeof id === 'number' || typeof id === 'string' ? w.store.files.get(Number(id)) : undefined;
  if (!f || f.groupId !== group.id) throw notFound(`File ${String(id)} not found`);
  if (f.contentType === FOLDER) throw badRequest(`${f.name} is a folder; only a file gets a new version`);
  w.blobs.discard(f.blob ?? []);
  const replaced: FileRecord = {
    ...f,
    size,
    versions: f.versions + 1,
    uploaderName: w.store.users.get(userId)?.name ?? '',
  };
  // Strictly later: two saves within one millisecond must still read as two versions.
  replaced.lastModified = Math.max(Date.now(), f.lastModified + 1);
  replaced.blob = blob;
  delete replaced.text;
  w.store.addFiles([replaced]);
  return replaced;
}

export { contentTypeOf };
