/**
 * The seam between the write engine and a kind of work. The engine owns plan → journal → runner → report; a kind
 * says what one unit of its work is and how to run, resume, undo and report it. Member changes are the first kind
 * (src/engine/members); file uploads are the next: one unit = one file (a temp file and its chunks as requests),
 * resumable from the journal, whose undo the API does not offer.
 *
 * What the engine guarantees every kind: the whole planned work is durable in the journal's first line before any
 * request; a unit's intent (with the previous values it needs to be undone) is durable before the unit's first
 * request; its outcome after. Units run in a bounded pool, each started only while the request budget has room, and
 * cancelling stops starting units but never aborts a request sent (so the report can say what happened to each).
 */
import type { PortalErrorKind } from '../api/index';

/** What a unit came to. 'not-started' is the report's word for a unit the run never reached. */
export type UnitResult = 'done' | 'failed' | 'skipped';
export type ReportResult = UnitResult | 'not-started';

export interface UnitOutcome {
  readonly result: UnitResult;
  /** A message a person can act on (the portal's text is untrusted). Empty when done. */
  readonly message: string;
  /** The failure's kind: some stop the whole run (see STOPPING in runner.ts). */
  readonly kind?: PortalErrorKind | 'unexpected';
  /** The client was closed under a request (a reload): whether it landed is unknown, so no outcome is journaled. */
  readonly unconfirmed?: boolean;
}

/** One unit of planned work, as the journal's first line holds it. */
export interface Unit {
  /** Position in the run; intents and outcomes name their unit by it. */
  readonly seq: number;
}

/**
 * The lines of a journal (JSON Lines), generic over a kind's unit, previous values and requests, the origins it
 * names, and what its first line holds beyond every kind's (`X`: an upload's root and target).
 */
interface BeginFields<U extends Unit, O extends string> {
  readonly type: 'begin';
  readonly applyId: string;
  /** Which kind of work this is; absent in journals written before there was a second kind: members. */
  readonly kind?: string;
  readonly accountId: number;
  /** Portal id (the UI's), so a resume after a reload knows which client to use. */
  readonly portalId: string;
  readonly origin: O;
  readonly startedAt: number;
  /** The change in the user's words ("Disable 27 members"), for history and Undo. */
  readonly title?: string;
  /** The organisation's name as the run knew it, so a history read after a reload names it. */
  readonly accountLabel?: string;
  /** The run this one undoes, when it is an undo: a run undone is never offered for undo again. */
  readonly undoOf?: string;
  readonly work: readonly U[];
}
export type BeginEntry<U extends Unit, O extends string = string, X extends object = object> = BeginFields<U, O> & X;

export interface IntentEntry<B, R> {
  /** Written, and made durable, before the unit's first request. */
  readonly type: 'intent';
  readonly seq: number;
  /** The unit's values just before: what its undo needs. */
  readonly before: B | null;
  readonly requests: readonly R[];
  /** Where a snapshot was written first (a member deleted for good). */
  readonly snapshot?: string;
}

export interface OutcomeEntry {
  readonly type: 'outcome';
  readonly seq: number;
  readonly result: UnitResult;
  readonly message: string;
}

export interface EndEntry {
  readonly type: 'end';
  readonly finishedAt: number;
  readonly cancelled: boolean;
  readonly discarded?: boolean;
}

export type JournalEntryOf<U extends Unit, B, R, O extends string = string, X extends object = object> =
  BeginEntry<U, O, X> | IntentEntry<B, R> | OutcomeEntry | EndEntry;

/** A journal as read back. */
export interface JournalRecordOf<U extends Unit, B, R, O extends string = string, X extends object = object> {
  readonly applyId: string;
  readonly file: string;
  readonly begin: BeginEntry<U, O, X>;
  /** Intent by unit seq. */
  readonly intents: ReadonlyMap<number, IntentEntry<B, R>>;
  /** Outcome by unit seq. */
  readonly outcomes: ReadonlyMap<number, OutcomeEntry>;
  readonly end: EndEntry | undefined;
  /** An intent without an outcome, or no end: the run stopped without finishing (a crash or a reload). */
  readonly unfinished: boolean;
}

/**
 * What a kind tells the journal of its lines: the name its first line carries, and the check each line passes before
 * it counts. A journal is a file anyone with access to the user's profile can edit, and a resume or an undo sends what
 * it says, so the check is the kind's own, value by value; the journal's files know no kind.
 */
export interface JournalSchema<U extends Unit, B, R, O extends string = string, X extends object = object> {
  /** The `kind` of its journals' first line. */
  readonly kind: string;
  /** Its journals from before the first line named a kind name none (the members'). */
  readonly unnamed?: boolean;
  /** One line's JSON as this kind's entry; throws 'invalid-input' for anything else. */
  parse(json: unknown): JournalEntryOf<U, B, R, O, X>;
}

/** What appending to a run's journal offers a kind. */
export interface JournalSink<B, R> {
  append(entry: IntentEntry<B, R> | OutcomeEntry | EndEntry): Promise<void>;
}

/** What a kind's unit runs with: the run's journal and the count of requests sent, shared by every unit. */
export interface UnitContext<B, R> {
  readonly journal: JournalSink<B, R>;
  /** Counts every request the run sends (reads included), for the report and the budget figures. */
  countRequest(): void;
}

/** An undo the kind can offer, or why it offers none ("the API has no way to take an upload back"). */
export type UndoOffer<P> = { readonly plan: P } | { readonly notOffered: string };

/**
 * A kind of work. `U` is its unit, `B` the previous values an intent keeps, `R` a journaled request, `P` the plan
 * type its undo is expressed in (a kind's undo is a plan like any other, previewed before it runs).
 */
export interface WorkKind<U extends Unit, B, R, P> {
  /** The journal's `kind`. */
  readonly name: string;
  /** Whether the unit sends anything: a unit that sends nothing waits for no budget. Absent: every unit sends. */
  sends?(unit: U): boolean;
  /** Runs one unit: its intent durable first, then its requests in order, then its outcome. */
  run(unit: U, context: UnitContext<B, R>): Promise<UnitOutcome>;
  /**
   * A unit of an unfinished run: `intent` says it was started. The kind reads what the portal shows and sends only
   * what is left, so nothing is done twice and nothing is lost.
   */
  resume(unit: U, intent: IntentEntry<B, R> | undefined, context: UnitContext<B, R>): Promise<UnitOutcome>;
  /** The plan that puts a finished run back, from its journal. */
  undo(record: JournalRecordOf<U, B, R>): UndoOffer<P>;
}
