/**
 * What a command works on. From a tree node the ids come with the argument (the nodes' documented fields:
 * portalId, accountId, groupId, fileId, username, clientId); from the palette a quick pick asks, bounded to one
 * page plus a search the portal runs.
 */
import * as vscode from 'vscode';
import type { PortalClient } from '../api';
import type { PortalRegistry } from '../auth/portalRegistry';
import { humanSize } from '../shared/format';
import { pickPortal, portalIdFromArg } from './auth';
import { errorMessage } from '../shared/errors';
import * as notify from '../shared/notify';
import { plain } from '../shared/plainText';
import { PortalTreeNode } from '../tree/nodes';

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
const SEARCH_DEBOUNCE_MS = 300;

export async function pickSignedInPortal(registry: PortalRegistry, arg: unknown, placeHolder: string): Promise<{ portalId: string; client: PortalClient } | undefined> {
  const portalId = portalIdFromArg(arg) ?? (await pickPortal(registry, placeHolder, 'signed-in'));
  if (!portalId) {
    if (!registry.list().some((c) => c.client)) void notify.info('Sign in to a portal first.');
    return undefined;
  }
  return { portalId, client: registry.client(portalId) };
}

export async function pickAccount(registry: PortalRegistry, arg: unknown): Promise<AccountRef | undefined> {
  const known = accountFromArg(arg);
  if (known) return known;
  const portal = await pickSignedInPortal(registry, arg, 'Which portal?');
  if (!portal) return undefined;
  const info = await withBusy('Loading organisations…', () => portal.client.v3.userinfo());
  const items = info.accounts.map((a) => ({
    label: plain(a.account.friendlyName || a.account.name),
    name: a.account.friendlyName || a.account.name,
    description: plain(a.account.name),
    detail: plain(a.subscription.code),
    accountId: a.account.id,
  }));
  if (items.length === 0) {
    void notify.info('You belong to no organisation on this portal.');
    return undefined;
  }
  const picked = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { placeHolder: 'Which organisation?' });
  return picked ? { portalId: portal.portalId, accountId: picked.accountId, label: picked.name } : undefined;
}

export async function pickGroup(registry: PortalRegistry, arg: unknown): Promise<GroupRef | undefined> {
  const known = groupFromArg(arg);
  if (known) return known;
  const account = await pickAccount(registry, arg);
  if (!account) return undefined;
  const client = registry.client(account.portalId);
  const page = await withBusy('Loading groups…', () => client.v2.groups.page(account.accountId, { page: 1, size: PICK_PAGE }));
  const items = page.items.map((g) => ({ label: plain(g.friendlyName || g.name), name: g.friendlyName || g.name, description: plain(g.name), detail: `${g.members} members`, groupId: g.id }));
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: page.hasNext ? `Which group? (first ${PICK_PAGE}; the Explorer lists them all)` : 'Which group?',
    matchOnDescription: true,
  });
  return picked ? { ...account, groupId: picked.groupId, label: picked.name } : undefined;
}

/** A file (or folder) of a group, searched by name across the group's folders on the portal. */
export async function pickFile(registry: PortalRegistry, arg: unknown, filesOnly: boolean): Promise<FileRef | undefined> {
  const known = fileFromArg(arg);
  if (known) return known;
  const group = await pickGroup(registry, arg);
  if (!group) return undefined;
  const client = registry.client(group.portalId);
  const picked = await searchPick(plain(`${group.label ?? 'Group'}: type to search file records by name`), async (search, signal) => {
    const page = await client.v2.files.page(group.accountId, group.groupId, {
      page: 1, size: PICK_PAGE, recursive: true, orderBy: 'name', ...(search ? { name: search } : {}),
    }, { signal });
    return page.items
      .filter((f) => !filesOnly || !f.isFolder)
      .map((f) => ({
        label: plain(f.friendlyName || f.name),
        description: f.isFolder ? 'folder' : humanSize(f.size),
        value: { ...group, fileId: f.id, name: f.friendlyName || f.name, isFolder: f.isFolder, size: f.size, label: undefined } as FileRef,
      }));
  });
  return picked;
}

