/**
 * What each node of the Explorer costs on the wire, and the compact rows it keeps. No VS Code here, so the
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
import type { AccountMembership, FileRecord, Group, PortalClient } from '../../../api';
import { requestOptions as opts, whole, type PageFetcher } from '../../../views/paging';
import { DEFAULT_FILE_VIEW, filesQueryOf, type FileListView } from '../files/fileListView';

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

function accountRow(m: AccountMembership): AccountRow {
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

function groupRow(accountId: number, g: Group): GroupRow {
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

/**
 * What the Explorer keeps of a listed file record: the record itself, narrowed to what a row and its tooltip show
 * (the uploader's name without the user object; the friendly name as the name).
 */
export function listedFile(
  f: FileRecord,
): Pick<
  FileRecord,
  | 'id'
  | 'name'
  | 'contentType'
  | 'isFolder'
  | 'size'
  | 'lastModified'
  | 'locked'
  | 'uploaded'
  | 'versions'
  | 'watermark'
  | 'available'
  | 'sharing'
  | 'memberPermission'
> {
  const uploader = f.uploaded?.name || f.uploaded?.user?.name || '';
  return {
    id: f.id,
    name: f.friendlyName || f.name,
    contentType: f.contentType,
    isFolder: f.isFolder,
    size: f.size,
    lastModified: f.lastModified,
    locked: f.locked,
    uploaded: uploader ? { user: null, name: uploader } : null,
    versions: f.versions,
    watermark: f.watermark,
    available: f.available,
    sharing: f.sharing,
    memberPermission: f.memberPermission,
  };
}

export function accountsFetcher(client: PortalClient): PageFetcher<AccountRow> {
  return whole(async (signal) => (await client.v3.userinfo(opts(signal))).accounts.map(accountRow));
}

export function groupsFetcher(client: PortalClient, accountId: number): PageFetcher<GroupRow> {
  return async ({ page, size, signal }) => {
    const p = await client.v2.groups.page(accountId, { page, size }, opts(signal));
    return { items: p.items.map((g) => groupRow(accountId, g)), hasMore: p.hasNext, total: p.totalResults };
  };
}

/**
 * A group's root level (folderId undefined) or a folder's children, in the group's order and filters. `onPage`
 * sees each page's rows (the Explorer checks them against what it asked for).
 */
export function filesFetcher(
  client: PortalClient,
  accountId: number,
  groupId: number,
  folderId: number | undefined,
  view: FileListView = DEFAULT_FILE_VIEW,
  onPage?: (rows: readonly ReturnType<typeof listedFile>[]) => void,
): PageFetcher<ReturnType<typeof listedFile>> {
  return async ({ page, size, signal }) => {
    const query = { page, size, ...filesQueryOf(view) };
    const p =
      folderId === undefined
        ? await client.v2.files.page(accountId, groupId, query, opts(signal))
        : await client.v2.files.children(accountId, groupId, folderId, query, opts(signal));
    const items = p.items.map(listedFile);
    onPage?.(items);
    return { items, hasMore: p.hasNext, total: p.totalResults };
  };
}
