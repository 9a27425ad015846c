/**
 * The overall time limit of one request attempt: from sending to the last byte of a JSON answer.
 *
 * undici's own timeouts measure silence (no headers yet, no body byte for a while), so a server that drips one
 * byte every few seconds would hold a request slot for ever. Here every attempt gets a due time; one sweep timer
 * per client (running only while attempts are in flight) aborts those past it. A timer per request would cost a
 * timer object and two list operations on every call; the sweep costs a Set insert and delete, and fires at most
 * an eighth of the limit late.
 *
 * The signal handed to undici is an `AttemptSignal`, a minimal stand-in for AbortSignal (undici accepts any object
 * with addEventListener). It also follows the caller's own AbortSignal, so one object carries both.
 */
import { ERROR_CODES } from './errors';

/** What an attempt is aborted with when its time is up; classified as a 'timeout' (see failures.ts). */
export class DeadlineError extends Error {
  readonly code = ERROR_CODES.deadline;
  constructor(readonly ms: number) {
    super(`The request took longer than ${ms} ms`);
    this.name = 'DeadlineError';
  }
}

export class AttemptSignal {
  aborted = false;
  reason: unknown = undefined;
  private listener: (() => void) | undefined;

  constructor(readonly due: number, private readonly caller: AbortSignal | undefined) {
    if (caller?.aborted) {
      this.aborted = true;
      this.reason = caller.reason;
    } else {
      // The caller's signal calls handleEvent below: no closure per attempt.
      caller?.addEventListener('abort', this, { once: true });
    }
  }

  /** undici registers one listener per request. */
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listener = listener;
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === listener) this.listener = undefined;
  }

  /** The caller's signal fired. */
  handleEvent(): void {
    this.abort(this.caller?.reason);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }

  /** Stops following the caller's signal. */
  detach(): void {
    this.caller?.removeEventListener('abort', this);
  }
}

export class Deadlines {
  private readonly live = new Set<AttemptSignal>();
  private timer: NodeJS.Timeout | undefined;
  private readonly tickMs: number;

  constructor(readonly ms: number) {
    this.tickMs = Math.min(500, Math.max(5, Math.floor(ms / 8)));
  }

  /** A signal for one attempt, aborted when `ms` have passed (or when the caller's signal fires). */
  start(caller: AbortSignal | undefined): AttemptSignal {
    const attempt = new AttemptSignal(performance.now() + this.ms, caller);
    this.live.add(attempt);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.tickMs);
      this.timer.unref();
    }
    return attempt;
  }

  /** The attempt is over (answered, failed or handed on). */
  end(attempt: AttemptSignal): void {
    this.live.delete(attempt);
    attempt.detach();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private sweep(): void {
    if (this.live.size === 0) {
      // Stopped only when a whole tick passed idle, so back-to-back calls do not create a timer each.
      this.close();
      return;
    }
    const now = performance.now();
    for (const attempt of this.live) {
      if (now < attempt.due) continue;
      this.end(attempt);
      attempt.abort(new DeadlineError(this.ms));
    }
  }
}