export async function pickMember(registry: PortalRegistry, arg: unknown, preferred: AccountRef | undefined): Promise<MemberRef | undefined> {
  const known = memberFromArg(arg);
  if (known) return known;
  const account = accountFromArg(arg) ?? preferred ?? (await pickAccount(registry, arg));
  if (!account) return undefined;
  const client = registry.client(account.portalId);
  return searchPick(plain(`${account.label ?? 'Organisation'}: type to search members by name, username or e-mail`), async (search, signal) => {
    const page = await client.v3.members.page(account.accountId, { page: 1, size: PICK_PAGE, ...(search ? { name: search } : {}) }, { signal });
    return page.items.map((m) => ({
      label: plain(m.user.name || m.user.username),
      description: plain(`${m.user.username}${m.user.enabled ? '' : ' · disabled'}${m.user.locked ? ' · locked' : ''}`),
      detail: plain(m.user.email),
      value: { ...account, username: m.user.username, name: m.user.name, enabled: m.user.enabled, locked: m.user.locked, label: undefined, chosenHere: true } as MemberRef,
    }));
  });
}

export async function pickApplication(registry: PortalRegistry, arg: unknown): Promise<ApplicationRef | undefined> {
  const known = applicationFromArg(arg);
  if (known) return known;
  const portal = await pickSignedInPortal(registry, arg, 'Which portal?');
  if (!portal) return undefined;
  const current = registry.get(portal.portalId)?.clientId;
  const apps = await withBusy('Loading applications…', () => portal.client.v3.applications.list());
  const picked = await vscode.window.showQuickPick(
    apps.map((a) => ({ label: plain(a.name || a.clientId), name: a.name || a.clientId, description: plain(`${a.platform}${a.clientId === current ? ' · this VS Code' : ''}`), detail: plain(a.clientId), clientId: a.clientId })),
    { placeHolder: 'Which application?', matchOnDetail: true },
  );
  return picked ? { portalId: portal.portalId, clientId: picked.clientId, label: picked.name } : undefined;
}

interface SearchItem<T> extends vscode.QuickPickItem { readonly value: T }

/**
 * A quick pick whose rows come from the portal: the first page at once, then one search per pause in typing.
 * Older searches are aborted, so at most one request is in flight.
 */
export function searchPick<T>(placeholder: string, load: (search: string, signal: AbortSignal) => Promise<Array<SearchItem<T>>>): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    const qp = vscode.window.createQuickPick<SearchItem<T>>();
    qp.placeholder = placeholder;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    let controller: AbortController | undefined;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const run = (search: string): void => {
      controller?.abort();
      const c = new AbortController();
      controller = c;
      qp.busy = true;
      load(search.trim(), c.signal).then(
        (items) => {
          if (c !== controller) return;
          // The portal filtered already: keep its rows visible whatever VS Code's own matching thinks.
          qp.items = items.map((i) => ({ ...i, alwaysShow: true }));
          qp.busy = false;
        },
        (error: unknown) => {
          if (c !== controller) return;
          qp.busy = false;
          qp.items = [];
          qp.placeholder = plain(`Could not search: ${errorMessage(error)}`);
        },
      );
    };
    const finish = (value: T | undefined): void => {
      if (settled) return;
      settled = true;
      controller?.abort();
      if (timer) clearTimeout(timer);
      resolve(value);
      qp.dispose();
    };
    qp.onDidChangeValue((value) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => run(value), SEARCH_DEBOUNCE_MS);
    });
    qp.onDidAccept(() => finish(qp.selectedItems[0]?.value));
    qp.onDidHide(() => finish(undefined));
    run('');
    qp.show();
  });
}

function withBusy<T>(title: string, task: () => Promise<T>): Promise<T> {
  return notify.progress({ location: vscode.ProgressLocation.Window, title }, task);
}
