// A change made to a file record's content on the portal by someone else, without going through an upload: how
// tests play another administrator's edit, including one the portal does not mark (same size, `lastModified` and
// `versions` left alone), which a client can only catch by comparing the bytes.
import { badRequest, notFound } from './http';
import { FOLDER } from './model';
import { isPlainObject } from './validate';
import type { FileEdit } from './types';
import type { World } from './world';

/** A control body as a FileEdit, or a 400 naming the field. */
export function parseFileEdit(body: unknown): FileEdit {
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object');
  const { id, text, keepLastModified, keepVersions } = body;
  if (typeof id !== 'number' || !Number.isInteger(id))
    throw badRequest('id is required', [{ field: 'id', message: 'must be a file record id' }]);
  if (typeof text !== 'string') throw badRequest('text is required', [{ field: 'text', message: 'must be a string' }]);
  for (const [field, v] of [
    ['keepLastModified', keepLastModified],
    ['keepVersions', keepVersions],
  ] as const)
    if (v !== undefined && typeof v !== 'boolean')
      throw badRequest(`${field} must be true or false`, [{ field, message: 'must be true or false' }]);
  return { id, text, keepLastModified: keepLastModified === true, keepVersions: keepVersions === true };
}

/** Replaces the record's bytes with `text`; `lastModified` and `versions` move unless the edit keeps them. */
export function editFile(w: World, edit: FileEdit): void {
  const f = w.store.files.get(edit.id);
  if (!f) throw notFound(`File ${edit.id} not found`);
  if (f.contentType === FOLDER) throw badRequest(`${f.name} is a folder; only a file has content`);
  w.blobs.discard(f.blob ?? []);
  const { blob: _blob, ...rest } = f;
  w.store.addFiles([
    {
      ...rest,
      text: edit.text,
      size: Buffer.byteLength(edit.text),
      versions: edit.keepVersions ? f.versions : f.versions + 1,
      // Strictly later, as a new version's is: a change within the same millisecond still moves it.
      lastModified: edit.keepLastModified ? f.lastModified : Math.max(Date.now(), f.lastModified + 1),
    },
  ]);
}
