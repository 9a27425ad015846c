/**
 * What each node of the views costs on the wire, and the compact rows the views keep. No VS Code here, so the
 * benchmark drives exactly these functions under plain Node.
 *
 * Every expand is ONE request:
 *   portal  → GET /v3/userinfo              (accounts with plan code, trial, paused, permission)
 *   account → GET /v2/accounts/{a}/groups   (one page)
 *   group   → GET /v2/accounts/{a}/groups/{g}/files            (one page of the root level)
 *   folder  → GET /v2/accounts/{a}/groups/{g}/files/{f}/children (one page)
 * Subscription details and custom names are fetched only when a tooltip needs them (see AccountExtras).
 *
 * Rows keep only what a tree row shows and what commands need: the views may hold 20,000 members or 50,000 file
 * records, and the parsed API objects are several times larger than these.
 */
import type { PortalClient } from '../../api';
import type { AccountMembership, Application, CustomNames, FileRecord, Group, Subscription } from '../../api';
import { memberRow, type MemberQuery, type MemberRow } from '../../shared/members';
import type { PageFetcher, PageResult } from '../../views/paging';

export interface AccountRow {
  readonly accountId: number;
  /** The slug. */
  readonly name: string;
  readonly friendlyName: string;
  readonly enabled: boolean;
  readonly planCode: string;
  readonly trialExpires: number | null;
  readonly paused: boolean;
  /** The signed-in user's account permission mask. */
  readonly permission: number;
  readonly admin: boolean;
  readonly memberOfSpaces: number;
}

export interface GroupRow {
  readonly accountId: number;
  readonly groupId: number;
  readonly name: string;
  readonly friendlyName: string;
  readonly members: number;
  readonly storageConsumed: number;
  readonly lastModified: number | null;
}

export interface FileRow {
  readonly id: number;
  readonly name: string;
  readonly contentType: string;
  readonly isFolder: boolean;
  readonly size: number;
  readonly lastModified: number | null;
  readonly locked: boolean;
  readonly uploader: string;
}

export interface ApplicationRow {
  readonly clientId: string;
  readonly name: string;
  readonly description: string;
  readonly platform: string;
  readonly deviceType: string;
  readonly lastActivity: number | null;
}

export function accountRow(m: AccountMembership): AccountRow {
  return {
    accountId: m.account.id,
    name: m.account.name,
    friendlyName: m.account.friendlyName || m.account.name,
    enabled: m.account.enabled,
    planCode: m.subscription.code,
    trialExpires: m.subscription.trialExpires,
    paused: m.subscription.paused,
    permission: m.permission,
    admin: m.admin,
    memberOfSpaces: m.memberOfSpaces,
  };
}

export function groupRow(accountId: number, g: Group): GroupRow {
  return {
    accountId,
    groupId: g.id,
    name: g.name,
    friendlyName: g.friendlyName || g.name,
    members: g.members,
    storageConsumed: g.storageConsumed,
    lastModified: g.lastModified,
  };
}

export function fileRow(f: FileRecord): FileRow {
  return {
    id: f.id,
    name: f.friendlyName || f.name,
    contentType: f.contentType,
    isFolder: f.isFolder,
    size: f.size,
    lastModified: f.lastModified,
    locked: f.locked,
    uploader: f.uploaded?.name || f.uploaded?.user?.name || '',
  };
}

export function applicationRow(a: Application): ApplicationRow {
  return {
    clientId: a.clientId,
    name: a.name || a.clientId,
    description: a.description,
    platform: a.platform,
    deviceType: a.deviceType,
    lastActivity: a.lastActivity,
  };
}

/** Lists that arrive whole (userinfo accounts, applications) as a one-page list. */
function whole<T>(load: (signal: AbortSignal | undefined) => Promise<T[]>): PageFetcher<T> {
  return async ({ page, signal }): Promise<PageResult<T>> => {
    if (page > 1) return { items: [], hasMore: false };
    const items = await load(signal);
    return { items, hasMore: false, total: items.length };
  };
}

const opts = (signal: AbortSignal | undefined) => (signal ? { signal } : undefined);

