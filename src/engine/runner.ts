/**
 * The one loop that runs a kind's units: a bounded pool, a unit started only while the client's request budget has
 * room (a request queued inside the client for the budget could not be called back, so cancelling would have to wait
 * for the budget window), cancellation that stops starting units but never aborts a request sent, and a stop of the
 * whole run on a failure every later unit would meet too.
 */
import { DEFAULT_MAX_CONCURRENT, type Budget, type PortalErrorKind } from '../api/index';
import { linkedSignal, pause, runPool } from '../node/pool';
import type { JournalSink, Unit, UnitContext, UnitOutcome } from './job';

/** Failures that every later unit would meet too: the run stops starting units, as on cancel. */
export const STOPPING: ReadonlySet<PortalErrorKind | 'unexpected'> = new Set<PortalErrorKind | 'unexpected'>([
  'signed-out',
  'auth',
  'rate-limited',
  // A request cut off by the client closing under it (a reload): every later one would be too.
  'cancelled',
]);

export interface RunProgress<U extends Unit> {
  /** Units finished (done, skipped or failed). */
  readonly done: number;
  readonly total: number;
  readonly failed: number;
  /** Requests sent so far. */
  readonly requests: number;
  /** Estimated time left (ms) from the pace so far. */
  readonly etaMs: number | undefined;
  /** The unit just finished. */
  readonly unit: U;
  readonly result: UnitOutcome['result'];
}

export interface RunOptions<U extends Unit> {
  readonly budget: Budget;
  /** Stops starting units; those already sent finish. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RunProgress<U>) => void;
  /** Units run at once; default the client's default concurrency. */
  readonly concurrency?: number;
  /** While the budget is spent, how often to look again. Default 250 ms. */
  readonly budgetPollMs?: number;
  /** Requests sent so far (read for the progress). */
  readonly requests?: () => number;
  /** The clock for the progress's time left; default Date.now. */
  readonly now?: () => number;
}

export interface RunResult {
  /** Outcome by unit seq; a unit never started has none. */
  readonly outcomes: Map<number, UnitOutcome>;
  /** The caller's signal aborted. */
  readonly cancelled: boolean;
  /** A failure every later unit would meet too stopped the run. */
  readonly stoppedBy?: PortalErrorKind;
  /** Some unit's request was cut off by a closed client: the run has no end line, the next start resumes it. */
  readonly unconfirmed: boolean;
}

/**
 * The budget's room, counting units started whose first request has not gone out yet (their intent is being made
 * durable): each holds a slot from the look that let it start until its first request takes the client's own.
 */
class BudgetGate {
  private held = 0;

  constructor(private readonly budget: Budget) {}

  /** Waits while the budget is spent; a slot held, or undefined when the signal aborted (the unit stays untouched). */
  async enter(signal: AbortSignal, pollMs: number): Promise<(() => void) | undefined> {
    while (this.budget.used() + this.held >= this.budget.limit) {
      if (signal.aborted) return undefined;
      await pause(pollMs, signal);
    }
    if (signal.aborted) return undefined;
    this.held++;
    let held = true;
    return () => {
      if (held) this.held--;
      held = false;
    };
  }
}

/**
 * Runs `each` over `units` under the engine's rules (see the file's comment). `sends` says which wait for budget;
 * `each` calls `sending` just before its first request, which then holds the budget slot instead.
 */
export async function runUnits<U extends Unit>(
  units: readonly U[],
  options: RunOptions<U>,
  each: (unit: U, sending: () => void) => Promise<UnitOutcome>,
  sends: (unit: U) => boolean = () => true,
): Promise<RunResult> {
  const gate = new BudgetGate(options.budget);
  const concurrency = options.concurrency ?? DEFAULT_MAX_CONCURRENT;
  const now = options.now ?? Date.now;
  const outcomes = new Map<number, UnitOutcome>();
  const stop = linkedSignal(options.signal, concurrency);
  const signal = stop.signal;
  const started = now();
  let failed = 0;
  let stoppedBy: PortalErrorKind | undefined;
  try {
    await runPool(
      units,
      concurrency,
      async (unit) => {
        const slot = sends(unit) ? await gate.enter(signal, options.budgetPollMs ?? 250) : () => undefined;
        if (!slot || signal.aborted) return slot?.();
        const o = await each(unit, slot).finally(slot);
        outcomes.set(unit.seq, o);
        if (o.result === 'failed') failed++;
        if (o.kind && o.kind !== 'unexpected' && STOPPING.has(o.kind) && !signal.aborted) {
          stoppedBy = o.kind;
          stop.dispose();
        }
        const done = outcomes.size;
        const eta = Math.round(((now() - started) / done) * (units.length - done));
        tell(options, {
          done,
          total: units.length,
          failed,
          requests: options.requests?.() ?? 0,
          etaMs: eta,
          unit,
          result: o.result,
        });
      },
      signal,
    );
  } finally {
    stop.dispose();
  }
  const unconfirmed = [...outcomes.values()].some((o) => o.unconfirmed === true);
  return { outcomes, cancelled: options.signal?.aborted === true, unconfirmed, ...(stoppedBy ? { stoppedBy } : {}) };
}

/** A journal as a run uses it: its lines, and its lock let go of at the end. */
export interface RunJournal<B, R> extends JournalSink<B, R> {
  close(): Promise<void>;
}

/** A journaled run's result: the run's, and the requests its units counted. */
export interface JournaledRun extends RunResult {
  readonly requests: number;
}

/**
 * Runs a kind's units with their journal (see runUnits): each unit gets the journal and the run's request count; the
 * journal gets its end unless a request was cut off by a closed client (the next start then offers to resume the
 * run, units never started included), and is closed however the run ends.
 */
export async function runJournaled<U extends Unit, B, R>(
  journal: RunJournal<B, R>,
  units: readonly U[],
  options: Omit<RunOptions<U>, 'requests'>,
  each: (unit: U, context: UnitContext<B, R>, sending: () => void) => Promise<UnitOutcome>,
  sends?: (unit: U) => boolean,
): Promise<JournaledRun> {
  let requests = 0;
  const context: UnitContext<B, R> = { journal, countRequest: () => void requests++ };
  try {
    const run = await runUnits(units, { ...options, requests: () => requests }, (u, s) => each(u, context, s), sends);
    if (!run.unconfirmed) await journal.append({ type: 'end', finishedAt: Date.now(), cancelled: run.cancelled });
    return { ...run, requests };
  } finally {
    await journal.close();
  }
}

/** A progress listener that throws must not lose the report of units already run. */
function tell<U extends Unit>(options: RunOptions<U>, progress: RunProgress<U>): void {
  try {
    options.onProgress?.(progress);
  } catch {
    // The run goes on; the report says what happened.
  }
}
