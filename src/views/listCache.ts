/**
 * One paged list per parent node, kept fresh for a short time so that collapsing and expanding a node costs
 * no request. No VS Code here (the benchmark runs it under plain Node).
 */
import { isWithin, type TreeKey } from '../shared/keys';
import type { PagedList } from './paging';

/** More lists than a person can have open; past it the least recently used ones are dropped. */
const MAX_LISTS = 400;

export class ListCache {
  private readonly lists = new Map<string, PagedList<unknown>>();
  /** Lists marked out of date by expire(): replaced by the next get(), whatever their age. */
  private readonly expired = new WeakSet<PagedList<unknown>>();

  constructor(
    /** How long a loaded list stays fresh (setting portal.cacheSeconds). */
    private readonly ttlMs: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The list of a parent: the cached one while it is fresh (or still loading), else a new one from `create`.
   * A stale list is cancelled and replaced, so an expand after the cache time shows current rows.
   */
  get<T>(key: string, create: () => PagedList<T>): PagedList<T> {
    const existing = this.lists.get(key) as PagedList<T> | undefined;
    const current = existing && !this.expired.has(existing as PagedList<unknown>);
    if (
      existing &&
      current &&
      (existing.loading || !existing.loaded || this.now() - existing.loadedAt <= this.ttlMs())
    ) {
      // Re-insert: the Map's order doubles as the LRU order.
      this.lists.delete(key);
      this.lists.set(key, existing as PagedList<unknown>);
      return existing;
    }
    existing?.cancel();
    const list = create();
    this.lists.set(key, list as PagedList<unknown>);
    this.evict();
    return list;
  }

  peek<T>(key: string): PagedList<T> | undefined {
    return this.lists.get(key) as PagedList<T> | undefined;
  }

  /**
   * Marks one parent's list and every list below it (all lists without a prefix; with `only`, that one list) out of
   * date: each stays readable (peek, isExpired) until the next get() for its key replaces it.
   */
  expire(keyPrefix?: TreeKey, only = false): void {
    for (const [key, list] of this.lists) {
      if (keyPrefix === undefined || (only ? key === keyPrefix : isWithin(key, keyPrefix))) this.expired.add(list);
    }
  }

  isExpired<T>(list: PagedList<T>): boolean {
    return this.expired.has(list as PagedList<unknown>);
  }

  /** Drops one parent's list and every list below it (keys are paths: "portal/a:1/g:2"). */
  drop(keyPrefix: TreeKey): void {
    for (const [key, list] of this.lists) {
      if (isWithin(key, keyPrefix)) {
        list.cancel();
        this.lists.delete(key);
      }
    }
  }

  /** The lists at or below `keyPrefix` (e.g. every member list of one account, whatever its filter). */
  listsUnder<T>(keyPrefix: TreeKey): PagedList<T>[] {
    const out: PagedList<T>[] = [];
    for (const [key, list] of this.lists) if (isWithin(key, keyPrefix)) out.push(list as PagedList<T>);
    return out;
  }

  clear(): void {
    for (const list of this.lists.values()) list.cancel();
    this.lists.clear();
  }

  get size(): number {
    return this.lists.size;
  }

  private evict(): void {
    for (const [key, list] of this.lists) {
      if (this.lists.size <= MAX_LISTS) break;
      list.cancel();
      this.lists.delete(key);
    }
  }
}