export function accountsFetcher(client: PortalClient): PageFetcher<AccountRow> {
  return whole(async (signal) => (await client.v3.userinfo(opts(signal))).accounts.map(accountRow));
}

export function groupsFetcher(client: PortalClient, accountId: number): PageFetcher<GroupRow> {
  return async ({ page, size, signal }) => {
    const p = await client.v2.groups.page(accountId, { page, size }, opts(signal));
    return { items: p.items.map((g) => groupRow(accountId, g)), hasMore: p.hasNext, total: p.totalResults };
  };
}

/** A group's root level (folderId undefined) or a folder's children. */
export function filesFetcher(client: PortalClient, accountId: number, groupId: number, folderId: number | undefined): PageFetcher<FileRow> {
  return async ({ page, size, signal }) => {
    const query = { page, size, orderBy: 'name' as const, ascending: true };
    const p = folderId === undefined
      ? await client.v2.files.page(accountId, groupId, query, opts(signal))
      : await client.v2.files.children(accountId, groupId, folderId, query, opts(signal));
    return { items: p.items.map(fileRow), hasMore: p.hasNext, total: p.totalResults };
  };
}

export function membersFetcher(client: PortalClient, accountId: number, q: MemberQuery): PageFetcher<MemberRow> {
  return async ({ page, size, signal }) => {
    const order = { ...(q.orderBy ? { orderBy: q.orderBy } : {}), ...(q.ascending !== undefined ? { ascending: q.ascending } : {}) };
    const p = q.tags && q.tags.length > 0
      // The tag endpoint takes no name filter (see the report to the API owner); the view keeps the two apart.
      ? await client.v3.memberTags.members(accountId, q.tags, { page, size, ...order }, opts(signal))
      : await client.v3.members.page(accountId, {
        page,
        size,
        ...order,
        ...(q.search ? (q.startsWith ? { startsWith: q.search } : { name: q.search }) : {}),
      }, opts(signal));
    return { items: p.items.map(memberRow), hasMore: p.hasNext, total: p.totalResults };
  };
}

export function applicationsFetcher(client: PortalClient): PageFetcher<ApplicationRow> {
  return whole(async (signal) => (await client.v3.applications.list(opts(signal))).map(applicationRow));
}

/**
 * Account details that only tooltips and documents need: fetched on first hover, then kept (per client, so a new
 * sign-in starts over). A regular member gets 403 on the subscription; that is an answer too and is kept.
 */
export class AccountExtras {
  private readonly subscriptions = new Map<number, Promise<Subscription | { forbidden: true }>>();
  private readonly custom = new Map<number, Promise<CustomNames>>();
  private readonly customSettled = new Map<number, CustomNames>();

  constructor(private readonly client: PortalClient) {}

  subscription(accountId: number): Promise<Subscription | { forbidden: true }> {
    let p = this.subscriptions.get(accountId);
    if (!p) {
      p = this.client.v3.accounts.subscription(accountId).catch((error: unknown) => {
        if (isForbidden(error)) return { forbidden: true as const };
        this.subscriptions.delete(accountId); // a transient failure is asked again on the next hover
        throw error;
      });
      this.subscriptions.set(accountId, p);
    }
    return p;
  }

  customNames(accountId: number): Promise<CustomNames> {
    let p = this.custom.get(accountId);
    if (!p) {
      p = this.client.v2.accounts.custom(accountId).then(
        (names) => (this.customSettled.set(accountId, names), names),
        (error: unknown) => {
          this.custom.delete(accountId);
          throw error;
        },
      );
      this.custom.set(accountId, p);
    }
    return p;
  }

  /** Custom names already known, without asking (labels built during an expand must not cost a request). */
  knownCustomNames(accountId: number): CustomNames | undefined {
    return this.customSettled.get(accountId);
  }

  clear(accountId?: number): void {
    if (accountId === undefined) {
      this.subscriptions.clear();
      this.custom.clear();
      this.customSettled.clear();
    } else {
      this.subscriptions.delete(accountId);
      this.custom.delete(accountId);
      this.customSettled.delete(accountId);
    }
  }
}

function isForbidden(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { kind?: unknown }).kind === 'forbidden';
}
