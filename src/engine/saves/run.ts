/**
 * Runs a save through the engine: its bytes staged (0600 in a 0700 folder under `<storage>/saves/staged/`), the
 * journal's first line naming them by digest and identity, then the one unit under the engine's loop. Save journals
 * live in their own folder (`<storage>/saves/journal/`), so no other kind's resume or history meets one; the change
 * history lists them. A save that was interrupted is not resumed (see kind.ts): the next save of the session closes it
 * in its journal as not sent again, and removes its staged bytes.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FileRecord, PortalErrorKind } from '../../api/index';
import { fileFacts, listFolder, removeFile, writeFileSafely } from '../../node/disk';
import { isLocked } from '../../node/fileLock';
import { identify } from '../../node/pinnedFile';
import { inFolder, privateFolder } from '../../node/privateFiles';
import type { UnitOutcome } from '../job';
import { Journal, listJournals } from '../journalFile';
import { runJournaled } from '../runner';
import { saveJournal } from './journalSchema';
import {
  digestOf,
  interruptedWords,
  SaveKind,
  type SaveBefore,
  type SaveClient,
  type SaveRecord,
  type SaveUnit,
} from './kind';

const savesFolderOf = (storage: string): string => join(storage, 'saves');
const stagedFolderOf = (storage: string): string => join(storage, 'saves', 'staged');

/** What the save's check read and decided: the record that gets a new version, as the portal held it then. */
export interface SavePlan {
  readonly portalId: string;
  readonly accountId: number;
  readonly groupId: number;
  /** "Engineering/q1-docs": the group and folder path in words. */
  readonly where: string;
  /** The save in the user's words ("Save report.txt back to Engineering/q1-docs"), for the history. */
  readonly title: string;
  readonly record: Pick<FileRecord, 'id' | 'name' | 'contentType' | 'parentId'>;
  readonly before: SaveBefore;
}

export interface SaveResult {
  readonly applyId: string;
  readonly outcome: UnitOutcome | undefined;
  /** The portal's answer to the complete call (the record, when it says so). */
  readonly answer: FileRecord | undefined;
  /** The error the unit met, as thrown (the caller maps it as a direct call would). */
  readonly error: unknown;
  readonly stoppedBy?: PortalErrorKind;
}

/** Staged files no journal names are removed once this old (a save in another window may be about to journal one). */
const STRAY_STAGED_MS = 10 * 60_000;

/** Storage folders whose interrupted saves this process has closed already. */
const settled = new Set<string>();

/** Closes a save that stopped without finishing, as not sent again, and removes its staged bytes. */
async function closeInterrupted(storage: string, stale: SaveRecord): Promise<void> {
  const { journal, record } = await Journal.reopen(saveJournal, stale);
  try {
    if (!record.unfinished) return;
    for (const u of record.begin.work)
      if (!record.outcomes.has(u.seq))
        await journal.append({ type: 'outcome', seq: u.seq, result: 'skipped', message: interruptedWords() });
    await journal.append({ type: 'end', finishedAt: Date.now(), cancelled: true, discarded: true });
  } finally {
    await journal.close();
  }
  for (const u of stale.begin.work) await removeFile(inFolder(stagedFolderOf(storage), u.staged));
}

/**
 * Closes the saves that stopped without finishing (a crash, a reload), once per storage folder a session: a running
 * one (its journal locked, in this window or another) is left alone with its staged bytes.
 */
export async function settleInterruptedSaves(storage: string): Promise<void> {
  if (settled.has(storage)) return;
  settled.add(storage);
  const running = new Set<string>();
  for (const r of await listJournals(saveJournal, savesFolderOf(storage))) {
    if (!r.unfinished) continue;
    if (await isLocked(r.file)) for (const u of r.begin.work) running.add(u.staged);
    else await closeInterrupted(storage, r).catch(() => undefined);
  }
  const folder = stagedFolderOf(storage);
  for (const e of await listFolder(folder)) {
    if (!e.isFile() || running.has(e.name)) continue;
    const file = join(folder, e.name);
    const facts = await fileFacts(file);
    if (facts && Date.now() - facts.mtimeMs > STRAY_STAGED_MS) await removeFile(file);
  }
}

/** Stages the bytes: a new private file, named at random, with its digest and identity. */
async function stage(storage: string, bytes: Uint8Array) {
  const folder = await privateFolder(stagedFolderOf(storage));
  const staged = `${randomBytes(16).toString('hex')}.bin`;
  const file = inFolder(folder, staged);
  await writeFileSafely(file, bytes, { replace: false });
  return { file, staged, digest: digestOf(bytes), identity: await identify(file) };
}

/**
 * Sends `bytes` as a new version of the plan's record: staged, journaled whole, then uploaded from the staged copy.
 * Throws only before the first request; a failed upload is in the result, with its error.
 */
export async function runSave(
  client: SaveClient,
  storage: string,
  plan: SavePlan,
  bytes: Uint8Array,
  signal?: AbortSignal,
): Promise<SaveResult> {
  await settleInterruptedSaves(storage).catch(() => undefined);
  const { file, staged, digest, identity } = await stage(storage, bytes);
  try {
    const unit: SaveUnit = {
      seq: 0,
      recordId: plan.record.id,
      folderId: plan.record.parentId ?? 0,
      name: plan.record.name,
      contentType: plan.record.contentType,
      size: bytes.length,
      digest,
      staged,
      identity,
    };
    const journal = await Journal.create(saveJournal, savesFolderOf(storage), {
      accountId: plan.accountId,
      portalId: plan.portalId,
      origin: 'save',
      startedAt: Date.now(),
      groupId: plan.groupId,
      where: plan.where,
      title: plan.title,
      work: [unit],
    });
    const target = { accountId: plan.accountId, groupId: plan.groupId };
    const kind = new SaveKind(client, target, stagedFolderOf(storage), journal.applyId, plan.before, signal);
    const run = await runJournaled(journal, [unit], { budget: client.budget, concurrency: 1, signal }, (u, c) =>
      kind.run(u, c),
    );
    return {
      applyId: journal.applyId,
      outcome: run.outcomes.get(0),
      answer: kind.answers.get(0),
      error: kind.errors.get(0),
      ...(run.stoppedBy ? { stoppedBy: run.stoppedBy } : {}),
    };
  } finally {
    await removeFile(file);
  }
}

export interface PastSave {
  readonly record: SaveRecord;
  /** What became of it: sent, failed (the portal's word), or interrupted and not sent again. */
  readonly state: 'saved' | 'failed' | 'interrupted';
  /** The outcome's message (a failure's reason), empty when saved. */
  readonly message: string;
}

/** Every save made from VS Code, newest first, with what became of each. None can be undone. */
export async function saveHistory(storage: string): Promise<PastSave[]> {
  const all = await listJournals(saveJournal, savesFolderOf(storage));
  return all.map((record) => {
    const outcome = record.outcomes.get(0);
    const interrupted = record.unfinished || record.end?.discarded === true || outcome === undefined;
    const state = interrupted ? 'interrupted' : outcome.result === 'done' ? 'saved' : 'failed';
    return { record, state, message: outcome?.message ?? '' };
  });
}
