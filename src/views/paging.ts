/**
 * A list the views walk page by page ("Load more…"). No VS Code here, so the benchmark and the unit tests run it
 * under plain Node.
 *
 * What users of other portal extensions complain about is a "load more" that duplicates rows. Offset paging
 * shifts when rows are added or removed between two requests, and some portals ignore paging altogether (they
 * answer every page with the whole list), so this list:
 *  - keeps rows in a map by id: a row that reappears on a later page (rows were inserted before it, or the
 *    portal sent the same rows again) is never shown twice;
 *  - ends when a page adds no row it did not already have, whatever the portal says about a next page, so
 *    "Load more…" cannot go on for ever;
 *  - notices a shift backwards (rows were deleted before the end of what we have) when the server reports a
 *    total that changed, and then asks for the previous page again so the rows that moved onto it are not
 *    skipped. Lists without totals (file records) cannot tell; dedupe still holds there.
 */

interface PageRequest {
  /** 1-based, like the portal's pages. */
  readonly page: number;
  readonly size: number;
  readonly signal?: AbortSignal | undefined;
}

export interface PageResult<T> {
  readonly items: readonly T[];
  /** The server says there is a next page (or, for plain lists, the page came back full). */
  readonly hasMore: boolean;
  /** Total rows, when the envelope tells (v3 members, v2 members); file and group lists do not. */
  readonly total?: number | undefined;
}

export type PageFetcher<T> = (request: PageRequest) => Promise<PageResult<T>>;

/** Bounds how far a single "load more" may chase a list that keeps shifting. */
const MAX_REFETCH_PER_LOAD = 1;

export class PagedList<T> {
  private readonly rows = new Map<string | number, T>();
  private nextPage = 1;
  private more = true;
  private totalRows: number | undefined;
  private inFlight: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private loadedAtMs = 0;
  private lastError: unknown;
  private edits = 0;

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly keyOf: (row: T) => string | number,
    readonly pageSize: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Rows in the order they were first seen. */
  get items(): T[] {
    return [...this.rows.values()];
  }

  get count(): number {
    return this.rows.size;
  }

  get hasMore(): boolean {
    return this.more;
  }

  get total(): number | undefined {
    return this.totalRows;
  }

  /** True once the first page arrived. */
  get loaded(): boolean {
    return this.loadedAtMs > 0;
  }

  /** Why the last page failed; cleared by the next page that arrives. The rows loaded before stay. */
  get error(): unknown {
    return this.lastError;
  }

  /** When a page last arrived (0 before the first one). */
  get loadedAt(): number {
    return this.loadedAtMs;
  }

  get loading(): boolean {
    return this.inFlight !== undefined;
  }

  /**
   * The first page, once: later calls share it (VS Code may ask for the same children twice). After a failed
   * first page the next call asks again, which is what the error node's retry relies on.
   */
  ensureFirstPage(): Promise<void> {
    if (this.loaded && !this.inFlight) return Promise.resolve();
    return this.loadMore();
  }

  /**
   * Appends the next page. Concurrent calls share one request, so a double click on "Load more…" costs one
   * page, not two.
   */
  loadMore(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.loaded && !this.more) return Promise.resolve();
    const controller = new AbortController();
    this.controller = controller;
    const run = this.fetchNext(controller.signal)
      .then(
        () => void (this.lastError = undefined),
        (error: unknown) => {
          this.lastError = error;
          throw error;
        },
      )
      .finally(() => {
        if (this.inFlight === run) this.inFlight = undefined;
        if (this.controller === controller) this.controller = undefined;
      });
    this.inFlight = run;
    return run;
  }

  /** Bumped by update/remove, so views that memoise rows by position know to rebuild. */
  get version(): number {
    return this.edits;
  }

  /** A row changed by a command (enable, lock…): shown in place, without reloading the pages. */
  update(row: T): boolean {
    const key = this.keyOf(row);
    if (!this.rows.has(key)) return false;
    this.rows.set(key, row);
    this.edits++;
    return true;
  }

  /** A row deleted by a command: gone from the list, and from the total. */
  remove(key: string | number): boolean {
    if (!this.rows.delete(key)) return false;
    if (this.totalRows !== undefined && this.totalRows > 0) this.totalRows--;
    this.edits++;
    return true;
  }

  find(key: string | number): T | undefined {
    return this.rows.get(key);
  }

  /** Abandons a request in flight (refresh, view disposed). The list keeps what it had. */
  cancel(): void {
    this.controller?.abort();
  }

  private async fetchNext(signal: AbortSignal): Promise<void> {
    const page = this.nextPage;
    const result = await this.fetchPage({ page, size: this.pageSize, signal });
    const previousTotal = this.totalRows;
    const added = this.append(result.items);
    // A total that shrank between pages means rows moved back onto pages we already passed: take the previous
    // page again so they are not skipped. Bounded: one extra request per "load more".
    if (page > 1 && previousTotal !== undefined && result.total !== undefined && result.total < previousTotal) {
      for (let i = 0; i < MAX_REFETCH_PER_LOAD; i++) {
        const again = await this.fetchPage({ page: page - 1, size: this.pageSize, signal });
        this.append(again.items);
      }
    }
    this.totalRows = result.total;
    this.nextPage = page + 1;
    // A page with nothing new (empty, or a repeat) ends the walk whatever the flag says, so a server that always
    // says "more", or answers every page alike, cannot loop us.
    this.more = result.hasMore && added > 0;
    this.loadedAtMs = this.now();
  }

  /** Adds the rows; answers how many were new. */
  private append(items: readonly T[]): number {
    const before = this.rows.size;
    for (const row of items) {
      const key = this.keyOf(row);
      // Keep the first position, take the newest data.
      this.rows.set(key, row);
    }
    return this.rows.size - before;
  }
}

/**
 * Lists up to this many loaded rows are shown flat. Past it, all but the last (up to RANGE_BASE) rows are folded
 * into ranges: VS Code rebuilds every child of a node on each "Load more…" (and its extension host keeps a small
 * record of every tree item it ever built), so a flat 50,000-row list would cost O(n²) items over a walk.
 */
export const FLAT_LIMIT = 500;
/** The smallest range; larger ones are RANGE_BASE × 10ⁿ, aligned, so at most nine per size are shown. */
export const RANGE_BASE = 100;

/** Splits [start, end) into aligned ranges, largest first: 0–23,400 → 0–10,000, 10,000–20,000, 20,000–21,000, … */
export function decompose(start: number, end: number): Array<{ start: number; size: number }> {
  const out: Array<{ start: number; size: number }> = [];
  let s = start;
  for (let guard = 0; s < end && guard < 10_000; guard++) {
    let size = RANGE_BASE;
    while (s % (size * 10) === 0 && s + size * 10 <= end) size *= 10;
    const clipped = Math.min(size, end - s);
    out.push({ start: s, size: clipped });
    s += clipped;
  }
  return out;
}

/** A list that arrives whole (the accounts of userinfo, the applications) as a one-page list. */
export function whole<T>(load: (signal: AbortSignal | undefined) => Promise<T[]>): PageFetcher<T> {
  return async ({ page, signal }): Promise<PageResult<T>> => {
    if (page > 1) return { items: [], hasMore: false };
    const items = await load(signal);
    return { items, hasMore: false, total: items.length };
  };
}

/** A request's options when it may be aborted. */
export function requestOptions(signal: AbortSignal | undefined): { signal: AbortSignal } | undefined {
  return signal ? { signal } : undefined;
}
