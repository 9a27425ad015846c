/**
 * File writes. The spec has none: every endpoint here is one that public clients of the live service were seen to
 * call (the service's own web plugin and its mobile client), and there is no other. A portal that keeps to the spec
 * answers them 404 (or 405/501); `refusesUploads()` tells that apart, so callers say it once.
 *
 *   v2 chunked  POST …/files[/{folder}]/upload/data: application/octet-stream chunks of 5 MiB with X-File-Chunk,
 *               X-File-Start, X-File-End, X-File-Id (one per upload), X-File-Name, X-File-Size, X-File-Type;
 *               then POST …/files[/{folder}]/upload/complete?success=True&path=<path> with JSON {sharing,
 *               memberPermission}; adding `id: <record id>` gives that record a new version (the only replace seen).
 *   v2 index    GET …/files[/{folder}]/index: base64 text of JSON {fileSystem, metadata: {"/path/name": {ID}}}.
 *   v3          POST /v3/tempFiles (multipart/form-data, one part `file`) → {id}; then
 *               POST /v3/groups/{group}/files/{parentFolder} with {friendlyName, tempFile, sharing, memberPermission}.
 *
 * Not seen anywhere, so not offered: an empty folder, deleting, moving or renaming a record. What the observations
 * leave open is chosen here, once: X-File-End is the offset after the chunk's last byte; X-File-Name is
 * percent-encoded (a header cannot carry UTF-8); the complete call repeats X-File-Id so the portal knows which upload.
 */
import type { Readable } from 'node:stream';
import { PortalError } from '../errors';
import { seg } from '../http';
import { parseFileRecord, type FileRecord } from '../models/file';
import { asObject, jsonOrUndefined } from '../models/read';
import type { ApiContext } from './context';

/** The chunk size the service's web plugin sends. */
export const CHUNK_BYTES = 5 * 1024 * 1024;
/**
 * Chunks of one file in flight at once: enough to hide the latency of each. A source that streams its chunks holds
 * no copy of one in flight, so memory stays bounded however many there are; one that reads into a buffer holds one
 * chunk's buffer per worker.
 */
const PARALLEL_CHUNKS = 8;
/** Tries per chunk on a network failure, a timeout or a 5xx (a chunk is idempotent: its offset says where it goes). */
const CHUNK_ATTEMPTS = 3;

/** Where an upload lands: a group's root (folderId 0) or a folder, and the path below it (names joined by '/'). */
export interface UploadTarget {
  accountId: number;
  groupId: number;
  folderId: number;
  path: string;
}

/** A file's bytes, read one piece at a time: the whole file is never in memory. */
export interface UploadSource {
  size: number;
  contentType: string;
  /**
   * Bytes `start` to `end` as a stream, made afresh for each attempt: a file on disk is read as its chunk is sent,
   * and a chunk in flight holds no copy of itself. Preferred to `read` when present.
   */
  stream?(start: number, end: number): Readable;
  /**
   * Bytes `start` to `end`; a source that reads from disk fills `into` (as long as a chunk, reused for every chunk
   * one worker sends, so a large file makes no garbage) and returns the part it filled.
   */
  read(start: number, end: number, into: Buffer): Promise<Buffer>;
}

export interface UploadOptions {
  /** One per upload; the same id again continues the same upload (its chunks replace the ones sent before). */
  uploadId: string;
  /** The record that gets a new version instead of a new record. */
  replaceId?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Bytes confirmed by the portal so far, after each chunk. */
  onBytes?: (sent: number) => void;
  /** Waits between tries of a chunk (tests pass a clock of their own). */
  sleep?: (ms: number) => Promise<void>;
}

/** The portal's naming rule for files is not written down anywhere; this is the emulator's, kept in step with it. */
export function uploadNameProblem(name: string): 'empty' | 'too-long' | 'separator' | 'dots' | 'spaces' | undefined {
  if (name.length === 0) return 'empty';
  if (name.length > 255) return 'too-long';
  if (/[/\\\p{Cc}]/u.test(name)) return 'separator';
  if (name === '.' || name === '..') return 'dots';
  if (name.trim() !== name) return 'spaces';
  return undefined;
}

/** True when the portal has no upload endpoints (a spec-only portal), rather than refusing this one upload. */
export function refusesUploads(e: unknown): boolean {
  return e instanceof PortalError && (e.status === 404 || e.status === 405 || e.status === 501) && !e.fieldErrors;
}

