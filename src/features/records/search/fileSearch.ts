/**
 * Search of file names across every group of an account, for "Go to File Record…". Each group is asked on the
 * portal (the v2 file list with its name search and `recursive`); a portal that ignores those parameters answers
 * with its root listing, so every answer is filtered here as well. Results come out one batch per group as each
 * group answers.
 *
 * A search remembers each group's answer: when the next text contains the previous one, a group whose answer was
 * complete is refined here with no request (every name that contains the new text contains the old one).
 */
import {
  DEFAULT_MAX_CONCURRENT,
  PortalError,
  unlessAborted,
  type FileRecord,
  type PortalErrorKind,
  type V2Api,
} from '../../../api/index';
import { GroupListCache, type GroupListClient, type SearchGroup } from './groupCache';
import { HandOff, linkedSignal, runPool } from '../../../node/pool';

/** What a search needs of a PortalClient. */
interface FileSearchClient extends GroupListClient {
  readonly v2: GroupListClient['v2'] & { readonly files: Pick<V2Api['files'], 'page'> };
}

export interface FileSearchBatch {
  readonly group: SearchGroup;
  /** The group's matches, as the portal listed them. */
  readonly hits: readonly FileRecord[];
  /** False when the group has more matches than the page limit let through (or it failed). */
  readonly complete: boolean;
  /** Refined from the previous answer, with no request. */
  readonly local: boolean;
  /** The group could not be searched (the others go on). */
  readonly error?: PortalError;
  readonly groupsDone: number;
  readonly groupsTotal: number;
}

export interface FileSearchOptions {
  /** The account's group list, kept by the caller across searches. */
  readonly groups: GroupListCache;
  /** Groups asked at once. Default: the client's default concurrency. */
  readonly concurrency?: number;
  /** Records per request (at most 100). Default 100. */
  readonly pageSize?: number;
  /** Pages asked per group; a group with more matches is marked incomplete. Default 1. */
  readonly maxPagesPerGroup?: number;
}

/** Failures that would fail every other group too: the search stops and the iteration throws. */
const FATAL: ReadonlySet<PortalErrorKind> = new Set<PortalErrorKind>([
  'signed-out',
  'auth',
  'network',
  'tls',
  'rate-limited',
]);

interface Answer {
  readonly needle: string;
  readonly hits: readonly FileRecord[];
  readonly complete: boolean;
}

/** Case-insensitive, as the portal's name search. */
function normaliseSearchText(text: string): string {
  return text.normalize('NFC').trim().toLowerCase();
}

function matches(name: string, needle: string): boolean {
  return name.normalize('NFC').toLowerCase().includes(needle);
}

export class FileSearch {
  /** The latest answer of each group, by group id. */
  private readonly answers = new Map<number, Answer>();
  private readonly concurrency: number;
  private readonly pageSize: number;
  private readonly maxPages: number;

  constructor(
    private readonly client: FileSearchClient,
    private readonly accountId: number,
    private readonly options: FileSearchOptions,
  ) {
    this.concurrency = options.concurrency ?? DEFAULT_MAX_CONCURRENT;
    this.pageSize = Math.min(100, Math.max(1, options.pageSize ?? 100));
    this.maxPages = Math.max(1, options.maxPagesPerGroup ?? 1);
  }

  /**
   * Batches as each group answers. Blank text yields nothing. When the signal aborts (or the consumer stops
   * iterating), the iteration ends at once and requests in flight are cancelled. Throws only for failures that
   * concern every group (signed out, network, TLS, rate limit).
   *
   * `firstGroupId`: that group is asked first and its batch comes before any other (the others wait for it), so
   * the group a person is in leads the list whichever group answers first.
   */
  search(text: string, signal?: AbortSignal, firstGroupId?: number): AsyncIterable<FileSearchBatch> {
    return { [Symbol.asyncIterator]: () => this.run(normaliseSearchText(text), signal, firstGroupId) };
  }

