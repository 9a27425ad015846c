/**
 * Reading an organisation's access matrix. The portal has no endpoint that lists a group's members; the only route
 * is the v2 member read, which carries the member's map of groups. So this walks the v3 member list (100 a page)
 * and reads each member whose groups are missing or older than the maximum age, as the list arrives, through the
 * client (whose scheduler keeps every request within the budget). Each answer goes to the journal at once, so a
 * cancel or a crash loses no answer, and the next run reads only what is left. The reads in flight at that moment
 * (at most the concurrency) are read again: their answers never arrived, and marking a member read before its answer
 * would leave its groups unknown for good, while a read changes nothing on the portal. A list walked within the
 * maximum age is not walked again: a reopen with nothing stale sends no request at all. No VS Code here.
 */
import { setMaxListeners } from 'node:events';
import {
  isPortalError,
  MAX_PAGE_SIZE,
  type Member,
  type MemberV2,
  type Page,
  type PortalClient,
} from '../../../../api/index';
import { isCancellation } from '../../../../shared/errors';
import { memberRow } from '../../../../shared/members';
import { orderedPages } from '../../../../node/orderedPages';
import { flagsOf } from '../../../../shared/memberStates';
import type { AccessMatrix, ListedMember } from './accessMatrix';
import { estimateMs } from './estimate';
import type { AccessStoreFile } from './accessStoreFile';
import { ROW, type WireRow } from '../../../../shared/accessRow';

/** What the read needs of a PortalClient. */
export interface MatrixClient {
  readonly v3: { readonly members: { page: PortalClient['v3']['members']['page'] } };
  readonly v2: { readonly members: { get: PortalClient['v2']['members']['get'] } };
  readonly budget: PortalClient['budget'];
}

/** What is known before any member is read: shown to the user when it would take longer than a minute. */
export interface ReadEstimate {
  /** Members to read. */
  readonly reads: number;
  /** List pages to ask for. */
  readonly pages: number;
  readonly etaMs: number;
  /** The budget, for the words "the portal allows N requests per M minutes". */
  readonly limit: number;
  readonly windowMs: number;
}

export interface ReadProgress {
  readonly listed: number;
  /** Members in the organisation (or the limit), once the first page said so. */
  readonly total: number | undefined;
  readonly done: number;
  readonly failed: number;
  /** Reads known to be still needed (more may come while the list is walked). */
  readonly remaining: number;
  readonly etaMs: number;
}

export interface MatrixReadOptions {
  readonly signal: AbortSignal;
  /** Rows read longer ago than this, and a member list walked longer ago, are read again. */
  readonly maxAgeMs: number;
  /** Reads at once; the client's own cap still applies. */
  readonly concurrency: number;
  /** Only the first `limit` members of the list (by name). */
  readonly limit?: number | undefined;
  readonly now?: () => number;
  /** Asked when the read would take longer than `confirmAboveMs`; false ends it before any member read. */
  readonly confirm?: (estimate: ReadEstimate) => Promise<boolean>;
  /** Default one minute. */
  readonly confirmAboveMs?: number;
  /** A row was added or changed (listed, or its groups read). */
  readonly onRow?: (row: WireRow) => void;
  readonly onRemoved?: (ids: readonly number[]) => void;
  readonly onProgress?: (progress: ReadProgress) => void;
}

export interface MatrixReadResult {
  readonly outcome: 'done' | 'cancelled' | 'declined';
  /** Members read in this run. */
  readonly reads: number;
  readonly failed: number;
  /** List pages asked for in this run. */
  readonly pages: number;
}

/** Until the first reads answer, an estimate assumes this much time per request. */
const FIRST_GUESS_LATENCY_MS = 150;
/** Failures in a row after which the read stops: the portal is not answering member reads at all. */
const MAX_FAILURES_IN_A_ROW = 5;

