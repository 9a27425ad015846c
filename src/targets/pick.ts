/**
 * The pickers a command falls back on when it was not run on a row: each returns what the user chose, as a Ref,
 * or undefined when they withheld an answer. Bounded to one page, plus a search the portal runs.
 */
import * as vscode from 'vscode';
import type { FileRecord, Page, PortalClient } from '../api/index';
import type { PortalRegistry } from '../auth/portalRegistry';
import { pickPortal } from '../auth/portalPick';
import { count, humanSize } from '../shared/format';
import type { AccountRef, ApplicationRef, FileRef, GroupRef, MemberRef, PortalRef } from '../shared/refs';
import type { PickItem, Ui } from '../ui/ui';

/** Rows shown per quick pick: one page, the largest the portal serves. */
const PICK_PAGE = 100;

/** How the questions read: the pick's placeholder, and the command's title above each question, where it has one. */
export interface Asking {
  readonly placeHolder: string;
  readonly title?: string;
}

/**
 * Asks for the levels between `known` (a portal, an organisation or a group; nothing when not even the portal is
 * known) and `level`, widest first, each once, through one client of the portal: the answer at `level`, or
 * undefined when the user withheld one.
 */
export async function pickDown(
  ui: Ui,
  registry: PortalRegistry,
  level: 'portal' | 'account' | 'group',
  known: PortalRef | AccountRef | GroupRef | undefined,
  asking: Asking,
): Promise<PortalRef | AccountRef | GroupRef | undefined> {
  let at = known ?? (await pickSignedInPortal(ui, registry, asking));
  if (!at || at.kind === 'group' || at.kind === level) return at;
  const client = registry.client(at.portalId);
  if (at.kind === 'portal') at = await pickAccount(ui, client, at, asking.title);
  if (at?.kind === 'account' && level === 'group') at = await pickGroup(ui, client, at, asking.title);
  return at;
}

export async function pickSignedInPortal(
  ui: Ui,
  registry: PortalRegistry,
  asking: Asking,
): Promise<PortalRef | undefined> {
  const portalId = await pickPortal(ui, registry, asking.placeHolder, 'signed-in', asking.title);
  const entry = portalId ? registry.get(portalId)?.entry : undefined;
  if (!entry) {
    if (!registry.list().some((c) => c.client)) ui.notify('info', vscode.l10n.t('Sign in to a portal first.'));
    return undefined;
  }
  return { kind: 'portal', portalId: entry.id, label: entry.label };
}

async function pickAccount(
  ui: Ui,
  client: PortalClient,
  portal: PortalRef,
  title: string | undefined,
): Promise<AccountRef | undefined> {
  const info = await busy(ui, vscode.l10n.t('Loading organisations…'), () => client.v3.userinfo());
  const items = info.accounts.map((a): PickItem<AccountRef> => {
    const label = a.account.friendlyName || a.account.name;
    return {
      label,
      description: a.account.name,
      detail: a.subscription.code,
      value: { kind: 'account', portalId: portal.portalId, accountId: a.account.id, label },
    };
  });
  if (items.length === 0) {
    ui.notify('info', vscode.l10n.t('You belong to no organisation on this portal.'));
    return undefined;
  }
  return items.length === 1
    ? items[0]?.value
    : ui.pick(items, {
        id: 'pick.account',
        ...(title !== undefined ? { title } : {}),
        placeHolder: vscode.l10n.t('Which organisation?'),
      });
}

async function pickGroup(
  ui: Ui,
  client: PortalClient,
  account: AccountRef,
  title: string | undefined,
): Promise<GroupRef | undefined> {
  const page = await busy(ui, vscode.l10n.t('Loading groups…'), () =>
    client.v2.groups.page(account.accountId, { page: 1, size: PICK_PAGE }),
  );
  const items = page.items.map((g): PickItem<GroupRef> => {
    const label = g.friendlyName || g.name;
    return {
      label,
      description: g.name,
      detail: g.members === 1 ? vscode.l10n.t('1 member') : vscode.l10n.t('{0} members', count(g.members)),
      value: { kind: 'group', account, groupId: g.id, label },
    };
  });
  return ui.pick(items, {
    id: 'pick.group',
    ...(title !== undefined ? { title } : {}),
    placeHolder: page.hasNext
      ? vscode.l10n.t('Which group? (first {0}; the Explorer lists them all)', PICK_PAGE)
      : vscode.l10n.t('Which group?'),
    matchOnDescription: true,
  });
}

