// The upload endpoints public clients of the live service use (api-observations.md, "Files: writing"); the spec has
// none, so the literal profile leaves every one of these out. Bodies spool to disk (see blobs.ts).
import { readFileSync } from 'node:fs';
import { accountAccess, groupAccess } from '../access';
import { badRequest, callerOf, json, notFound, param, type ApiRequest, type Reply } from '../http';
import { folderScope } from '../file-query';
import { FOLDER, type Group } from '../model';
import type { RouteDef } from '../router';
import { fileV2 } from '../serialize-v2';
import { addRecord, assembled, contentTypeOf, folderAlong, nameProblem, readSharing, replaceRecord } from '../uploads';
import type { World } from '../world';
import { seenGroup } from './v3-files';

/** A chunk may be this large (the web plugin sends 5 MiB); a single unchunked upload of a big file fits too. */
export const MAX_CHUNK_BYTES = 2 * 1024 * 1024 * 1024;
/** A v3 temp file is parsed from memory, so it stays small. */
export const MAX_TEMP_FILE_BYTES = 64 * 1024 * 1024;

function headerOf(req: ApiRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function intHeader(req: ApiRequest, name: string): number {
  const raw = headerOf(req, name);
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw badRequest(`${name} must be a whole number`);
  return Number(raw);
}

/** The upload's key: the same X-File-Id from another caller or group is another upload. */
function uploadKey(req: ApiRequest, group: Group): string {
  const id = headerOf(req, 'x-file-id');
  if (!id || id.length > 200) throw badRequest('x-file-id is required (one id per upload)');
  return `${callerOf(req).user.id}:${group.id}:${id}`;
}

function v2Target(req: ApiRequest, w: World, withFolder: boolean): { group: Group; folderId: number } {
  const group = groupAccess(req, w, accountAccess(req, w));
  return { group, folderId: withFolder ? folderScope(w.store, group, param(req, 'folder')) : 0 };
}

/** X-File-End is read as the offset after the chunk's last byte (the observations do not say which). */
function data(req: ApiRequest, w: World, withFolder: boolean): Reply {
  const { group } = v2Target(req, w, withFolder);
  const key = uploadKey(req, group);
  const [start, end, size] = [
    intHeader(req, 'x-file-start'),
    intHeader(req, 'x-file-end'),
    intHeader(req, 'x-file-size'),
  ];
  const spooled = req.spooled;
  if (!spooled) throw badRequest('The chunk has no body');
  if (end - start !== spooled.size || end > size)
    throw badRequest(`The chunk holds ${spooled.size} bytes, not bytes ${start} to ${end} of ${size}`);
  const upload = w.uploads.pending.get(key) ?? { size, parts: new Map() };
  if (upload.size !== size) throw badRequest(`x-file-size changed from ${upload.size} to ${size} within one upload`);
  // A chunk sent again (a retry) replaces the one before it.
  const before = upload.parts.get(start);
  if (before) w.blobs.discard([before.path]);
  upload.parts.set(start, { start, end, path: w.blobs.keep(spooled.path) });
  w.uploads.pending.set(key, upload);
  return json({});
}

/** `path` names the file below the URL's folder; folders along it are made when missing. */
function complete(req: ApiRequest, w: World, withFolder: boolean): Reply {
  const { group, folderId } = v2Target(req, w, withFolder);
  const key = uploadKey(req, group);
  const upload = w.uploads.pending.get(key);
  if (req.query.get('success')?.toLowerCase() !== 'true') {
    w.blobs.discard([...(upload?.parts.values() ?? [])].map((p) => p.path));
    w.uploads.pending.delete(key);
    return json({});
  }
  if (!upload) throw notFound('No upload with this x-file-id');
  const names = (req.query.get('path') ?? '').split('/').filter((s) => s !== '');
  const name = names.pop();
  if (name === undefined) throw badRequest('path must name the file');
  const problem = nameProblem(name);
  if (problem) throw badRequest(`File name "${name}" ${problem}`);
  const sharing = readSharing(req.body);
  const blob = assembled(upload);
  const user = callerOf(req).user.id;
  const record =
    req.body.id !== undefined && req.body.id !== null
      ? replaceRecord(w, group, req.body.id, blob, upload.size, user)
      : addRecord(
          w,
          group,
          folderAlong(w, group, folderId, names, user),
          name,
          contentTypeOf(name),
          blob,
          upload.size,
          user,
          sharing,
        );
  w.uploads.pending.delete(key);
  return json(fileV2(w, record, false));
}

/** Every record below the folder by path, as base64 text of JSON (the `fileSystem` part's shape is not observed). */
function index(req: ApiRequest, w: World, withFolder: boolean): Reply {
  const { group, folderId } = v2Target(req, w, withFolder);
  const metadata: Record<string, { ID: number }> = {};
  const walk = (parent: number, prefix: string): void => {
    for (const f of w.store.filesOf(group.id)) {
      if (f.parentId !== parent) continue;
      metadata[`${prefix}/${f.name}`] = { ID: f.id };
      if (f.contentType === FOLDER) walk(f.id, `${prefix}/${f.name}`);
    }
  };
  walk(folderId, '');
  const text = Buffer.from(JSON.stringify({ fileSystem: {}, metadata }), 'utf8').toString('base64');
  return { kind: 'bytes', status: 200, bytes: Buffer.from(text, 'latin1'), headers: { 'Content-Type': 'text/plain' } };
}

/** multipart/form-data with one part named `file`: its bytes and file name. */
function filePart(req: ApiRequest, raw: Buffer): { bytes: Buffer; name: string } {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(String(req.headers['content-type'] ?? ''));
  const b = boundary?.[1] ?? boundary?.[2];
  if (!b) throw badRequest('The body must be multipart/form-data');
  const delimiter = Buffer.from(`--${b}`);
  for (let at = raw.indexOf(delimiter); at >= 0;) {
    const next = raw.indexOf(delimiter, at + delimiter.length);
    if (next < 0) break;
    const part = raw.subarray(at + delimiter.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, Math.max(0, split)).toString('utf8');
    if (split >= 0 && /name="file"/i.test(head)) {
      const name = /filename\*=UTF-8''([^;\r\n]+)/i.exec(head)?.[1] ?? /filename="([^"]*)"/i.exec(head)?.[1] ?? 'file';
      return { bytes: part.subarray(split + 4), name: decodeURIComponent(name) };
    }
    at = next;
  }
  throw badRequest('The body has no part named file');
}