function transient(e: unknown): boolean {
  return e instanceof PortalError && (e.kind === 'network' || e.kind === 'timeout' || e.kind === 'server');
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type FolderTarget = Pick<UploadTarget, 'accountId' | 'groupId' | 'folderId'>;

function filesBase(t: FolderTarget): string {
  return `/v2/accounts/${seg(t.accountId)}/groups/${seg(t.groupId)}/files${t.folderId ? `/${seg(t.folderId)}` : ''}`;
}

function fileHeaders(t: UploadTarget, s: UploadSource, o: UploadOptions): Record<string, string> {
  return {
    'x-file-id': o.uploadId,
    'x-file-name': encodeURIComponent(t.path.slice(t.path.lastIndexOf('/') + 1)),
    'x-file-size': String(s.size),
    'x-file-type': s.contentType,
  };
}

/** Chunk `n`'s body: streamed from the source, or read into the worker's buffer; and where it ends. */
async function chunkBody(
  s: UploadSource,
  n: number,
  buffer: () => Buffer,
): Promise<{ bytes: Buffer | (() => Readable); end: number; length?: number }> {
  const start = n * CHUNK_BYTES;
  const end = Math.min(s.size, start + CHUNK_BYTES);
  const stream = s.stream?.bind(s);
  if (stream && end > start) return { bytes: () => stream(start, end), end, length: end - start };
  if (end === start) return { bytes: Buffer.alloc(0), end };
  const bytes = await s.read(start, end, buffer());
  return { bytes, end: start + bytes.length };
}

/** Reads chunk `n` (see chunkBody) and posts it, retrying transient failures with a growing pause. */
async function sendChunk(
  api: ApiContext,
  t: UploadTarget,
  s: UploadSource,
  o: UploadOptions,
  n: number,
  buffer: () => Buffer,
): Promise<void> {
  const start = n * CHUNK_BYTES;
  const { bytes, end, length } = await chunkBody(s, n, buffer);
  const headers: Record<string, string> = {
    ...fileHeaders(t, s, o),
    'x-file-chunk': String(n),
    'x-file-start': String(start),
    'x-file-end': String(end),
  };
  // A streamed body says its length up front, as a buffer's does, rather than arriving in chunked encoding.
  if (length !== undefined) headers['content-length'] = String(length);
  const spec = {
    method: 'POST' as const,
    path: `${filesBase(t)}/upload/data`,
    raw: { bytes, contentType: 'application/octet-stream', headers },
    signal: o.signal,
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await api.text(spec);
      return;
    } catch (e) {
      if (attempt >= CHUNK_ATTEMPTS || !transient(e) || o.signal?.aborted) throw e;
      await (o.sleep ?? wait)(250 * 2 ** (attempt - 1));
    }
  }
}

/** Sends every chunk, a few at once (each retried on its own), reporting the bytes sent so far. */
async function sendChunks(api: ApiContext, t: UploadTarget, s: UploadSource, o: UploadOptions): Promise<void> {
  const chunks = Math.max(1, Math.ceil(s.size / CHUNK_BYTES));
  let next = 0;
  let sent = 0;
  const worker = async (): Promise<void> => {
    // Made at the first chunk read into it: a streamed source needs none.
    let into: Buffer | undefined;
    const buffer = (): Buffer => (into ??= Buffer.allocUnsafe(Math.min(s.size, CHUNK_BYTES)));
    while (next < chunks) {
      const n = next++;
      await sendChunk(api, t, s, o, n, buffer);
      sent += Math.min(s.size, (n + 1) * CHUNK_BYTES) - n * CHUNK_BYTES;
      o.onBytes?.(sent);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHUNKS, chunks) }, worker));
}

/** Completes the upload: the record made or replaced. */
function completeUpload(
  api: ApiContext,
  t: UploadTarget,
  s: UploadSource,
  o: UploadOptions,
): Promise<FileRecord | undefined> {
  const body: Record<string, unknown> = { sharing: 'MEMBERS', memberPermission: 8 };
  if (o.replaceId !== undefined) body.id = o.replaceId;
  return api.json(
    {
      method: 'POST',
      path: `${filesBase(t)}/upload/complete`,
      query: { success: 'True', path: t.path },
      raw: { bytes: JSON.stringify(body), contentType: 'application/json', headers: fileHeaders(t, s, o) },
      signal: o.signal,
    },
    // The answer's shape is not observed: a record when it reads as one, nothing otherwise.
    (j) => {
      try {
        return parseFileRecord(j, api.service);
      } catch {
        return undefined;
      }
    },
  );
}

/** The index answer is base64 JSON; anything unreadable counts as an empty folder. */
function parseUploadIndex(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const parsed = jsonOrUndefined(Buffer.from(text.trim(), 'base64').toString('utf8'));
  const metadata = asObject(asObject(parsed)?.metadata);
  for (const [path, entry] of Object.entries(metadata ?? {})) {
    const id = asObject(entry)?.ID;
    if (typeof id === 'number') out.set(path, id);
  }
  return out;
}

export function createUploads(api: ApiContext) {
  /** Sends every chunk (a few at once, each retried on its own), then completes: the record made or replaced. */
  async function upload(t: UploadTarget, s: UploadSource, o: UploadOptions): Promise<FileRecord | undefined> {
    await sendChunks(api, t, s, o);
    return completeUpload(api, t, s, o);
  }

  /** Every record below a folder (or the group's root), by path from it ("/docs/a.md") to its id. */
  async function index(t: FolderTarget, signal?: AbortSignal): Promise<Map<string, number>> {
    const text = await api.text({ method: 'GET', path: `${filesBase(t)}/index`, signal });
    return parseUploadIndex(text);
  }

  return { upload, index };
}

export type UploadsApi = ReturnType<typeof createUploads>;