/**
 * One page of a group's file records (or, with `foldersOnly`, its folders) named like `search`, from every folder of
 * the group, in name order: what a picker over the group lists.
 */
export function filesByName(
  client: PortalClient,
  group: GroupRef,
  search: string,
  signal: AbortSignal,
  foldersOnly = false,
): Promise<Page<FileRecord>> {
  return client.v2.files.page(
    group.account.accountId,
    group.groupId,
    {
      page: 1,
      size: PICK_PAGE,
      recursive: true,
      ...(foldersOnly ? { foldersOnly } : {}),
      orderBy: 'name',
      ...(search ? { name: search } : {}),
    },
    { signal },
  );
}

/** A file (or folder) of a group, searched by name across the group's folders on the portal. */
export function pickFile(
  ui: Ui,
  registry: PortalRegistry,
  group: GroupRef,
  filesOnly: boolean,
): Promise<FileRef | undefined> {
  const client = registry.client(group.account.portalId);
  return ui.search(
    async function* files(search, signal) {
      const page = await filesByName(client, group, search, signal);
      yield page.items
        .filter((f) => !filesOnly || !f.isFolder)
        .map((f): PickItem<FileRef> => ({
          label: f.friendlyName || f.name,
          description: f.isFolder ? vscode.l10n.t('folder') : humanSize(f.size),
          value: {
            kind: 'file',
            group,
            fileId: f.id,
            name: f.friendlyName || f.name,
            isFolder: f.isFolder,
            size: f.size,
            contentType: f.contentType,
          },
        }));
    },
    { id: 'pick.file', placeHolder: vscode.l10n.t('{0}: type to search file records by name', group.label) },
  );
}

export function pickMember(ui: Ui, registry: PortalRegistry, account: AccountRef): Promise<MemberRef | undefined> {
  const client = registry.client(account.portalId);
  return ui.search(
    async function* members(search, signal) {
      const page = await client.v3.members.page(
        account.accountId,
        { page: 1, size: PICK_PAGE, ...(search ? { name: search } : {}) },
        { signal },
      );
      yield page.items.map((m): PickItem<MemberRef> => ({
        label: m.user.name || m.user.username,
        description: [
          m.user.username,
          m.user.enabled ? '' : vscode.l10n.t('disabled'),
          m.user.locked ? vscode.l10n.t('locked') : '',
        ]
          .filter(Boolean)
          .join(' · '),
        detail: m.user.email,
        value: { kind: 'member', account, username: m.user.username, name: m.user.name || m.user.username },
      }));
    },
    {
      id: 'pick.member',
      placeHolder: vscode.l10n.t('{0}: type to search members by name, username or e-mail', account.label),
    },
  );
}

export async function pickApplication(
  ui: Ui,
  registry: PortalRegistry,
  portal: PortalRef,
): Promise<ApplicationRef | undefined> {
  const current = registry.get(portal.portalId)?.clientId;
  const apps = await busy(ui, vscode.l10n.t('Loading applications…'), () =>
    registry.client(portal.portalId).v3.applications.list(),
  );
  return ui.pick(
    apps.map((a): PickItem<ApplicationRef> => ({
      label: a.name || a.clientId,
      description: a.clientId === current ? vscode.l10n.t('{0} · this VS Code', a.platform) : a.platform,
      detail: a.clientId,
      value: {
        kind: 'application',
        portalId: portal.portalId,
        clientId: a.clientId,
        label: a.name || a.clientId,
        current: a.clientId === current,
      },
    })),
    { id: 'pick.application', placeHolder: vscode.l10n.t('Which application?'), matchOnDetail: true },
  );
}

/** The status bar shows that a pick's choices are loading. */
function busy<T>(ui: Ui, title: string, task: () => Promise<T>): Promise<T> {
  return ui.progress({ id: 'pick.load', title, where: 'window' }, task);
}