export function listedMember(m: Member): ListedMember {
  const r = memberRow(m);
  return {
    username: r.username,
    name: r.name,
    email: r.email,
    tags: r.tags,
    permission: r.permission,
    lastActive: r.lastActive,
    flags: flagsOf(r),
  };
}

/** Usernames to read, handed to the workers as they come; `take` waits while the list is still walked. */
class ReadQueue {
  private readonly items: string[] = [];
  private head = 0;
  private closed = false;
  private waiters: Array<(u: string | undefined) => void> = [];

  get pending(): number {
    return this.items.length - this.head;
  }

  push(username: string): void {
    const w = this.waiters.shift();
    if (w) w(username);
    else this.items.push(username);
  }

  close(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w(undefined);
  }

  take(): Promise<string | undefined> {
    if (this.head < this.items.length) {
      const u = this.items[this.head++];
      if (this.head > 4096 && this.head * 2 > this.items.length) {
        this.items.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve(u);
    }
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

export function readMatrix(
  client: MatrixClient,
  accountId: number,
  matrix: AccessMatrix,
  journal: AccessStoreFile,
  o: MatrixReadOptions,
): Promise<MatrixReadResult> {
  return new MatrixRead(client, accountId, matrix, journal, o).run();
}

/** One walk of the member list: its limit, its pages and the members it has listed so far. */
interface ListWalk {
  readonly limit: number | undefined;
  readonly lastPage: number;
  readonly pages: AsyncIterator<Page<Member>>;
  readonly seen: Set<string>;
  readonly members: ListedMember[];
}

class MatrixRead {
  private readonly now: () => number;
  private readonly started: number;
  private readonly cutoff: number;
  private readonly queue = new ReadQueue();
  private readonly controller = new AbortController();
  private latencyMs = FIRST_GUESS_LATENCY_MS;
  private reads = 0;
  private failed = 0;
  private failuresInARow = 0;
  private pages = 0;
  private pagesLeft = 0;
  private inFlight = 0;
  private listed = 0;
  private total: number | undefined;

  constructor(
    private readonly client: MatrixClient,
    private readonly accountId: number,
    private readonly matrix: AccessMatrix,
    private readonly journal: AccessStoreFile,
    private readonly o: MatrixReadOptions,
  ) {
    // Every read in flight listens to this signal: more than Node's default of ten.
    setMaxListeners(0, this.controller.signal);
    this.now = o.now ?? Date.now;
    this.started = this.now();
    this.cutoff = this.started - o.maxAgeMs;
  }

  private get listFresh(): boolean {
    const m = this.matrix;
    if (m.listedAt <= 0 || m.listedAt < this.cutoff) return false;
    return m.listLimit === undefined || (this.o.limit !== undefined && this.o.limit <= m.listLimit);
  }

  async run(): Promise<MatrixReadResult> {
    const outer = this.o.signal;
    const onAbort = () => this.controller.abort();
    if (outer.aborted) return this.result('cancelled');
    outer.addEventListener('abort', onAbort, { once: true });
    try {
      const walk = this.listFresh ? this.fromKnownList() : this.walkList();
      const first = await walk.ready;
      if (first === 'declined') return this.result('declined');
      if (first === 'nothing') return this.result('done');
      const width = Math.max(1, Math.floor(this.o.concurrency));
      const workers = Array.from({ length: width }, () => this.worker());
      // The first failure ends everything: the walk and the other workers stop at their next step.
      await Promise.all([walk.rest, ...workers].map((p) => p.catch((e: unknown) => this.stop(e))));
      if (this.failure) throw this.failure.error;
      return this.result(outer.aborted ? 'cancelled' : 'done');
    } catch (error) {
      if (outer.aborted && isCancellation(error)) return this.result('cancelled');
      throw error;
    } finally {
      outer.removeEventListener('abort', onAbort);
      this.queue.close();
    }
  }

  private failure: { error: unknown } | undefined;

  private stop(error: unknown): void {
    if (!this.failure && !(this.o.signal.aborted && isCancellation(error))) this.failure = { error };
    this.controller.abort();
    this.queue.close();
  }

  private result(outcome: MatrixReadResult['outcome']): MatrixReadResult {
    return { outcome, reads: this.reads, failed: this.failed, pages: this.pages };
  }

  private estimate(reads: number, pages: number): ReadEstimate {
    const b = this.client.budget;
    return {
      reads,
      pages,
      etaMs: estimateMs(
        reads + pages,
        { limit: b.limit, windowMs: b.windowMs, used: b.used() },
        this.latencyMs,
        this.o.concurrency,
      ),
      limit: b.limit,
      windowMs: b.windowMs,
    };
  }

  /** false when the user declined a long read. */
  private async confirmed(reads: number, pages: number): Promise<boolean> {
    const e = this.estimate(reads, pages);
    if (!this.o.confirm || e.etaMs <= (this.o.confirmAboveMs ?? 60_000)) return true;
    return this.o.confirm(e);
  }

  private progress(): void {
    const remaining = this.queue.pending + this.inFlight;
    const left = this.total !== undefined ? Math.max(0, this.total - this.listed) : 0;
    // Members not listed yet will (mostly) need a read too.
    const e = this.estimate(remaining + left, this.pagesLeft);
    this.o.onProgress?.({
      listed: this.listed,
      total: this.total,
      done: this.reads,
      failed: this.failed,
      remaining: remaining + left,
      etaMs: e.etaMs,
    });
  }

  private fromKnownList(): { ready: Promise<'go' | 'declined' | 'nothing'>; rest: Promise<void> } {
    let rows = [...this.matrix.all()];
    if (this.o.limit !== undefined) rows = rows.slice(0, this.o.limit);
    this.listed = rows.length;
    this.total = rows.length;
    const stale = rows.filter((r) => r[ROW.readAt] < this.cutoff);
    const ready = (async () => {
      if (stale.length === 0) return 'nothing' as const;
      if (!(await this.confirmed(stale.length, 0))) return 'declined' as const;
      for (const r of stale) this.queue.push(r[ROW.username]);
      this.queue.close();
      this.progress();
      return 'go' as const;
    })();
    return { ready, rest: Promise.resolve() };
  }

  private walkList(): { ready: Promise<'go' | 'declined' | 'nothing'>; rest: Promise<void> } {
    const limit = this.o.limit;
    const lastPage = limit !== undefined ? Math.max(1, Math.ceil(limit / MAX_PAGE_SIZE)) : Number.POSITIVE_INFINITY;
    const fetch = this.listFetch(lastPage);
    const pages = orderedPages(fetch, { signal: this.controller.signal, readAhead: 2 })[Symbol.asyncIterator]();
    const walk: ListWalk = { limit, lastPage, pages, seen: new Set<string>(), members: [] };
    let resolveReady: (v: 'go' | 'declined' | 'nothing') => void = () => undefined;
    const ready = new Promise<'go' | 'declined' | 'nothing'>((r) => (resolveReady = r));
    const rest = this.readList(walk, resolveReady);
    return { ready, rest };
  }

  private listFetch(lastPage: number): (page: number, s: AbortSignal) => Promise<Page<Member>> {
    const size = MAX_PAGE_SIZE;
    return (page, s) => {
      // Past the limit no page is asked for, read-ahead included.
      if (page > lastPage) return Promise.resolve({ items: [], page, pageSize: size, hasNext: false });
      this.pages++;
      return this.client.v3.members.page(this.accountId, { page, size }, { signal: s });
    };
  }

  /** Lists one page's members into the matrix and the queue; false once the limit is reached. */
  private listPage(walk: ListWalk, page: Page<Member>): boolean {
    const { limit, seen, members } = walk;
    for (const m of page.items) {
      if (limit !== undefined && members.length >= limit) return false;
      const listed = listedMember(m);
      if (seen.has(listed.username)) continue;
      seen.add(listed.username);
      members.push(listed);
      const row = this.matrix.upsert(listed);
      this.listed++;
      this.o.onRow?.(row);
      if (row[ROW.readAt] < this.cutoff) this.queue.push(listed.username);
    }
    return limit === undefined || members.length < limit;
  }

  private async readList(walk: ListWalk, resolveReady: (v: 'go' | 'declined') => void): Promise<void> {
    try {
      const first = await walk.pages.next();
      if (first.done) {
        resolveReady('go');
      } else {
        if (!(await this.confirmList(walk, first.value))) {
          resolveReady('declined');
          return;
        }
        const more = this.listPage(walk, first.value) && first.value.hasNext;
        resolveReady('go');
        // The first page's reads go out before the pages read ahead: the first row with its groups comes sooner.
        if (more) await new Promise((r) => setImmediate(r));
        if (more) await this.readOtherPages(walk);
      }
      this.pagesLeft = 0;
      this.finishList(walk);
    } catch (error) {
      resolveReady('go');
      throw error;
    } finally {
      this.queue.close();
      await walk.pages.return?.(undefined);
    }
  }

  /** Sets the totals from the first page and asks, counting only the rows not read within the age. */
  private async confirmList(walk: ListWalk, page: Page<Member>): Promise<boolean> {
    const { limit, lastPage } = walk;
    const reported = page.totalResults ?? page.items.length;
    this.total = limit !== undefined ? Math.min(limit, reported) : reported;
    const pageCount = Math.min(lastPage, Math.ceil(this.total / MAX_PAGE_SIZE));
    this.pagesLeft = Math.max(0, pageCount - 1);
    // Rows already read within the age will not be read again.
    let known = 0;
    for (const row of this.matrix.all()) if (row[ROW.readAt] >= this.cutoff) known++;
    return this.confirmed(Math.max(0, this.total - Math.min(known, this.total)), this.pagesLeft);
  }

  private async readOtherPages(walk: ListWalk): Promise<void> {
    let more = true;
    while (more) {
      const next = await walk.pages.next();
      if (next.done) break;
      this.pagesLeft = Math.max(0, this.pagesLeft - 1);
      more = this.listPage(walk, next.value) && next.value.hasNext;
      this.progress();
    }
  }

  private finishList(walk: ListWalk): void {
    const { limit, members, seen } = walk;
    const at = this.started;
    this.journal.listed(members, at, limit);
    this.matrix.listedAt = at;
    this.matrix.listLimit = limit;
    if (limit === undefined) {
      const gone = this.matrix.keepOnly(seen);
      if (gone.length > 0) this.o.onRemoved?.(gone);
    }
  }

  private async worker(): Promise<void> {
    const signal = this.controller.signal;
    for (;;) {
      if (signal.aborted) return;
      const username = await this.queue.take();
      if (username === undefined || signal.aborted) return;
      this.inFlight++;
      try {
        await this.readOne(username, signal);
      } finally {
        this.inFlight--;
      }
      this.progress();
    }
  }

  private async readOne(username: string, signal: AbortSignal): Promise<void> {
    const t0 = performance.now();
    let member: MemberV2;
    try {
      member = await this.client.v2.members.get(this.accountId, username, { signal });
    } catch (error) {
      if (signal.aborted || isCancellation(error)) throw error;
      if (isPortalError(error, 'signed-out') || isPortalError(error, 'auth')) throw error;
      this.failed++;
      if (++this.failuresInARow >= MAX_FAILURES_IN_A_ROW) throw error;
      return;
    }
    this.failuresInARow = 0;
    // A running mean over the last reads, for the estimate.
    this.latencyMs = this.latencyMs * 0.8 + (performance.now() - t0) * 0.2;
    const at = this.now();
    const groups = member.groups ?? {};
    const row = this.matrix.setGroups(username, groups, at);
    if (!row) return;
    this.journal.read(this.matrix.listedOf(row), groups, at);
    this.reads++;
    this.o.onRow?.(row);
  }
}
