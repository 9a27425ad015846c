/**
 * Runs settings changes through the engine: the journal's first line holds every change, then each runs as a unit
 * under the engine's loop. Settings journals live in their own folder (`<storage>/settings/journal/`), so the
 * members' resume and history never meet one; the change history lists both.
 */
import { join } from 'node:path';
import type { PortalErrorKind } from '../../api/index';
import type { UnitOutcome } from '../job';
import { Journal, listJournals, unfinishedJournals } from '../journalFile';
import { runJournaled } from '../runner';
import { settingsJournal } from './journalSchema';
import { SettingsKind, settingsUndo } from './kind';
import type { SettingsBefore, SettingsOrigin, SettingsRecord, SettingsRequest, SettingsUnit } from './model';
import type { SettingsAnswer, SettingsClient } from './portal';

export interface SettingsRun {
  readonly storageFolder: string;
  readonly portalId: string;
  /** 0 for the signed-in user's own applications. */
  readonly accountId: number;
  readonly origin: SettingsOrigin;
  /** The change in the user's words ("Rename the group Engineering"), for the history and Undo. */
  readonly title: string;
  readonly undoOf?: string;
  readonly signal?: AbortSignal;
}

export interface SettingsResult {
  readonly applyId: string;
  readonly outcomes: ReadonlyMap<number, UnitOutcome>;
  /** The portal's answers by unit (a new application's secret among them): for the caller, never journaled. */
  readonly answers: ReadonlyMap<number, SettingsAnswer>;
  /** The error each failed unit met (its outcome holds the message). */
  readonly errors: ReadonlyMap<number, unknown>;
  readonly cancelled: boolean;
  readonly stoppedBy?: PortalErrorKind;
}

export const settingsFolderOf = (storage: string): string => join(storage, 'settings');

async function runKind(
  client: SettingsClient,
  journal: Journal<SettingsUnit, SettingsBefore, SettingsRequest, SettingsOrigin>,
  kind: SettingsKind,
  units: readonly SettingsUnit[],
  signal: AbortSignal | undefined,
  each: (u: SettingsUnit, c: Parameters<SettingsKind['run']>[1]) => Promise<UnitOutcome>,
): Promise<SettingsResult> {
  const run = await runJournaled(journal, units, { budget: client.budget, concurrency: 1, signal }, each);
  const { outcomes, cancelled, stoppedBy } = run;
  const { answers, errors } = kind;
  return { applyId: journal.applyId, outcomes, answers, errors, cancelled, ...(stoppedBy ? { stoppedBy } : {}) };
}

/** Sends the changes: the journal first (whole), then each change. Throws only before the first request. */
export async function runSettings(
  client: SettingsClient,
  units: readonly SettingsUnit[],
  run: SettingsRun,
): Promise<SettingsResult> {
  const journal = await Journal.create(settingsJournal, settingsFolderOf(run.storageFolder), {
    accountId: run.accountId,
    portalId: run.portalId,
    origin: run.origin,
    startedAt: Date.now(),
    title: run.title,
    ...(run.undoOf ? { undoOf: run.undoOf } : {}),
    work: units,
  });
  const kind = new SettingsKind(client, run.accountId);
  return runKind(client, journal, kind, units, run.signal, (u, c) => kind.run(u, c));
}

/** Goes on with settings changes that stopped (a reload, a crash): what landed is not sent again. */
export async function resumeSettings(
  client: SettingsClient,
  stale: Pick<SettingsRecord, 'file'>,
  signal?: AbortSignal,
): Promise<SettingsResult> {
  const { journal, record } = await Journal.reopen(settingsJournal, stale);
  const kind = new SettingsKind(client, record.begin.accountId);
  const left = record.begin.work.filter((u) => !record.outcomes.has(u.seq));
  return runKind(client, journal, kind, left, signal, (u, c) => kind.resume(u, record.intents.get(u.seq), c));
}

export interface PastSettingsChange {
  readonly record: SettingsRecord;
  readonly undone: boolean;
  /** Finished, not undone, not itself an undo, and it changed something an undo can send back. */
  readonly undoable: boolean;
}

/** Every settings change, newest first, with what became of each. */
export async function settingsHistory(storage: string): Promise<PastSettingsChange[]> {
  const all = await listJournals(settingsJournal, settingsFolderOf(storage));
  const undone = new Set(all.map((r) => r.begin.undoOf).filter((id): id is string => id !== undefined));
  return all.map((record) => {
    const isUndone = undone.has(record.applyId);
    const offer = settingsUndo(record);
    const undoable = !isUndone && !record.unfinished && record.begin.origin !== 'undo' && 'plan' in offer;
    return { record, undone: isUndone, undoable };
  });
}

/** Settings changes that stopped without finishing, newest first (a locked one is running and is not listed). */
export async function unfinishedSettings(storage: string): Promise<SettingsRecord[]> {
  return unfinishedJournals(settingsJournal, settingsFolderOf(storage));
}
