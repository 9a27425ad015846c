/**
 * The groups of an account, fetched once and reused by every search of that account (a search across groups
 * must not pay for the group list on each keystroke). The caller keeps one cache for as long as it likes.
 */
import type { V2Api } from '../../../api/index';
import { unlessAborted } from '../../../api/index';

export interface SearchGroup {
  readonly id: number;
  /** The group's unique name. */
  readonly name: string;
  /** The name people see (the unique name when the portal gives no other). */
  readonly label: string;
}

/** What the cache needs of a PortalClient. */
export interface GroupListClient {
  readonly v2: { readonly groups: Pick<V2Api['groups'], 'list'> };
}

interface Entry {
  readonly at: number;
  readonly groups: Promise<readonly SearchGroup[]>;
}

export class GroupListCache {
  /** Per client, so two portals (or a client replaced after signing in again) never share a list. */
  private readonly byClient = new WeakMap<GroupListClient, Map<number, Entry>>();
  private fetchCount = 0;

  /** `maxAgeMs`: how long a list is reused; default five minutes. */
  constructor(
    private readonly maxAgeMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Group lists requested from a portal so far. */
  get fetches(): number {
    return this.fetchCount;
  }

  /** Whether a fresh list for this account is at hand (a search that starts now sends no list request). */
  has(client: GroupListClient, accountId: number): boolean {
    const entry = this.byClient.get(client)?.get(accountId);
    return entry !== undefined && this.now() - entry.at <= this.maxAgeMs;
  }

  /**
   * The account's groups. Concurrent callers share one request, which runs on even when a caller's signal
   * aborts (that caller gets undefined at once), so the next search finds the list ready. A failed request is
   * not kept.
   */
  get(client: GroupListClient, accountId: number, signal: AbortSignal): Promise<readonly SearchGroup[] | undefined> {
    let lists = this.byClient.get(client);
    if (!lists) this.byClient.set(client, (lists = new Map()));
    let entry = lists.get(accountId);
    if (!entry || this.now() - entry.at > this.maxAgeMs) {
      this.fetchCount++;
      const groups = client.v2.groups
        .list(accountId)
        .then((list) => list.map((g): SearchGroup => ({ id: g.id, name: g.name, label: g.friendlyName || g.name })));
      const created: Entry = { at: this.now(), groups };
      groups.catch(() => {
        if (lists.get(accountId) === created) lists.delete(accountId);
      });
      lists.set(accountId, (entry = created));
    }
    return unlessAborted(entry.groups, signal);
  }

  /** Forgets the lists of one account, or all lists of the client. */
  invalidate(client: GroupListClient, accountId?: number): void {
    if (accountId === undefined) this.byClient.delete(client);
    else this.byClient.get(client)?.delete(accountId);
  }
}
