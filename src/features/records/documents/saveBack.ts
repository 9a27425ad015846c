/**
 * Saving an edited file record's content back: a new version through the replace-by-id upload (the only replace any
 * client was seen to use; see api/endpoints/uploads.ts). The portal's copy is read first and handed to a check
 * (baselines.ts compares it with what the editor was given): a copy that moved since is a conflict, never overwritten
 * in silence. The portal offers no conditional write, so a change landing between that read and the upload cannot be
 * caught; the window is one request long. No VS Code here: the file system maps the outcomes to VS Code's errors.
 */
import { randomUUID } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import type { FileRecord, PortalClient } from '../../../api/index';
import { findRecord } from './recordRead';
import type { PortalTarget } from './uri';

/** What the editor was last given of a record: its version as the portal said it. */
export interface Seen {
  readonly lastModified: number | null;
  readonly versions: number | null;
}

export function seenOf(r: Pick<FileRecord, 'lastModified' | 'versions'>): Seen {
  return { lastModified: r.lastModified, versions: r.versions };
}

/** The portal's copy changed since the editor read it. */
export class SaveConflict extends Error {
  override readonly name = 'SaveConflict';
  constructor(readonly current: FileRecord) {
    super(l10n.t('{0} changed on the portal since it was opened. Save again to compare or overwrite.', current.name));
  }
}

/** The portal's copy could not be read, so it cannot be checked: nothing is sent. */
export class SaveUnchecked extends Error {
  override readonly name = 'SaveUnchecked';
  constructor(name: string) {
    super(l10n.t('{0} was not saved: the portal did not show its current version to compare with.', name));
  }
}

/**
 * Sends `bytes` as a new version of the record, unless `check` (given the portal's copy as it is now) throws, as it
 * does with a SaveConflict. The new record, as the portal then holds it.
 */
export async function saveBack(
  client: PortalClient,
  t: Extract<PortalTarget, { kind: 'content' }>,
  check: (current: FileRecord) => Promise<void>,
  bytes: Uint8Array,
  signal?: AbortSignal,
): Promise<FileRecord> {
  const { record, source } = await findRecord(client, t);
  if (source === 'row') throw new SaveUnchecked(record.name);
  await check(record);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const uploaded = await client.uploads.upload(
    { accountId: t.accountId, groupId: t.groupId, folderId: record.parentId ?? 0, path: record.name },
    {
      size: buffer.length,
      contentType: record.contentType,
      read: (start, end) => Promise.resolve(buffer.subarray(start, end)),
    },
    { uploadId: randomUUID(), replaceId: record.id, signal },
  );
  // The complete call's answer is not observed to be the record; read it back when it is not.
  if (uploaded && uploaded.id === record.id && uploaded.lastModified !== null) return uploaded;
  return (await findRecord(client, t)).record;
}
