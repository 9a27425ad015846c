// Every delay the emulator waits on goes through here, so stop() can cancel them all at once.

export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.pending.delete(t);
        resolve();
      }, ms);
      this.pending.add(t);
    });
  }

  /** Cancelled sleeps never resolve; their connections are being closed anyway. */
  clearAll(): void {
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
  }
}
