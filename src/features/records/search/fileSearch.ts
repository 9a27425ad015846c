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
  type FileRecord,
  type PortalErrorKind,
  type V2Api,
} from '../../../api/index';
import { GroupListCache, type GroupListClient, type SearchGroup } from './groupCache';
import { HandOff, linkedSignal, runPool, unlessAborted } from '../../../node/pool';

/** What a search needs of a PortalClient. */
interface FileSearchClient extends GroupListClient {
  readonly v2: GroupListClient['v2'] & { readonly files: Pick<V2Api['files'], 'page'> };
}

/** What a quick pick row needs. */
export interface FileHit {
  readonly groupId: number;
  readonly groupLabel: string;
  readonly fileId: number;
  readonly name: string;
  readonly isFolder: boolean;
  readonly contentType: string;
  /** Bytes; null for a folder. */
  readonly size: number | null;
  /** Parent folder id; null at the group's root or when the portal does not say. */
  readonly parentId: number | null;
  /** Folder names from the group's root, joined with "/", when the portal gives them; else null. */
  readonly path: string | null;
}

export interface FileSearchBatch {
  readonly group: SearchGroup;
  readonly hits: readonly FileHit[];
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
  readonly hits: readonly FileHit[];
  readonly complete: boolean;
}

/** Case-insensitive, as the portal's name search. */
function normaliseSearchText(text: string): string {
  return text.normalize('NFC').trim().toLowerCase();
}

function matches(name: string, needle: string): boolean {
  return name.normalize('NFC').toLowerCase().includes(needle);
}

function hitOf(group: SearchGroup, r: FileRecord): FileHit {
  return {
    groupId: group.id,
    groupLabel: group.label,
    fileId: r.id,
    name: r.name,
    isFolder: r.isFolder,
    contentType: r.contentType,
    size: r.isFolder ? null : r.size,
    parentId: r.parentId,
    path: r.path.length > 0 ? r.path.map((p) => p.name).join('/') : null,
  };
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
   */
  search(text: string, signal?: AbortSignal): AsyncIterable<FileSearchBatch> {
    return { [Symbol.asyncIterator]: () => this.run(normaliseSearchText(text), signal) };
  }

  private async *run(needle: string, outer: AbortSignal | undefined): AsyncGenerator<FileSearchBatch, void, undefined> {
    if (!needle || outer?.aborted) return;
    const linked = linkedSignal(outer, this.concurrency);
    const signal = linked.signal;
    try {
      const groups = await unlessAborted(this.options.groups.get(this.client, this.accountId, signal), signal);
      if (!groups) return;
      const out = new HandOff<FileSearchBatch>();
      let done = 0;
      const emit = (group: SearchGroup, answer: Omit<FileSearchBatch, 'group' | 'groupsDone' | 'groupsTotal'>) =>
        out.push({ group, ...answer, groupsDone: ++done, groupsTotal: groups.length });
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
        () => out.end(),
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
    const hits: FileHit[] = [];
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
          if (!seen.has(r.id) && matches(r.name, needle)) hits.push(hitOf(group, r));
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
