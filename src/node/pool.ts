/**
 * Bounded concurrency for the feature cores: a fixed number of workers take items in order. Once the signal
 * aborts, no worker takes another item; the ones already taken finish (each worker decides whether its own work
 * listens to the signal). No VS Code here.
 */
import { setMaxListeners } from 'node:events';

interface PoolResult {
  /** Indexes of the items no worker took (because the signal aborted or a worker threw), in order. */
  notStarted: number[];
}

/**
 * Runs `work` over `items` with at most `concurrency` at once, in order of index. If a `work` call throws, no
 * further item is started and, once the running ones have settled, the first error is thrown.
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<PoolResult> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted && !failure) {
      const index = next++;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const width = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
  await Promise.all(Array.from({ length: width }, worker));
  if (failure) throw failure.error;
  const notStarted: number[] = [];
  for (let i = next; i < items.length; i++) notStarted.push(i);
  return { notStarted };
}

/** Resolves after `ms`, or at once when the signal aborts (never rejects: the caller checks the signal). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted || ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Items handed from producers to one consumer as they come. `next` answers undefined once the queue has ended or
 * the signal aborted (at once, even while waiting), and throws what `fail` was given.
 */
export class HandOff<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    this.items.push(item);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: unknown): void {
    this.failure ??= { error };
    this.notify();
  }

  async next(signal: AbortSignal): Promise<T | undefined> {
    for (;;) {
      if (signal.aborted) return undefined;
      if (this.items.length > 0) return this.items.shift();
      if (this.failure) throw this.failure.error;
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          this.wake = undefined;
          resolve();
        };
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  private notify(): void {
    this.wake?.();
  }
}

interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Aborts the linked signal (ending whatever still listens to it) and unhooks it from the outer one. */
  dispose(): void;
}

/**
 * A signal of our own that aborts with `outer`. Each of up to `concurrency` operations in flight listens to the
 * signal it is given a few times (the request, its wait for a slot, a file write), and Node warns about a leak
 * beyond ten listeners: this signal is allowed enough that the warning means a real leak.
 */
export function linkedSignal(outer: AbortSignal | undefined, concurrency: number): LinkedSignal {
  const controller = new AbortController();
  setMaxListeners(Math.max(1, concurrency) * 4 + 8, controller.signal);
  const stop = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      outer?.removeEventListener('abort', stop);
      controller.abort();
    },
  };
}

/** Runs `work` with a linked signal (see linkedSignal), disposed of when the work settles. */
export async function withLinkedSignal<T>(
  outer: AbortSignal | undefined,
  concurrency: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const linked = linkedSignal(outer, concurrency);
  try {
    return await work(linked.signal);
  } finally {
    linked.dispose();
  }
}
