/**
 * "Go to File Record…": a quick pick that searches file names across every group of an organisation on the
 * portal (fileSearch.ts, the core `npm run bench` measures as goto_*). Rows arrive group by group as each group
 * answers, the group a person is in first; a new text or closing the pick aborts the search, and nothing is asked
 * after that. Each row says the folders it lies in when the portal's answers name them (groupFolders.ts).
 */
import * as vscode from 'vscode';
import type { FileRecord } from '../../../api/index';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { humanSize, iconForContentType } from '../../../shared/format';
import type { AccountRef, FileRef, FolderStep, GroupRef } from '../../../shared/refs';
import type { PickItem, SearchSource, Ui } from '../../../ui/ui';
import { FileSearch } from './fileSearch';
import type { GroupListCache } from './groupCache';
import type { GroupFolders, GroupFoldersClient } from './groupFolders';

/** Quiet time after a keystroke: short, since a search of every group is what the user is waiting for. */
const DEBOUNCE_MS = 200;

/** The record chosen, and what to open: its content (Enter) or its record (the row's button). */
export interface GoToChoice {
  readonly file: FileRef;
  readonly open: 'content' | 'record';
}

/** What the search keeps across keystrokes of every pick. */
export interface GoToCaches {
  /** The organisations' group lists. */
  readonly groups: GroupListCache;
  /** The groups' folders, for each hit's path. */
  readonly folders: GroupFolders;
}

/**
 * The folders from the group's root to the record's parent: from the portal's own path when it gives every id; []
 * for a record listed with neither path nor parent (a portal that ignores `recursive` lists only the root); else
 * from the group's folders; undefined when none of these names the whole way.
 */
export async function foldersOf(
  r: FileRecord,
  group: GroupRef,
  where: { client: GroupFoldersClient; folders: GroupFolders },
  signal: AbortSignal,
): Promise<readonly FolderStep[] | undefined> {
  if (r.path.length > 0 && r.path.every((p) => p.id !== null))
    return r.path.map((p) => ({ id: p.id as number, name: p.name }));
  if (r.parentId === null) return r.path.length === 0 ? [] : undefined;
  return where.folders.stepsTo(
    where.client,
    { accountId: group.account.accountId, groupId: group.groupId },
    r.parentId,
    signal,
  );
}

function fileRefOf(group: GroupRef, r: FileRecord, folders: readonly FolderStep[] | undefined): FileRef {
  return {
    kind: 'file',
    group,
    fileId: r.id,
    name: r.friendlyName || r.name,
    isFolder: r.isFolder,
    size: r.isFolder ? null : r.size,
    contentType: r.contentType,
    // Known folders let a portal without a single-record read show the record, and the Explorer reveal its row.
    ...(folders ? { folders } : {}),
    lastModified: r.lastModified,
  };
}

function itemOf(file: FileRef, path: readonly string[]): PickItem<GoToChoice> {
  const where = [file.group.label, ...path].join(' / ');
  return {
    label: file.name,
    icon: file.isFolder ? 'folder' : iconForContentType(file.contentType, file.name),
    description: file.isFolder ? where : `${where} · ${humanSize(file.size)}`,
    value: { file, open: 'content' },
    buttons: [{ icon: 'file-text', tooltip: vscode.l10n.t('Open File Record'), value: { file, open: 'record' } }],
  };
}

/** The pick's rows for a text: one batch per group that has matches, as the groups answer (`first` leading). */
function fileSearchSource(
  search: FileSearch,
  account: AccountRef,
  folders: { client: GroupFoldersClient; folders: GroupFolders },
  first: GroupRef | undefined,
): SearchSource<GoToChoice> {
  return async function* matches(text, signal) {
    for await (const batch of search.search(text, signal, first?.groupId)) {
      if (batch.hits.length === 0) continue;
      const group: GroupRef = { kind: 'group', account, groupId: batch.group.id, label: batch.group.label };
      yield await Promise.all(
        batch.hits.map(async (r) => {
          const steps = await foldersOf(r, group, folders, signal);
          // The portal's path names the way even when its ids are missing; else the folders found, else nothing.
          const path = r.path.length > 0 ? r.path.map((p) => p.name) : (steps ?? []).map((s) => s.name);
          return itemOf(fileRefOf(group, r, steps), path);
        }),
      );
    }
  };
}

/**
 * Asks for a file record of the organisation by name; undefined when the pick was closed. A group (the one selected)
 * has its matches listed first.
 */
export function pickFileRecord(
  ui: Ui,
  registry: PortalRegistry,
  caches: GoToCaches,
  account: AccountRef,
  first?: GroupRef,
): Promise<GoToChoice | undefined> {
  const client = registry.client(account.portalId);
  const search = new FileSearch(client, account.accountId, { groups: caches.groups });
  return ui.search(fileSearchSource(search, account, { client, folders: caches.folders }, first), {
    id: 'goto.file',
    title: first
      ? vscode.l10n.t('Go to File Record in {0} ({1} first)', account.label, first.label)
      : vscode.l10n.t('Go to File Record in {0}', account.label),
    placeHolder: vscode.l10n.t('Type part of a file name; every group of {0} is searched', account.label),
    matchOnDescription: true,
    debounceMs: DEBOUNCE_MS,
  });
}
