// Every delay the emulator waits on goes through here, so stop() can cancel them all at once.

export class Timers {
  /** Each sleep's timer, and what ends it early. */
  private readonly pending = new Map<NodeJS.Timeout, () => void>();

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.pending.delete(t);
        resolve();
      }, ms);
      this.pending.set(t, resolve);
    });
  }

  /**
   * Ends every sleep now, as though its time were up: a test holds an answer back for as long as it needs (a delay
   * far beyond need), then lets it go when it has seen what happens meanwhile, whatever the machine's speed.
   */
  wakeAll(): void {
    for (const [t, resolve] of this.pending) {
      clearTimeout(t);
      resolve();
    }
    this.pending.clear();
  }

  /** Cancelled sleeps never resolve; their connections are being closed anyway. */
  clearAll(): void {
    for (const t of this.pending.keys()) clearTimeout(t);
    this.pending.clear();
  }
}
