/**
 * What a command works on. From a tree node the ids come with the argument (the nodes' documented fields:
 * portalId, accountId, groupId, fileId, username, clientId); from the palette a quick pick asks, bounded to one
 * page plus a search the portal runs.
 */
import type { PortalClient } from '../api';
import type { PortalRegistry } from '../auth/portalRegistry';
import { count, humanSize } from '../shared/format';
import { pickPortal, portalIdFromArg } from '../auth/commands';
import { PortalTreeNode } from '../features/explorer/nodes';
import type { PickItem, Ui } from '../ui/ui';

export interface AccountRef { readonly portalId: string; readonly accountId: number; readonly label?: string | undefined }
export interface GroupRef extends AccountRef { readonly groupId: number }
export interface FileRef extends GroupRef { readonly fileId: number; readonly name: string; readonly isFolder: boolean; readonly size?: number | undefined }
export interface MemberRef extends AccountRef {
  readonly username: string;
  readonly name?: string | undefined;
  readonly enabled?: boolean | undefined;
  readonly locked?: boolean | undefined;
  /** Chosen by the user in this extension (a row of its views, or its own picker), not named by a caller. */
  readonly chosenHere: boolean;
}

/**
 * A node of this extension's own views. Commands run from a view's menus get the node itself; a `command:` link,
 * a keybinding's `args` or another extension can only pass plain objects, so a state change they ask for is
 * confirmed first.
 */
export function isOwnNode(arg: unknown): boolean {
  return arg instanceof PortalTreeNode;
}
export interface ApplicationRef { readonly portalId: string; readonly clientId: string; readonly label?: string | undefined }

type Fields = Record<string, unknown>;

function fields(arg: unknown): Fields | undefined {
  return typeof arg === 'object' && arg !== null ? (arg as Fields) : undefined;
}

