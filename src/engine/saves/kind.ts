/**
 * Saving an editor's text back to a file record as a kind of the engine's work: one unit is one save, a new version of
 * one record. The bytes VS Code handed over are staged first (a private file, its digest and identity journaled), and
 * the unit sends exactly those: read back through a handle pinned to that identity and held to that digest, or nothing.
 * Its intent (the record's version as the save's check read it) is durable before the upload's first chunk; its
 * outcome after the complete call.
 *
 * The API offers no way to take a version back, so there is no undo. An interrupted save is never resumed: the editor
 * has moved on since (a reload restores its text, which a save sends again), and sending the staged text later would
 * put an older copy over whatever the portal or the editor holds by then.
 */
import { createHash } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import { isPortalError, type FileRecord, type PortalClient } from '../../api/index';
import { inFolder } from '../../node/privateFiles';
import { pin, type FileIdentity } from '../../node/pinnedFile';
import { errorMessage } from '../../shared/errors';
import type { IntentEntry, JournalRecordOf, Unit, UnitContext, UnitOutcome, UndoOffer, WorkKind } from '../job';

export interface SaveUnit extends Unit {
  /** The file record that gets a new version. */
  readonly recordId: number;
  /** Its folder (0: the group's root) and name: where the upload's complete call puts the version. */
  readonly folderId: number;
  readonly name: string;
  readonly contentType: string;
  /** The staged bytes: their size, SHA-256 (base64), and the staged file's name and identity. */
  readonly size: number;
  readonly digest: string;
  readonly staged: string;
  readonly identity: FileIdentity;
}

/** The record's version as the save's check read it, just before the upload. */
export interface SaveBefore {
  readonly lastModified: number | null;
  readonly versions: number | null;
}
export interface SaveRequest {
  readonly uploadId: string;
}
/** What a save journal's first line holds beyond every journal's: the group, and where the record is in words. */
export interface SaveBegin {
  readonly groupId: number;
  /** "Engineering/q1-docs": the group and folder path, as the history names it. */
  readonly where: string;
}
export type SaveOrigin = 'save';
export type SaveRecord = JournalRecordOf<SaveUnit, SaveBefore, SaveRequest, SaveOrigin, SaveBegin>;
type Context = UnitContext<SaveBefore, SaveRequest>;

/** What the kind needs of a client. */
export type SaveClient = Pick<PortalClient, 'uploads' | 'budget'>;

export function digestOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64');
}

/** Why a save has no undo, said before it is sent and in the history. */
export function saveNoUndoWords(): string {
  return l10n.t(
    'A saved version cannot be undone: the portal’s API offers no way to take a version back. To put the earlier text back, save it again.',
  );
}

/** What the history says of a save that was interrupted. */
export function interruptedWords(): string {
  return l10n.t(
    'Interrupted before the portal answered, and not sent again: the editor may hold newer text. If the portal does not show your change, save the document again.',
  );
}

function failed(e: unknown): UnitOutcome {
  const kind = isPortalError(e) ? e.kind : 'unexpected';
  const o: UnitOutcome = { result: 'failed', message: errorMessage(e), kind };
  // The engine never aborts a request it sent: 'cancelled' means the client closed under it (a reload).
  return kind === 'cancelled' ? { ...o, unconfirmed: true } : o;
}

/** The staged bytes, read through a handle pinned to their identity and held to their digest. */
async function stagedBytes(folder: string, unit: SaveUnit): Promise<Buffer> {
  const file = await pin(inFolder(folder, unit.staged), unit.identity);
  try {
    const bytes = Buffer.from(await file.read(0, unit.size, Buffer.alloc(unit.size)));
    await file.check();
    if (bytes.length !== unit.size || digestOf(bytes) !== unit.digest)
      throw new Error(l10n.t('The staged copy of {0} is not the text that was saved; nothing was sent.', unit.name));
    return bytes;
  } finally {
    await file.close();
  }
}

export class SaveKind implements WorkKind<SaveUnit, SaveBefore, SaveRequest, never> {
  readonly name = 'saves';
  /** The portal's answer to each complete call (the record, when it says so), for the caller. */
  readonly answers = new Map<number, FileRecord | undefined>();
  /** The error each failed unit met, for a caller that maps it as a direct call would (VS Code's save errors). */
  readonly errors = new Map<number, unknown>();

  constructor(
    private readonly client: SaveClient,
    private readonly target: { readonly accountId: number; readonly groupId: number },
    /** The folder the staged files are in. */
    private readonly stagedFolder: string,
    private readonly applyId: string,
    /** The record's version as the check read it. */
    private readonly before: SaveBefore | null,
    private readonly signal?: AbortSignal,
  ) {}

  async run(unit: SaveUnit, context: Context): Promise<UnitOutcome> {
    let bytes: Buffer;
    try {
      bytes = await stagedBytes(this.stagedFolder, unit);
    } catch (e) {
      this.errors.set(unit.seq, e);
      return this.finish(unit, { result: 'failed', message: errorMessage(e), kind: 'invalid-input' }, context);
    }
    const uploadId = `${this.applyId}-${unit.seq}`;
    await context.journal.append({ type: 'intent', seq: unit.seq, before: this.before, requests: [{ uploadId }] });
    try {
      context.countRequest();
      const answer = await this.client.uploads.upload(
        { accountId: this.target.accountId, groupId: this.target.groupId, folderId: unit.folderId, path: unit.name },
        {
          size: bytes.length,
          contentType: unit.contentType,
          read: (start, end) => Promise.resolve(bytes.subarray(start, end)),
        },
        { uploadId, replaceId: unit.recordId, signal: this.signal },
      );
      this.answers.set(unit.seq, answer);
      return await this.finish(unit, { result: 'done', message: '' }, context);
    } catch (e) {
      this.errors.set(unit.seq, e);
      return this.finish(unit, failed(e), context);
    }
  }

  /** Never sends: see the file's comment. The unit is reported, so the history says what became of it. */
  resume(unit: SaveUnit, _intent: IntentEntry<SaveBefore, SaveRequest> | undefined, context: Context) {
    return this.finish(unit, { result: 'skipped', message: interruptedWords() }, context);
  }

  undo(): UndoOffer<never> {
    return { notOffered: saveNoUndoWords() };
  }

  private async finish(unit: SaveUnit, o: UnitOutcome, context: Context): Promise<UnitOutcome> {
    if (!o.unconfirmed)
      await context.journal.append({ type: 'outcome', seq: unit.seq, result: o.result, message: o.message });
    return o;
  }
}
