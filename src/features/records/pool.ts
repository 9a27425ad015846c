/**
 * Bounded concurrency for the feature cores: a fixed number of workers take items in order. Once the signal
 * aborts, no worker takes another item; the ones already taken finish (each worker decides whether its own work
 * listens to the signal). No VS Code here.
 */

export interface PoolResult {
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
