/**
 * Runs member work through the engine: a plan's apply, a bulk edit, a single command, a form's save, an undo, a
 * retry and a resume all come here. The journal's first line holds every member's planned work, so nothing is lost
 * if the run stops; before each member's first request, an intent line with the member's previous values is made
 * durable; after, the outcome. One member per worker, within the client's request budget, cancellable. The run hands
 * the work on from step to step (journal, kind, loop, report) rather than coming back here between them.
 */
import { join } from 'node:path';
import type { Member, MemberV2, PortalErrorKind } from '../../api/index';
import type { UnitContext, UnitOutcome } from '../job';
import { Journal } from '../journalFile';
import { runJournaled, type RunProgress } from '../runner';
import type { MemberJournal } from './journal';
import { memberJournal } from './journalSchema';
import { MemberKind, type ApplyClient } from './kind';
import type { JournalOrigin, JournalRequest, JournalWork, MemberBefore, ReportRow } from './model';
import { reportRows } from './report';
import { plain } from '../../shared/plainText';

export interface ApplyProgress {
  /** Members finished (done, skipped or failed). */
  readonly done: number;
  readonly total: number;
  readonly failed: number;
  /** Requests sent so far. */
  readonly requests: number;
  /** Estimated time left (ms) from the pace so far; undefined until one member has finished. */
  readonly etaMs: number | undefined;
  readonly username: string;
  /** The unit just finished. */
  readonly seq: number;
  readonly result: UnitOutcome['result'];
}

/** How any member run goes: where its journal and snapshots are, its signal, progress and pace. */
export interface RunSettings {
  /** The storage folder; the journal goes in its `journal/` folder (the UI passes `context.globalStorageUri.fsPath`). */
  readonly journalFolder: string;
  /** Where snapshots of members deleted for good go; default the `snapshots` folder beside the journal's. */
  readonly snapshotFolder?: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ApplyProgress) => void;
  /** Members changed at once; default the client's default concurrency. */
  readonly concurrency?: number;
  /** While the budget is spent, how often to look again. Default 250 ms. */
  readonly budgetPollMs?: number;
  /**
   * A PATCH answered with values that do not show the change fails its member (the default). A form that checks the
   * answer field by field itself, and names each field, turns this off.
   */
  readonly verifyAnswers?: boolean;
}

export interface ApplyResult {
  readonly applyId: string;
  readonly journalFile: string;
  /** One row per member, in plan order. */
  readonly rows: readonly ReportRow[];
  readonly requests: number;
  readonly cancelled: boolean;
  /** A failure every later member would meet too (signed out, refused credentials, rate limit) stopped the run. */
  readonly stoppedBy?: PortalErrorKind;
  /** The portal's last answer for a member, by unit seq (the views show it in place). */
  readonly answers: ReadonlyMap<number, Member>;
  /** The portal's answer to a member's v2 update, by unit seq (a form checks the profile fields it sent). */
  readonly answersV2: ReadonlyMap<number, MemberV2>;
  /** The error that failed a member, by unit seq (a form maps the portal's field errors to its fields). */
  readonly errors: ReadonlyMap<number, unknown>;
}

/** What a run of units is, for its journal's first line. */
export interface RunHead {
  readonly accountId: number;
  readonly portalId: string;
  readonly origin: JournalOrigin;
  readonly title?: string;
  /** The organisation's name, kept with the change so its history and undo name it after a reload. */
  readonly accountLabel?: string;
  readonly undoOf?: string;
}

/** Where snapshots go: the user's folder, or else the engine's storage (a member is never deleted without one). */
export function snapshotsOf(settings: RunSettings): string {
  return settings.snapshotFolder ?? join(settings.journalFolder, 'snapshots');
}

function progressOf(settings: RunSettings): ((p: RunProgress<JournalWork>) => void) | undefined {
  const tell = settings.onProgress;
  return tell && (({ unit, ...p }) => tell({ ...p, username: unit.username, seq: unit.seq }));
}

/** Runs `each` over `items` with the engine's loop; the journal gets its end unless a request was cut off. */
export async function runJournal(
  kind: MemberKind,
  journal: MemberJournal,
  items: readonly JournalWork[],
  settings: RunSettings,
  each: (work: JournalWork, context: UnitContext<MemberBefore, JournalRequest>) => Promise<UnitOutcome>,
): Promise<{ outcomes: Map<number, UnitOutcome>; requests: number; cancelled: boolean; stoppedBy?: PortalErrorKind }> {
  const run = await runJournaled(
    journal,
    items,
    { ...settings, budget: kind.client.budget, onProgress: progressOf(settings) },
    // A member's first request takes the budget slot its unit held while its intent was made durable.
    (w, c, sending) => each(w, { journal: c.journal, countRequest: () => (c.countRequest(), sending()) }),
    // A removal reads the member first, so it needs the budget even with its one request.
    (w) => kind.sends(w) || w.action === 'remove',
  );
  const { outcomes, requests, cancelled, stoppedBy } = run;
  return { outcomes, requests, cancelled, ...(stoppedBy ? { stoppedBy } : {}) };
}

/**
 * Runs member units: their journal first (whole), then each unit under the engine's rules. Throws only before the
 * first request (journal folder unusable).
 */
export async function runMemberWork(
  client: ApplyClient,
  head: RunHead,
  items: readonly JournalWork[],
  settings: RunSettings & { readonly secrets?: ReadonlyMap<number, string> },
): Promise<ApplyResult> {
  const journal = await Journal.create(memberJournal, settings.journalFolder, {
    accountId: head.accountId,
    portalId: head.portalId,
    origin: head.origin,
    startedAt: Date.now(),
    ...(head.title ? { title: head.title } : {}),
    ...(head.accountLabel ? { accountLabel: plain(head.accountLabel, { maxLength: 200 }) } : {}),
    ...(head.undoOf ? { undoOf: head.undoOf } : {}),
    work: items,
  });
  const kind = new MemberKind(client, head.accountId, { ...settings, snapshotFolder: snapshotsOf(settings) });
  const run = await runJournal(kind, journal, items, settings, (w, c) => kind.run(w, c));
  const { outcomes, ...rest } = run;
  const rows = reportRows(items, outcomes);
  return {
    applyId: journal.applyId,
    journalFile: journal.file,
    rows,
    ...rest,
    answers: kind.answers,
    answersV2: kind.answersV2,
    errors: kind.errors,
  };
}
