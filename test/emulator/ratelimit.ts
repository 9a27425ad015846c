// Sliding-window limit per client address (spec 8): each address keeps the times of its accepted
// requests in a queue; a request is refused while the queue holds `count` entries younger than the window.

class TimeQueue {
  private items: number[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }
  get oldest(): number | undefined {
    return this.items[this.head];
  }

  push(t: number): void {
    this.items.push(t);
  }

  dropOlderThan(limit: number): void {
    while (this.head < this.items.length && (this.items[this.head] ?? Infinity) <= limit) this.head++;
    // Compact now and then so the array does not grow without bound: O(1) amortised.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export class RateLimiter {
  private readonly queues = new Map<string, TimeQueue>();

  constructor(
    private readonly count: number,
    private readonly windowSeconds: number,
  ) {}

  /** Refused requests are not recorded, so a blocked client is let in again once its old requests age out. */
  check(address: string, now: number): RateDecision {
    if (this.count <= 0) return { ok: true };
    const windowMs = this.windowSeconds * 1000;
    let q = this.queues.get(address);
    if (!q) this.queues.set(address, (q = new TimeQueue()));
    q.dropOlderThan(now - windowMs);
    if (q.length >= this.count) {
      const oldest = q.oldest ?? now;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    q.push(now);
    return { ok: true };
  }

  reset(): void {
    this.queues.clear();
  }
}
