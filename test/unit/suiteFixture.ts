// The before/after pair most unit suites open with (start what the tests share, stop it after), written once.
import { after, before } from 'node:test';

/**
 * Starts `start()` before the calling describe's tests and hands what it gave to `stop` after them. The object returned
 * stands for what `start` gives: read its fields inside tests and hooks, where the suite has started. A read before
 * then throws instead of handing out undefined.
 */
export function suiteFixture<T extends object>(start: () => Promise<T>, stop: (started: T) => unknown): T {
  let started: T | undefined;
  before(async () => {
    started = await start();
  });
  after(async () => {
    if (started) await stop(started);
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (!started) throw new Error(`read ${String(key)} before the suite started`);
      return Reflect.get(started, key) as unknown;
    },
  });
}
