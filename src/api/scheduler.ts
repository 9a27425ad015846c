/**
 * Rate budget and concurrency cap in one FIFO queue.
 *
 * Budget: at most `count` requests in any `windowMs` sliding window. A request occupies a window slot from the
 * moment it is granted; its slot is stamped when it completes (response headers or failure). The stamp is taken
 * at completion rather than at sending on purpose: the server saw the request before we saw its answer, so a new
 * request sent `windowMs` after an old one *completed* is certainly more than `windowMs` after the server counted
 * the old one, whatever the latency. That makes the limiter conservative against any server that counts requests
 * on arrival, without guessing clock offsets.
 *
 * Concurrency: at most `maxConcurrent` granted tickets are outstanding (a ticket lives until its body is read).
 * Waiters are served strictly first-in first-out, except `priority` waiters (token requests), which go to the front
 * so a token renewal is never stuck behind requests that will need the token. Aborted waiters leave the queue.
 */
import * as l10n from '@vscode/l10n';
import { cancelledError, type PortalError } from './errors';

export interface RequestBudget {
  count: number;
  windowMs: number;
}

export const DEFAULT_BUDGET: RequestBudget = { count: 2000, windowMs: 300_000 };
export const DEFAULT_MAX_CONCURRENT = 8;
/** Added to the window so a server that compares with `>=` at millisecond precision cannot see one too many. */
const WINDOW_MARGIN_MS = 10;

export interface Ticket {
  /** Stamps the window slot (idempotent); called when the response headers arrive. */
  responded(): void;
  /** Frees the concurrency slot (idempotent; stamps the window slot too if not done yet). */
  release(): void;
}

interface Waiter {
  grant: (ticket: Ticket) => void;
  reject: (error: PortalError) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class Scheduler {
  readonly limit: number;
  readonly windowMs: number;
  readonly maxConcurrent: number;
  /** Completion stamps (performance.now()) of requests still inside the window, oldest first. */
  private readonly stamps: number[] = [];
  private stampHead = 0;
  /** Granted and not yet stamped: they count against the window until they complete. */
  private unstamped = 0;
  private active = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  /** The server asked us to hold off (429 / 503 Retry-After) until this time. */
  private pausedUntil = 0;
  private closed = false;

  constructor(budget: RequestBudget = DEFAULT_BUDGET, maxConcurrent = DEFAULT_MAX_CONCURRENT) {
    if (!(budget.count >= 1) || !(budget.windowMs > 0))
      throw new RangeError('requestBudget needs count >= 1 and windowMs > 0');
    if (!(maxConcurrent >= 1)) throw new RangeError('maxConcurrent must be at least 1');
    this.limit = Math.floor(budget.count);
    this.windowMs = budget.windowMs;
    this.maxConcurrent = Math.floor(maxConcurrent);
  }

  /** Requests counted in the current window (in flight included). */
  used(now = performance.now()): number {
    this.prune(now);
    return this.unstamped + (this.stamps.length - this.stampHead);
  }

  /** Number of callers waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Holds every new grant until `ms` from now (the server's Retry-After applies to all our requests). */
  pause(ms: number): void {
    const until = performance.now() + Math.max(0, ms);
    if (until > this.pausedUntil) this.pausedUntil = until;
  }

  /** A ticket now if one is free and nobody is waiting (no promise, no timer); else undefined. */
  tryAcquire(now = performance.now()): Ticket | undefined {
    if (this.closed || this.queue.length > 0 || !this.canGrant(now)) return undefined;
    return this.grant();
  }

  acquire(signal?: AbortSignal, priority = false): Promise<Ticket> {
    if (this.closed) return Promise.reject(closedError());
    if (signal?.aborted) return Promise.reject(cancelledError());
    // Fast path: nobody waiting and room now. No timers, no queue.
    if (this.queue.length === 0 && this.canGrant(performance.now())) return Promise.resolve(this.grant());
    return new Promise<Ticket>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(cancelledError());
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      if (priority) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  /** Rejects every waiter and stops timers. */
  close(): void {
    this.closed = true;
    this.clearTimer();
    for (const w of this.queue.splice(0)) {
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.reject(closedError());
    }
  }

  private canGrant(now: number): boolean {
    if (this.active >= this.maxConcurrent) return false;
    if (now < this.pausedUntil) return false;
    // Stamps not yet pruned only overcount: when even they leave room, pruning can wait (every request comes here).
    if (this.unstamped + this.stamps.length - this.stampHead < this.limit) return true;
    return this.used(now) < this.limit;
  }

  private grant(): Ticket {
    this.active++;
    this.unstamped++;
    return new SlotTicket(this);
  }

  /** @internal Called by a ticket when its response arrived. */
  stamp(): void {
    this.unstamped--;
    this.stamps.push(performance.now());
  }

  /** @internal Called by a ticket when it is done. */
  free(): void {
    this.active--;
    this.pump();
  }

  private prune(now: number): void {
    const cutoff = now - this.windowMs - WINDOW_MARGIN_MS;
    const stamps = this.stamps;
    while (this.stampHead < stamps.length && (stamps[this.stampHead] ?? Infinity) <= cutoff) this.stampHead++;
    // Compact now and then so the array does not grow without bound.
    if (this.stampHead > 1024 && this.stampHead * 2 > stamps.length) {
      stamps.splice(0, this.stampHead);
      this.stampHead = 0;
    }
  }

  private pump(): void {
    if (this.closed) return;
    if (this.queue.length === 0) {
      if (this.timer) this.clearTimer();
      return;
    }
    let now = performance.now();
    // Bounded: each iteration removes one waiter.
    while (this.queue.length > 0 && this.canGrant(now)) {
      const w = this.queue.shift();
      if (!w) break;
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.grant(this.grant());
      now = performance.now();
    }
    if (this.queue.length === 0) {
      this.clearTimer();
      return;
    }
    // Blocked: by concurrency, a release will pump again. By time (window or pause), wake up when it frees.
    if (this.active >= this.maxConcurrent) return;
    let wakeAt = this.pausedUntil > now ? this.pausedUntil : 0;
    if (this.used(now) >= this.limit) {
      const oldest = this.stamps[this.stampHead];
      // All slots in flight: a completion will pump again.
      if (oldest === undefined) return;
      wakeAt = Math.max(wakeAt, oldest + this.windowMs + WINDOW_MARGIN_MS + 1);
    }
    if (wakeAt > now) this.schedule(wakeAt, now);
  }

  private schedule(at: number, now: number): void {
    if (this.timer && this.timerAt <= at) return;
    this.clearTimer();
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.pump();
      },
      Math.ceil(at - now),
    );
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function closedError(): PortalError {
  return cancelledError('', l10n.t('The portal connection was closed.'));
}

/** A granted slot (a class rather than closures: this is on every request's path). */
class SlotTicket implements Ticket {
  private stamped = false;
  private released = false;
  constructor(private readonly owner: Scheduler) {}

  responded(): void {
    if (this.stamped) return;
    this.stamped = true;
    this.owner.stamp();
  }

  release(): void {
    this.responded();
    if (this.released) return;
    this.released = true;
    this.owner.free();
  }
}
