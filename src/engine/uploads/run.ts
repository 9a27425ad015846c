/**
 * Runs an upload plan through the engine: the journal's first line holds every file to upload, then each file runs
 * as a unit under the engine's loop (within the request budget, cancellable, resumable). Upload journals live in
 * their own folder (`<storage>/uploads/journal/`), so the members' resume never meets one.
 */
import { join } from 'node:path';
import type { PortalErrorKind } from '../../api/index';
import type { JournalRecordOf, Unit, UnitOutcome } from '../job';
import { discardJournal, Journal, unfinishedJournals } from '../journalFile';
import { runUnits, type RunProgress } from '../runner';
import { journalRecordOf, UploadKind, type UploadClient, type UploadRecord, type UploadUnit } from './kind';
import { contentTypeOf, keepBothPath, type ClashChoice, type UploadPlan, type UploadTargetRef } from './plan';

export interface UploadSettings {
  /** The extension's storage folder. */
  readonly storageFolder: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RunProgress<UploadUnit>) => void;
  /** Files uploaded at once. Default 8. */
  readonly concurrency?: number;
  readonly budgetPollMs?: number;
}

export interface UploadResult {
  readonly applyId: string;
  readonly outcomes: ReadonlyMap<number, UnitOutcome>;
  readonly units: readonly UploadUnit[];
  readonly requests: number;
  readonly cancelled: boolean;
  readonly stoppedBy?: PortalErrorKind;
}

const folderOf = (storage: string): string => join(storage, 'uploads');

/** The units of a plan: clashes as chosen (skip unless said otherwise), keep-both under a free name. */
export function unitsOf(plan: UploadPlan, choices: ReadonlyMap<string, ClashChoice>): UploadUnit[] {
  const taken = new Set(plan.files.map((f) => f.path.toLowerCase()));
  const units: UploadUnit[] = [];
  for (const f of plan.files) {
    const choice = f.existingId === undefined ? undefined : (choices.get(f.path) ?? 'skip');
    if (choice === 'skip') continue;
    const path = choice === 'keep-both' ? keepBothPath(f.path, (p) => taken.has(p.toLowerCase())) : f.path;
    taken.add(path.toLowerCase());
    units.push({
      seq: units.length,
      path,
      localPath: f.localPath,
      size: f.size,
      contentType: contentTypeOf(path),
      ...(choice === 'version' && f.existingId !== undefined ? { replaceId: f.existingId } : {}),
    });
  }
  return units;
}

async function runKind(
  client: UploadClient,
  journal: Journal,
  kind: UploadKind,
  units: readonly UploadUnit[],
  settings: UploadSettings,
  each: (u: UploadUnit, c: Parameters<UploadKind['run']>[1]) => Promise<UnitOutcome>,
): Promise<UploadResult> {
  const counter = { requests: 0 };
  // The journal's lines are JSON of any kind; its writer is typed for the first kind's, hence the one cast.
  const context = { journal: journal as never, countRequest: () => void counter.requests++ };
  try {
    const run = await runUnits(
      units,
      {
        budget: client.budget,
        concurrency: settings.concurrency ?? 8,
        requests: () => counter.requests,
        ...(settings.signal ? { signal: settings.signal } : {}),
        ...(settings.onProgress ? { onProgress: settings.onProgress } : {}),
        ...(settings.budgetPollMs ? { budgetPollMs: settings.budgetPollMs } : {}),
      },
      (u) => each(u, context),
    );
    if (!run.unconfirmed) await journal.append({ type: 'end', finishedAt: Date.now(), cancelled: run.cancelled });
    const { outcomes, cancelled, stoppedBy } = run;
    return {
      applyId: journal.applyId,
      outcomes,
      units,
      requests: counter.requests,
      cancelled,
      ...(stoppedBy ? { stoppedBy } : {}),
    };
  } finally {
    await journal.close();
  }
}

/** Uploads the units: the journal first (whole), then each file. Throws only before the first request. */
export async function runUploads(
  client: UploadClient,
  target: UploadTargetRef,
  units: readonly UploadUnit[],
  settings: UploadSettings & { readonly title?: string },
): Promise<UploadResult> {
  const begin = {
    kind: 'uploads',
    accountId: target.accountId,
    portalId: target.portalId,
    origin: 'upload',
    startedAt: Date.now(),
    target,
    ...(settings.title ? { title: settings.title } : {}),
    work: units,
  };
  const journal = await Journal.create(folderOf(settings.storageFolder), begin as never);
  const kind = new UploadKind(client, target, journal.applyId);
  return runKind(client, journal, kind, units, settings, (u, c) => kind.run(u, c));
}

/** Goes on with an upload that stopped (a reload, a crash): what landed is not sent again; the rest is. */
export async function resumeUploads(
  client: UploadClient,
  stale: Pick<UploadRecord, 'file'>,
  settings: UploadSettings,
): Promise<UploadResult> {
  // Read again under the journal's lock: what another window did meanwhile counts, so nothing is sent twice.
  const reopened = await Journal.reopen(stale);
  const journal = reopened.journal;
  const record = journalRecordOf(reopened.record as unknown as JournalRecordOf<Unit, unknown, unknown>);
  if (!record) {
    await journal.close();
    throw new Error(`Not an upload journal: ${stale.file}`);
  }
  const target = (record.begin as unknown as { target: UploadTargetRef }).target;
  const kind = new UploadKind(client, target, record.applyId);
  const left = record.begin.work.filter((u) => !record.outcomes.has(u.seq));
  return runKind(client, journal, kind, left, settings, (u, c) => kind.resume(u, record.intents.get(u.seq), c));
}

/** Uploads that stopped without finishing, newest first. */
export async function unfinishedUploads(storageFolder: string): Promise<UploadRecord[]> {
  // An upload whose journal is locked is running, in this window or another: it is not offered to resume.
  const all = (await unfinishedJournals(folderOf(storageFolder))) as unknown as Array<
    JournalRecordOf<Unit, unknown, unknown>
  >;
  return all.flatMap((r) => journalRecordOf(r) ?? []);
}

/** Marks an unfinished upload as left alone (the user chose so): the next start no longer offers it. */
export async function discardUploads(record: UploadRecord): Promise<void> {
  await discardJournal(record as never);
}