function num(o: Fields, key: string): number | undefined {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function str(o: Fields | undefined, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === 'string' && v ? v : undefined;
}

/** The human name a node carries: `label`, `name`, or its row's friendly name / name. */
function nameOf(o: Fields): string | undefined {
  const row = fields(o.row);
  return str(o, 'label') ?? str(o, 'name') ?? str(row, 'friendlyName') ?? str(row, 'name');
}

export function accountFromArg(arg: unknown): AccountRef | undefined {
  const o = fields(arg);
  const portalId = o ? str(o, 'portalId') : undefined;
  const accountId = o ? num(o, 'accountId') : undefined;
  return o && portalId && accountId !== undefined ? { portalId, accountId, label: o.groupId === undefined ? nameOf(o) : undefined } : undefined;
}

export function groupFromArg(arg: unknown): GroupRef | undefined {
  const o = fields(arg);
  const account = accountFromArg(arg);
  const groupId = o ? num(o, 'groupId') : undefined;
  return o && account && groupId !== undefined ? { ...account, groupId, label: o.fileId === undefined ? nameOf(o) : undefined } : undefined;
}

export function fileFromArg(arg: unknown): FileRef | undefined {
  const o = fields(arg);
  const group = groupFromArg(arg);
  const fileId = o ? num(o, 'fileId') : undefined;
  if (!o || !group || fileId === undefined) return undefined;
  const row = fields(o.row);
  const isFolder = o.isFolder === true || row?.isFolder === true;
  const size = row ? num(row, 'size') : undefined;
  return { ...group, fileId, name: nameOf(o) ?? `file ${fileId}`, isFolder, size, label: undefined };
}

export function memberFromArg(arg: unknown): MemberRef | undefined {
  const o = fields(arg);
  const account = accountFromArg(arg);
  const username = o ? str(o, 'username') : undefined;
  if (!o || !account || !username) return undefined;
  const row = fields(o.row);
  return {
    ...account,
    username,
    label: undefined,
    name: str(row, 'name') ?? username,
    enabled: typeof row?.enabled === 'boolean' ? row.enabled : undefined,
    locked: typeof row?.locked === 'boolean' ? row.locked : undefined,
    chosenHere: isOwnNode(arg),
  };
}

export function applicationFromArg(arg: unknown): ApplicationRef | undefined {
  const o = fields(arg);
  const portalId = o ? str(o, 'portalId') : undefined;
  const clientId = o ? str(o, 'clientId') : undefined;
  return o && portalId && clientId ? { portalId, clientId, label: nameOf(o) } : undefined;
}

// ---- Palette pickers ------------------------------------------------------------------------------------------

/** Rows shown per quick pick: one page, the largest the portal serves. */
const PICK_PAGE = 100;

export async function pickSignedInPortal(ui: Ui, registry: PortalRegistry, arg: unknown, placeHolder: string): Promise<{ portalId: string; client: PortalClient } | undefined> {
  const portalId = portalIdFromArg(arg) ?? (await pickPortal(ui, registry, placeHolder, 'signed-in'));
  if (!portalId) {
    if (!registry.list().some((c) => c.client)) ui.notify('info', 'Sign in to a portal first.');
    return undefined;
  }
  return { portalId, client: registry.client(portalId) };
}

export async function pickAccount(ui: Ui, registry: PortalRegistry, arg: unknown): Promise<AccountRef | undefined> {
  const known = accountFromArg(arg);
  if (known) return known;
  const portal = await pickSignedInPortal(ui, registry, arg, 'Which portal?');
  if (!portal) return undefined;
  const info = await busy(ui, 'Loading organisations…', () => portal.client.v3.userinfo());
  const items = info.accounts.map((a): PickItem<AccountRef> => {
    const label = a.account.friendlyName || a.account.name;
    return { label, description: a.account.name, detail: a.subscription.code, value: { portalId: portal.portalId, accountId: a.account.id, label } };
  });
  if (items.length === 0) {
    ui.notify('info', 'You belong to no organisation on this portal.');
    return undefined;
  }
  return items.length === 1 ? items[0]?.value : ui.pick(items, { id: 'pick.account', placeHolder: 'Which organisation?' });
}

export async function pickGroup(ui: Ui, registry: PortalRegistry, arg: unknown): Promise<GroupRef | undefined> {
  const known = groupFromArg(arg);
  if (known) return known;
  const account = await pickAccount(ui, registry, arg);
  if (!account) return undefined;
  const client = registry.client(account.portalId);
  const page = await busy(ui, 'Loading groups…', () => client.v2.groups.page(account.accountId, { page: 1, size: PICK_PAGE }));
  const items = page.items.map((g): PickItem<GroupRef> => {
    const label = g.friendlyName || g.name;
    return { label, description: g.name, detail: `${count(g.members)} members`, value: { ...account, groupId: g.id, label } };
  });
  return ui.pick(items, {
    id: 'pick.group',
    placeHolder: page.hasNext ? `Which group? (first ${PICK_PAGE}; the Explorer lists them all)` : 'Which group?',
    matchOnDescription: true,
  });
}

/** A file (or folder) of a group, searched by name across the group's folders on the portal. */
export async function pickFile(ui: Ui, registry: PortalRegistry, arg: unknown, filesOnly: boolean): Promise<FileRef | undefined> {
  const known = fileFromArg(arg);
  if (known) return known;
  const group = await pickGroup(ui, registry, arg);
  if (!group) return undefined;
  const client = registry.client(group.portalId);
  return ui.search(async function* files(search, signal) {
    const page = await client.v2.files.page(group.accountId, group.groupId, {
      page: 1, size: PICK_PAGE, recursive: true, orderBy: 'name', ...(search ? { name: search } : {}),
    }, { signal });
    yield page.items
      .filter((f) => !filesOnly || !f.isFolder)
      .map((f): PickItem<FileRef> => ({
        label: f.friendlyName || f.name,
        description: f.isFolder ? 'folder' : humanSize(f.size),
        value: { ...group, fileId: f.id, name: f.friendlyName || f.name, isFolder: f.isFolder, size: f.size, label: undefined },
      }));
  }, { id: 'pick.file', placeHolder: `${group.label ?? 'Group'}: type to search file records by name` });
}

export async function pickMember(ui: Ui, registry: PortalRegistry, arg: unknown, preferred: AccountRef | undefined): Promise<MemberRef | undefined> {
  const known = memberFromArg(arg);
  if (known) return known;
  const account = accountFromArg(arg) ?? preferred ?? (await pickAccount(ui, registry, arg));
  if (!account) return undefined;
  const client = registry.client(account.portalId);
  return ui.search(async function* members(search, signal) {
    const page = await client.v3.members.page(account.accountId, { page: 1, size: PICK_PAGE, ...(search ? { name: search } : {}) }, { signal });
    yield page.items.map((m): PickItem<MemberRef> => ({
      label: m.user.name || m.user.username,
      description: `${m.user.username}${m.user.enabled ? '' : ' · disabled'}${m.user.locked ? ' · locked' : ''}`,
      detail: m.user.email,
      value: { ...account, username: m.user.username, name: m.user.name, enabled: m.user.enabled, locked: m.user.locked, label: undefined, chosenHere: true },
    }));
  }, { id: 'pick.member', placeHolder: `${account.label ?? 'Organisation'}: type to search members by name, username or e-mail` });
}

export async function pickApplication(ui: Ui, registry: PortalRegistry, arg: unknown): Promise<ApplicationRef | undefined> {
  const known = applicationFromArg(arg);
  if (known) return known;
  const portal = await pickSignedInPortal(ui, registry, arg, 'Which portal?');
  if (!portal) return undefined;
  const current = registry.get(portal.portalId)?.clientId;
  const apps = await busy(ui, 'Loading applications…', () => portal.client.v3.applications.list());
  return ui.pick(
    apps.map((a): PickItem<ApplicationRef> => ({
      label: a.name || a.clientId,
      description: `${a.platform}${a.clientId === current ? ' · this VS Code' : ''}`,
      detail: a.clientId,
      value: { portalId: portal.portalId, clientId: a.clientId, label: a.name || a.clientId },
    })),
    { id: 'pick.application', placeHolder: 'Which application?', matchOnDetail: true },
  );
}

/** The status bar shows that a pick's choices are loading. */
function busy<T>(ui: Ui, title: string, task: () => Promise<T>): Promise<T> {
  return ui.progress({ id: 'pick.load', title, where: 'window' }, task);
}