  private async *run(
    needle: string,
    outer: AbortSignal | undefined,
    firstGroupId: number | undefined,
  ): AsyncGenerator<FileSearchBatch, void, undefined> {
    if (!needle || outer?.aborted) return;
    const linked = linkedSignal(outer, this.concurrency);
    const signal = linked.signal;
    try {
      const listed = await unlessAborted(this.options.groups.get(this.client, this.accountId, signal), signal);
      if (!listed) return;
      const first = listed.find((g) => g.id === firstGroupId);
      const groups = first ? [first, ...listed.filter((g) => g !== first)] : listed;
      const out = new HandOff<FileSearchBatch>();
      let done = 0;
      /** Answers of other groups while the first group's is awaited; undefined once it is out (or with no first). */
      let held: Array<[SearchGroup, Omit<FileSearchBatch, 'group' | 'groupsDone' | 'groupsTotal'>]> | undefined = first
        ? []
        : undefined;
      const push = (group: SearchGroup, answer: Omit<FileSearchBatch, 'group' | 'groupsDone' | 'groupsTotal'>) =>
        out.push({ group, ...answer, groupsDone: ++done, groupsTotal: groups.length });
      const release = () => {
        const waiting = held ?? [];
        held = undefined;
        for (const [g, a] of waiting) push(g, a);
      };
      const emit = (group: SearchGroup, answer: Omit<FileSearchBatch, 'group' | 'groupsDone' | 'groupsTotal'>) => {
        if (held && group !== first) return void held.push([group, answer]);
        push(group, answer);
        if (held) release();
      };
      const remote = groups.filter((group) => {
        const refined = this.refine(group, needle);
        if (refined) emit(group, { hits: refined.hits, complete: true, local: true });
        return !refined;
      });
      runPool(
        remote,
        this.concurrency,
        async (group) => {
          const answer = await this.ask(group, needle, signal);
          if (answer instanceof PortalError) emit(group, { hits: [], complete: false, local: false, error: answer });
          else if (answer) emit(group, { hits: answer.hits, complete: answer.complete, local: false });
        },
        signal,
      ).then(
        () => {
          release();
          out.end();
        },
        (error: unknown) => out.fail(error),
      );
      for (let batch = await out.next(signal); batch; batch = await out.next(signal)) yield batch;
    } finally {
      linked.dispose();
    }
  }

  /** The group's matches from its previous answer, when that answer was complete and the new text contains its text. */
  private refine(group: SearchGroup, needle: string): Answer | undefined {
    const before = this.answers.get(group.id);
    if (!before?.complete || !needle.includes(before.needle)) return undefined;
    const answer: Answer = { needle, hits: before.hits.filter((h) => matches(h.name, needle)), complete: true };
    this.answers.set(group.id, answer);
    return answer;
  }

  /** One group's matches from the portal; a PortalError for a failure of this group alone; undefined when cancelled. */
  private async ask(
    group: SearchGroup,
    needle: string,
    signal: AbortSignal,
  ): Promise<Answer | PortalError | undefined> {
    const hits: FileRecord[] = [];
    const seen = new Set<number>();
    try {
      for (let page = 1; page <= this.maxPages; page++) {
        const p = await this.client.v2.files.page(
          this.accountId,
          group.id,
          { page, size: this.pageSize, name: needle, recursive: true, orderBy: 'name', ascending: true },
          { signal },
        );
        for (const r of p.items) {
          if (!seen.has(r.id) && matches(r.name, needle)) hits.push(r);
          seen.add(r.id);
        }
        if (!p.hasNext || p.items.length === 0) return this.remember(group, { needle, hits, complete: true });
      }
      return this.remember(group, { needle, hits, complete: false });
    } catch (error) {
      if (signal.aborted) return undefined;
      if (error instanceof PortalError && !FATAL.has(error.kind)) return error;
      throw error;
    }
  }

  private remember(group: SearchGroup, answer: Answer): Answer {
    this.answers.set(group.id, answer);
    return answer;
  }
}