function tempFile(req: ApiRequest, w: World): Reply {
  const { user } = callerOf(req);
  if (!req.spooled) throw badRequest('The body must be multipart/form-data');
  const { bytes, name } = filePart(req, readFileSync(req.spooled.path));
  const id = `${w.store.newId('file')}`;
  const path = w.blobs.keep(req.spooled.path);
  // The part is stored as it came; keep() moved the whole body, so the part's bytes are written on their own.
  w.blobs.writeOver(path, bytes);
  w.uploads.temp.set(id, { userId: user.id, path, size: bytes.length, name });
  return json({ id });
}

function createFromTemp(req: ApiRequest, w: World): Reply {
  const { user, group } = seenGroup(req, w);
  const parentId = folderScope(w.store, group, param(req, 'parentFolder'));
  const tempId = req.body.tempFile;
  const temp =
    typeof tempId === 'string' || typeof tempId === 'number' ? w.uploads.temp.get(String(tempId)) : undefined;
  if (!temp || temp.userId !== user.id) throw badRequest('tempFile names no temp file of yours');
  const name = typeof req.body.friendlyName === 'string' ? req.body.friendlyName : temp.name;
  const problem = nameProblem(name);
  if (problem) throw badRequest(`friendlyName "${name}" ${problem}`);
  w.uploads.temp.delete(String(tempId));
  const f = addRecord(
    w,
    group,
    parentId,
    name,
    contentTypeOf(name),
    [temp.path],
    temp.size,
    user.id,
    readSharing(req.body),
  );
  return json(fileV2(w, f, false));
}

const V2 = '/v2/accounts/:account/groups/:group/files';
const spool = MAX_CHUNK_BYTES;

export const uploadRoutes: RouteDef[] = [
  {
    id: 'v2.upload.data',
    method: 'POST',
    pattern: `${V2}/upload/data`,
    handler: (r, w) => data(r, w, false),
    spool,
    jsonBody: false,
  },
  {
    id: 'v2.upload.data.folder',
    method: 'POST',
    pattern: `${V2}/:folder/upload/data`,
    handler: (r, w) => data(r, w, true),
    spool,
    jsonBody: false,
  },
  {
    id: 'v2.upload.complete',
    method: 'POST',
    pattern: `${V2}/upload/complete`,
    handler: (r, w) => complete(r, w, false),
  },
  {
    id: 'v2.upload.complete.folder',
    method: 'POST',
    pattern: `${V2}/:folder/upload/complete`,
    handler: (r, w) => complete(r, w, true),
  },
  { id: 'v2.files.index', method: 'GET', pattern: `${V2}/index`, handler: (r, w) => index(r, w, false) },
  { id: 'v2.files.index.folder', method: 'GET', pattern: `${V2}/:folder/index`, handler: (r, w) => index(r, w, true) },
  {
    id: 'v3.tempFiles.create',
    method: 'POST',
    pattern: '/v3/tempFiles',
    handler: tempFile,
    spool: MAX_TEMP_FILE_BYTES,
    jsonBody: false,
  },
  { id: 'v3.file.create', method: 'POST', pattern: '/v3/groups/:group/files/:parentFolder', handler: createFromTemp },
];

/** What a literal portal lacks: the spec has no file writes. */
export const UPLOAD_ROUTE_IDS = uploadRoutes.map((r) => r.id);
