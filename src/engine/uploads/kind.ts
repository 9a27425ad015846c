/**
 * Uploads as a kind of the engine's work: one unit is one file. Its intent (the upload id, and for a new version the
 * record's version before) is durable before its first chunk; its outcome after the complete call. On a resume the
 * portal is asked what landed (the target folder's index; the record's version), so a file whose upload completed
 * before the reload is not sent twice and one that did not is sent again under the same upload id. The API offers
 * no way to delete or take back an uploaded file, so there is no undo.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import * as l10n from '@vscode/l10n';
import { CHUNK_BYTES, isPortalError, type FileRecord, type PortalClient, type UploadSource } from '../../api/index';
import { errorMessage } from '../../shared/errors';
import type { IntentEntry, JournalRecordOf, Unit, UnitContext, UnitOutcome, UndoOffer, WorkKind } from '../job';
import type { UploadTargetRef } from './plan';

export interface UploadUnit extends Unit {
  /** Below the target folder, names joined with "/". */
  readonly path: string;
  readonly localPath: string;
  readonly size: number;
  readonly contentType: string;
  /** A new version of this record, instead of a new record. */
  readonly replaceId?: number;
}

/** A new version's record as it was just before: what tells, on a resume, whether the version landed. */
export type UploadBefore = Pick<FileRecord, 'lastModified' | 'versions'>;
export interface UploadRequest {
  readonly uploadId: string;
}
export type UploadRecord = JournalRecordOf<UploadUnit, UploadBefore, UploadRequest>;
type Context = UnitContext<UploadBefore, UploadRequest>;

/** What the kind needs of a client. */
export type UploadClient = Pick<PortalClient, 'uploads' | 'budget'> & {
  readonly v2: Pick<PortalClient['v2'], 'files'>;
};

/** A local file streamed one chunk at a time as each is sent, through one handle. */
async function withSource<T>(unit: UploadUnit, use: (source: UploadSource) => Promise<T>): Promise<T> {
  const handle = await open(unit.localPath, 'r');
  try {
    return await use({
      size: unit.size,
      contentType: unit.contentType,
      // Each chunk a stream of its own, opened and closed with it (streams over the one handle would each leave a
      // listener on it until it closes).
      stream: (start, end) => createReadStream(unit.localPath, { start, end: end - 1 }),
      read: async (start, end, into) => {
        const { bytesRead } = await handle.read(into, 0, end - start, start);
        return into.subarray(0, bytesRead);
      },
    });
  } finally {
    await handle.close();
  }
}

function failed(e: unknown): UnitOutcome {
  const kind = isPortalError(e) ? e.kind : 'unexpected';
  const o: UnitOutcome = { result: 'failed', message: errorMessage(e), kind };
  // The engine never aborts a request it sent: 'cancelled' means the client closed under it (a reload).
  return kind === 'cancelled' ? { ...o, unconfirmed: true } : o;
}

export class UploadKind implements WorkKind<UploadUnit, UploadBefore, UploadRequest, never> {
  readonly name = 'uploads';
  /** The target folder's index, read once per resume: what landed before the run stopped. */
  private landedIndex: Promise<ReadonlyMap<string, number>> | undefined;

  constructor(
    private readonly client: UploadClient,
    private readonly target: UploadTargetRef,
    private readonly applyId: string,
  ) {}

  sends(): boolean {
    return true;
  }

  async run(unit: UploadUnit, context: Context): Promise<UnitOutcome> {
    let before: UploadBefore | null = null;
    try {
      if (unit.replaceId !== undefined) before = await this.versionOf(unit.replaceId, context);
    } catch (e) {
      return this.finish(unit, failed(e), context);
    }
    const uploadId = `${this.applyId}-${unit.seq}`;
    await context.journal.append({ type: 'intent', seq: unit.seq, before, requests: [{ uploadId }] });
    return this.send(unit, uploadId, context);
  }

  async resume(
    unit: UploadUnit,
    intent: IntentEntry<UploadBefore, UploadRequest> | undefined,
    context: Context,
  ): Promise<UnitOutcome> {
    const uploadId = intent?.requests[0]?.uploadId;
    if (!intent || uploadId === undefined) return this.run(unit, context);
    try {
      if (await this.landed(unit, intent.before, context))
        return this.finish(unit, { result: 'done', message: l10n.t('Uploaded before the interruption.') }, context);
    } catch (e) {
      return this.finish(unit, failed(e), context);
    }
    return this.send(unit, uploadId, context);
  }

  undo(): UndoOffer<never> {
    return { notOffered: l10n.t('The portal offers no way to delete or take back an uploaded file.') };
  }

  private async send(unit: UploadUnit, uploadId: string, context: Context): Promise<UnitOutcome> {
    const t = this.target;
    try {
      await withSource(unit, (source) =>
        this.client.uploads.upload(
          { accountId: t.accountId, groupId: t.groupId, folderId: t.folderId, path: unit.path },
          source,
          { uploadId, replaceId: unit.replaceId },
        ),
      );
      for (let i = Math.max(1, Math.ceil(unit.size / CHUNK_BYTES)) + 1; i > 0; i--) context.countRequest();
      return await this.finish(unit, { result: 'done', message: '' }, context);
    } catch (e) {
      return this.finish(unit, failed(e), context);
    }
  }

  private async finish(unit: UploadUnit, o: UnitOutcome, context: Context): Promise<UnitOutcome> {
    if (!o.unconfirmed)
      await context.journal.append({ type: 'outcome', seq: unit.seq, result: o.result, message: o.message });
    return o;
  }

  private async versionOf(id: number, context: Context): Promise<UploadBefore> {
    context.countRequest();
    const r = await this.client.v2.files.get(this.target.accountId, this.target.groupId, id);
    return { lastModified: r.lastModified, versions: r.versions };
  }

  /** A new record is there by its path; a new version moved the record on from its version before. */
  private async landed(unit: UploadUnit, before: UploadBefore | null, context: Context): Promise<boolean> {
    if (unit.replaceId === undefined) {
      this.landedIndex ??= (context.countRequest(), this.client.uploads.index(this.target));
      return (await this.landedIndex).has(`/${unit.path}`);
    }
    if (!before) return false;
    const now = await this.versionOf(unit.replaceId, context);
    return now.lastModified !== before.lastModified || now.versions !== before.versions;
  }
}

export function journalRecordOf(record: JournalRecordOf<Unit, unknown, unknown>): UploadRecord | undefined {
  return record.begin.kind === 'uploads' ? (record as UploadRecord) : undefined;
}
