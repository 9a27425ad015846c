/**
 * Pages of a list in order, with a bounded read-ahead: once the first page says how many pages there are, the
 * next few are asked for while the consumer works on the current one. At most the current page and `readAhead`
 * more are held, so a long list is never in memory at once. A list without a page count is walked one page at a time.
 */
import { MAX_PAGES, type Page } from '../api/index';
import { linkedSignal } from './pool';

type PageFetch<T> = (page: number, signal: AbortSignal) => Promise<Page<T>>;

interface OrderedPagesOptions {
  /** Pages asked for beyond the one the consumer is on; default 4. */
  readonly readAhead?: number;
  /** Aborting ends the walk with the fetch's cancellation error. */
  readonly signal?: AbortSignal;
}

export async function* orderedPages<T>(
  fetch: PageFetch<T>,
  options: OrderedPagesOptions = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const readAhead = Math.max(0, options.readAhead ?? 4);
  const linked = linkedSignal(options.signal, readAhead + 1);
  const pending = new Map<number, Promise<Page<T>>>();
  const ask = (n: number) => {
    const p = fetch(n, linked.signal);
    // Awaited in order below; a page asked ahead and then not needed must not be an unhandled rejection.
    p.catch(() => undefined);
    pending.set(n, p);
  };
  try {
    let last: number | undefined;
    let asked = 0;
    for (let n = 1; n <= MAX_PAGES; n++) {
      while (last !== undefined && asked < last && asked < n + readAhead) ask(++asked);
      if (!pending.has(n)) {
        ask(n);
        asked = Math.max(asked, n);
      }
      const page = await (pending.get(n) as Promise<Page<T>>);
      pending.delete(n);
      if (n === 1 && page.totalPages !== undefined && page.totalPages > 1) last = page.totalPages;
      yield page;
      if (!page.hasNext || page.items.length === 0) return;
    }
  } finally {
    linked.dispose();
  }
}
