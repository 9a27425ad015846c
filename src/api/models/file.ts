/** File record (2.8, v2). A folder is a record whose contentType is "@folder". */
import { parseContextKey, parseGroup, parseUserV2, splitTags, type ContextKey, type Group, type UserV2 } from './v2';
import * as read from './read';
// Bound once, not imported by name: see the note at the top of read.ts.
const { asObject, bool, boolOrNull, num, numOrNull, requireNum, requireObject, str, strOrNull } = read;

export const FOLDER_CONTENT_TYPE = '@folder';

export interface FilePathEntry {
  id: number | null;
  name: string;
}

export interface FileRecord {
  id: number;
  comments: number;
  attachments: number;
  contextKey: ContextKey | null;
  name: string;
  friendlyName: string;
  description: string | null;
  /** Null when the portal did not say (lists may leave it out). */
  watermark: boolean | null;
  contentType: string;
  /** Derived: contentType is "@folder". */
  isFolder: boolean;
  /** Bytes; null when the portal did not report it (never read as 0). */
  size: number | null;
  uploaded: { user: UserV2 | null; name: string } | null;
  /** Null when the portal did not say: list answers carry null, the single record the count. */
  versions: number | null;
  /** NONE in the samples; other values not documented. */
  sharing: string | null;
  memberPermission: number | null;
  hidden: boolean;
  /** The comma-separated tags string, split. */
  tags: string[];
  locked: boolean;
  /** Shape not documented (null in samples); kept raw. */
  locker: unknown;
  dateLocked: number | null;
  lastModified: number | null;
  /** Ancestors from the root, as far as the server says. */
  path: FilePathEntry[];
  /** Null when the portal did not say. */
  available: boolean | null;
  type: string;
  /** Parent folder id; null at the group root or when not given. */
  parentId: number | null;
  /** The group id, from `group` when present. */
  groupId: number | null;
  group: Group | null;
}

function pathEntries(value: unknown): FilePathEntry[] {
  if (!Array.isArray(value)) return [];
  const out: FilePathEntry[] = [];
  for (const x of value) {
    if (typeof x === 'string') out.push({ id: null, name: x });
    else if (typeof x === 'number') out.push({ id: x, name: '' });
    else {
      const o = asObject(x);
      if (o) out.push({ id: numOrNull(o, 'id'), name: strOrNull(o, 'friendlyName') ?? str(o, 'name') });
    }
  }
  return out;
}

function idOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const o = asObject(value);
  return o ? numOrNull(o, 'id') : null;
}

export function parseFileRecord(json: unknown, service: string): FileRecord {
  const o = requireObject(json, 'file record');
  const contentType = str(o, 'contentType');
  const uploaded = asObject(o.uploaded);
  const groupJson = asObject(o.group);
  let group: Group | null = null;
  if (groupJson && numOrNull(groupJson, 'id') !== null) group = parseGroup(groupJson, service);
  const uploader = uploaded ? asObject(uploaded.user) : undefined;
  return {
    id: requireNum(o, 'id', 'file record'),
    comments: num(o, 'comments'),
    attachments: num(o, 'attachments'),
    contextKey: parseContextKey(o.contextKey),
    name: str(o, 'name'),
    friendlyName: strOrNull(o, 'friendlyName') ?? str(o, 'name'),
    description: strOrNull(o, 'description'),
    watermark: boolOrNull(o, 'watermark'),
    contentType,
    isFolder: contentType === FOLDER_CONTENT_TYPE,
    size: numOrNull(o, 'size'),
    uploaded: uploaded
      ? {
          user: uploader && numOrNull(uploader, 'id') !== null ? parseUserV2(uploader) : null,
          name: str(uploaded, 'name'),
        }
      : null,
    versions: numOrNull(o, 'versions'),
    sharing: strOrNull(o, 'sharing'),
    memberPermission: numOrNull(o, 'memberPermission'),
    hidden: bool(o, 'hidden'),
    tags: splitTags(o.tags),
    locked: bool(o, 'locked'),
    locker: o.locker ?? null,
    dateLocked: numOrNull(o, 'dateLocked'),
    lastModified: numOrNull(o, 'lastModified'),
    path: pathEntries(o.path),
    available: boolOrNull(o, 'available'),
    type: strOrNull(o, 'type') ?? 'file',
    parentId: idOf(o.parent),
    groupId: group?.id ?? idOf(o.group),
    group,
  };
}

/** Query of the v2 file listings. Parameter names follow the emulator contract (the spec does not show them). */
export interface FilesQuery {
  page?: number;
  size?: number;
  orderBy?: 'name' | 'lastModified' | 'size';
  ascending?: boolean;
  /** Name substring. */
  name?: string;
  /** Only records modified after this time (ms since the epoch). */
  modifiedAfter?: number;
  foldersOnly?: boolean;
  /** Every record of the group, not just the root level. */
  recursive?: boolean;
}
