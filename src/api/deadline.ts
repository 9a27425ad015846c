/**
 * The overall time limit of one request attempt: from sending to the last byte of a JSON answer.
 *
 * undici's own timeouts measure silence (no headers yet, no body byte for a while), so a server that drips one
 * byte every few seconds would hold a request slot for ever. The limit is kept in two parts, neither of which
 * costs more than a few field writes on the way of a normal request (no AbortSignal, no timer per request):
 * - until the headers arrive, undici's headers timeout, lowered to the deadline for that request;
 * - from then on, one sweep timer per client, running only while attempts are in flight, destroys the body of
 *   every attempt past its due time. It fires at most an eighth of the limit late.
 * Attempts in flight are kept in a list threaded through the attempts themselves: adding and removing one is a
 * few pointer writes, where a Set would hash every new object.
 */
import type { Readable } from 'node:stream';
import { ERROR_CODES } from './errors';

/** What a body is destroyed with when its time is up; classified as a 'timeout' (see failures.ts). */
class DeadlineError extends Error {
  readonly code = ERROR_CODES.deadline;
  constructor(readonly ms: number) {
    super(`The request took longer than ${ms} ms`);
    this.name = 'DeadlineError';
  }
}

/** An attempt under watch (the fields are the watch's; the attempt only carries them). */
export interface Watched {
  /** performance.now() time the attempt is due. */
  due: number;
  /** Its body, once the headers are in. */
  body: Readable | undefined;
  expired: boolean;
  prev: Watched | undefined;
  next: Watched | undefined;
  watched: boolean;
}

export class Deadlines {
  private head: Watched | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly tickMs: number;

  constructor(readonly ms: number) {
    this.tickMs = Math.min(500, Math.max(5, Math.floor(ms / 8)));
  }

  /** Starts watching an attempt sent at `now`. */
  start(attempt: Watched, now: number): void {
    attempt.due = now + this.ms;
    attempt.watched = true;
    attempt.prev = undefined;
    attempt.next = this.head;
    if (this.head) this.head.prev = attempt;
    this.head = attempt;
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.tickMs);
      this.timer.unref();
    }
  }

  /** The headers are in: from now on an expiry destroys this body (at once if the sweep already found it late). */
  bodyArrived(attempt: Watched, body: Readable): void {
    attempt.body = body;
    if (attempt.expired) this.expire(attempt);
  }

  /** The attempt is over (answered, failed or handed on). */
  end(attempt: Watched): void {
    if (!attempt.watched) return;
    attempt.watched = false;
    if (attempt.prev) attempt.prev.next = attempt.next;
    else this.head = attempt.next;
    if (attempt.next) attempt.next.prev = attempt.prev;
    attempt.prev = attempt.next = undefined;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private expire(attempt: Watched): void {
    attempt.expired = true;
    const body = attempt.body;
    if (!body) return;
    this.end(attempt);
    body.destroy(new DeadlineError(this.ms));
  }

  private sweep(): void {
    if (!this.head) {
      // Stopped only when a whole tick passed idle, so back-to-back calls do not create a timer each.
      this.close();
      return;
    }
    const now = performance.now();
    let a: Watched | undefined = this.head;
    while (a) {
      const next: Watched | undefined = a.next;
      if (now >= a.due && !a.expired) this.expire(a);
      a = next;
    }
  }
}
