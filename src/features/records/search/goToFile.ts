/**
 * "Go to File Record…": a quick pick that searches file names across every group of an organisation on the
 * portal (fileSearch.ts, the core `npm run bench` measures as goto_*). Rows arrive group by group as each group
 * answers; a new text or closing the pick aborts the search, and nothing is asked after that.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { humanSize, iconForContentType } from '../../../shared/format';
import type { AccountRef, FileRef } from '../../../shared/refs';
import type { PickItem, SearchSource, Ui } from '../../../ui/ui';
import { FileSearch, type FileHit } from './fileSearch';
import { type GroupListCache } from './groupCache';

/** Quiet time after a keystroke: short, since a search of every group is what the user is waiting for. */
const DEBOUNCE_MS = 200;

function fileRefOf(account: AccountRef, hit: FileHit): FileRef {
  return {
    kind: 'file',
    group: { kind: 'group', account, groupId: hit.groupId, label: hit.groupLabel },
    fileId: hit.fileId,
    name: hit.name,
    isFolder: hit.isFolder,
    size: hit.size,
    contentType: hit.contentType,
    // A record listed without a parent is at the group's root (a portal that ignores `recursive` lists only the
    // root): saying so lets a portal without a single-record read show it from the root's listing.
    ...(hit.parentId === null ? { folders: [] } : {}),
  };
}

function itemOf(account: AccountRef, hit: FileHit): PickItem<FileRef> {
  const where = hit.path ? `${hit.groupLabel} / ${hit.path}` : hit.groupLabel;
  return {
    label: hit.name,
    icon: hit.isFolder ? 'folder' : iconForContentType(hit.contentType, hit.name),
    description: hit.isFolder ? where : `${where} · ${humanSize(hit.size)}`,
    value: fileRefOf(account, hit),
  };
}

/** The pick's rows for a text: one batch per group that has matches, as the groups answer. */
function fileSearchSource(search: FileSearch, account: AccountRef): SearchSource<FileRef> {
  return async function* matches(text, signal) {
    for await (const batch of search.search(text, signal)) {
      if (batch.hits.length > 0) yield batch.hits.map((h) => itemOf(account, h));
    }
  };
}

/** Asks for a file record of the organisation by name; undefined when the pick was closed. */
export function pickFileRecord(
  ui: Ui,
  registry: PortalRegistry,
  groups: GroupListCache,
  account: AccountRef,
): Promise<FileRef | undefined> {
  const search = new FileSearch(registry.client(account.portalId), account.accountId, { groups });
  return ui.search(fileSearchSource(search, account), {
    id: 'goto.file',
    title: vscode.l10n.t('Go to File Record in {0}', account.label),
    placeHolder: vscode.l10n.t('Type part of a file name; every group of {0} is searched', account.label),
    matchOnDescription: true,
    debounceMs: DEBOUNCE_MS,
  });
}
