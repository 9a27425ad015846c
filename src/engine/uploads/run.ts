/**
 * Runs an upload plan through the engine: the journal's first line holds every file to upload, then each file runs
 * as a unit under the engine's loop (within the request budget, cancellable, resumable). Upload journals live in
 * their own folder (`<storage>/uploads/journal/`), so the members' resume never meets one. The journal records the
 * plan's root and each file's pinned identity; a resume holds every file to both before it sends anything.
 */
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { UnsafePathError } from '../../node/disk';
import { fileInsideRoot } from '../../node/pinnedFile';
import { discardJournal, Journal, unfinishedJournals } from '../journalFile';
import { runJournaled, type JournaledRun, type RunProgress } from '../runner';
import { uploadJournal } from './journalSchema';
import { UploadKind, type UploadClient, type UploadRecord, type UploadUnit } from './kind';
import type { UploadPlan } from './plan';

export interface UploadSettings {
  /** The extension's storage folder. */
  readonly storageFolder: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RunProgress<UploadUnit>) => void;
  /** Files uploaded at once. Default 8. */
  readonly concurrency?: number;
  readonly budgetPollMs?: number;
}

/** The engine's run of the units, with the run's id. */
export interface UploadResult extends JournaledRun {
  readonly applyId: string;
  readonly units: readonly UploadUnit[];
}

const folderOf = (storage: string): string => join(storage, 'uploads');

const optionsOf = (client: UploadClient, settings: UploadSettings) => ({
  budget: client.budget,
  concurrency: settings.concurrency ?? 8,
  signal: settings.signal,
  onProgress: settings.onProgress,
  budgetPollMs: settings.budgetPollMs,
});

/** Uploads the units: the journal first (whole), then each file. Throws only before the first request. */
export async function runUploads(
  client: UploadClient,
  plan: Pick<UploadPlan, 'target' | 'root'>,
  units: readonly UploadUnit[],
  settings: UploadSettings & {
    readonly title?: string;
    /** The target group or folder in the user's words: a resume offer names it. */
    readonly targetName?: string;
  },
): Promise<UploadResult> {
  const { target, root } = plan;
  const journal = await Journal.create(uploadJournal, folderOf(settings.storageFolder), {
    accountId: target.accountId,
    portalId: target.portalId,
    origin: 'upload',
    startedAt: Date.now(),
    target,
    root,
    targetName: settings.targetName ?? '',
    ...(settings.title ? { title: settings.title } : {}),
    work: units,
  });
  const kind = new UploadKind(client, target, root, journal.applyId);
  const run = await runJournaled(journal, units, optionsOf(client, settings), (u, c) => kind.run(u, c));
  return { ...run, applyId: journal.applyId, units };
}

/** A resume refused before anything was sent, with the reason in the user's words. */
export class ResumeRefused extends Error {
  override readonly name = 'ResumeRefused';
}

/** The files a resume would send: those without an outcome yet. */
export function leftToSend(record: UploadRecord): UploadUnit[] {
  return record.begin.work.filter((u) => !record.outcomes.has(u.seq));
}

/**
 * Refuses a resume whose journal changed since it was offered (so it sends only what the offer named), or that names
 * a file outside its root (an edited journal): nothing is sent then.
 */
async function checkResumable(offered: UploadRecord, now: UploadRecord): Promise<void> {
  if (!isDeepStrictEqual(offered.begin, now.begin))
    throw new ResumeRefused(l10n.t('The upload changed since its resume was offered; nothing was sent.'));
  const { root } = now.begin;
  for (const u of leftToSend(now))
    await fileInsideRoot(root, u.localPath).catch((error: unknown) => {
      throw error instanceof UnsafePathError
        ? new ResumeRefused(
            l10n.t(
              'The upload names {0}, which is not inside {1}, the folder it was planned from; nothing was sent.',
              u.localPath,
              root,
            ),
          )
        : error;
    });
}

/**
 * Goes on with an upload that stopped (a reload, a crash): what landed is not sent again; the rest is, each file held
 * to its root and to the identity its plan pinned (a changed one is a failed unit with its reason).
 */
export async function resumeUploads(
  client: UploadClient,
  offered: UploadRecord,
  settings: UploadSettings,
): Promise<UploadResult> {
  // Read again under the journal's lock: what another window did meanwhile counts, so nothing is sent twice.
  const { journal, record } = await Journal.reopen(uploadJournal, offered);
  try {
    await checkResumable(offered, record);
  } catch (error) {
    await journal.close();
    throw error;
  }
  const { target, root } = record.begin;
  const kind = new UploadKind(client, target, root, record.applyId);
  const units = leftToSend(record);
  const run = await runJournaled(journal, units, optionsOf(client, settings), (u, c) =>
    kind.resume(u, record.intents.get(u.seq), c),
  );
  return { ...run, applyId: record.applyId, units };
}

/** Uploads that stopped without finishing, newest first. */
export async function unfinishedUploads(storageFolder: string): Promise<UploadRecord[]> {
  // An upload whose journal is locked is running, in this window or another: it is not offered to resume.
  return unfinishedJournals(uploadJournal, folderOf(storageFolder));
}

/** Marks an unfinished upload as left alone (the user chose so): the next start no longer offers it. */
export async function discardUploads(record: UploadRecord): Promise<void> {
  await discardJournal(uploadJournal, record);
}
