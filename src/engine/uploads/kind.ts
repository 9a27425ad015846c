/**
 * Uploads as a kind of the engine's work: one unit is one file. Its intent (the upload id, and for a new version the
 * record's version before) is durable before its first chunk; its outcome after the complete call. On a resume the
 * portal is asked what landed (the target folder's index; the record's version), so a file whose upload completed
 * before the reload is not sent twice and one that did not is sent again under the same upload id. The API offers
 * no way to delete or take back an uploaded file, so there is no undo.
 *
 * Each file is sent from one handle pinned to what the plan recorded (src/node/pinnedFile.ts), below the plan's root:
 * a file swapped for a link, replaced or rewritten since is a failed unit that says what changed, never other bytes.
 */
import * as l10n from '@vscode/l10n';
import { CHUNK_BYTES, isPortalError, type FileRecord, type PortalClient, type UploadSource } from '../../api/index';
import { UnsafePathError } from '../../node/disk';
import {
  FileChangedError,
  fileInsideRoot,
  pin,
  type FileChange,
  type FileIdentity,
  type PinnedFile,
} from '../../node/pinnedFile';
import { errorMessage } from '../../shared/errors';
import type { IntentEntry, JournalRecordOf, Unit, UnitContext, UnitOutcome, UndoOffer, WorkKind } from '../job';
import type { UploadTargetRef } from './plan';

export interface UploadUnit extends Unit {
  /** Below the target folder, names joined with "/". */
  readonly path: string;
  readonly localPath: string;
  readonly size: number;
  /** The file as the plan pinned it. */
  readonly identity: FileIdentity;
  readonly contentType: string;
  /** A new version of this record, instead of a new record. */
  readonly replaceId?: number;
}

/** A new version's record as it was just before: what tells, on a resume, whether the version landed. */
export type UploadBefore = Pick<FileRecord, 'lastModified' | 'versions'>;
export interface UploadRequest {
  readonly uploadId: string;
}
/** What an upload journal's first line holds beyond every journal's: where from, where to. */
export interface UploadBegin {
  readonly target: UploadTargetRef;
  readonly root: string;
  /** The target group or folder in the user's words: a resume offer names it. */
  readonly targetName: string;
}
export type UploadRecord = JournalRecordOf<UploadUnit, UploadBefore, UploadRequest, 'upload', UploadBegin>;
type Context = UnitContext<UploadBefore, UploadRequest>;

/** What the kind needs of a client. */
export type UploadClient = Pick<PortalClient, 'uploads' | 'budget'> & {
  readonly v2: Pick<PortalClient['v2'], 'files'>;
};

/**
 * A local file streamed one chunk at a time as each is sent, through one handle pinned to the plan's identity, below
 * the plan's root. A change seen mid-chunk fails that chunk's request; the change, not the transport's word for the
 * broken body, is what the unit fails with.
 */
async function withSource<T>(root: string, unit: UploadUnit, use: (source: UploadSource) => Promise<T>): Promise<T> {
  const file: PinnedFile = await pin(await fileInsideRoot(root, unit.localPath), unit.identity);
  try {
    return await use({
      size: unit.size,
      contentType: unit.contentType,
      stream: (start, end) => file.stream(start, end),
      read: (start, end, into) => file.read(start, end, into),
    });
  } catch (error) {
    throw file.change ?? error;
  } finally {
    await file.close();
  }
}

function changeText(change: FileChange): string {
  switch (change) {
    case 'link':
      return l10n.t('it is now a symbolic link');
    case 'gone':
      return l10n.t('it is no longer there');
    case 'not-a-file':
      return l10n.t('it is no longer a regular file');
    case 'replaced':
      return l10n.t('another file took its place');
    case 'size':
      return l10n.t('its size changed');
    case 'mtime':
      return l10n.t('it was modified');
  }
}

/** Why a file was not sent, when the disk is why. */
function refusedSource(unit: UploadUnit, e: unknown): string | undefined {
  if (e instanceof FileChangedError)
    return l10n.t(
      '{0} was not sent: it changed since the upload was planned ({1}).',
      unit.path,
      e.changes.map(changeText).join(', '),
    );
  if (e instanceof UnsafePathError && e.reason === 'outside')
    return l10n.t('{0} was not sent: it is not inside the folder the upload was planned from.', unit.path);
  return undefined;
}

function failed(e: unknown, unit?: UploadUnit): UnitOutcome {
  const refused = unit && refusedSource(unit, e);
  if (refused) return { result: 'failed', message: refused, kind: 'invalid-input' };
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
    /** The folder every file must stay in (the plan's root). */
    private readonly root: string,
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
      await withSource(this.root, unit, (source) =>
        this.client.uploads.upload(
          { accountId: t.accountId, groupId: t.groupId, folderId: t.folderId, path: unit.path },
          source,
          { uploadId, replaceId: unit.replaceId },
        ),
      );
      for (let i = Math.max(1, Math.ceil(unit.size / CHUNK_BYTES)) + 1; i > 0; i--) context.countRequest();
      return await this.finish(unit, { result: 'done', message: '' }, context);
    } catch (e) {
      return this.finish(unit, failed(e, unit), context);
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
