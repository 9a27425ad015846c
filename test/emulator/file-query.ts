// File listings (v2). Each folder's records are sorted once per ordering and cached until the next
// data change; a page is then a slice, so walking a 50,000-entry folder stays cheap per page.
import { badRequest, notFound, type ApiError } from './http';
import { FOLDER, type FileRecord, type Group } from './model';
import { bool, epochMs, oneOf, text, type Paging } from './query';
import type { Store } from './store';

export const FILE_ORDER = ['name', 'lastModified', 'size'] as const;
type FileOrder = (typeof FILE_ORDER)[number];

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

const COMPARE: Record<FileOrder, (a: FileRecord, b: FileRecord) => number> = {
  name: (a, b) => collator.compare(a.name, b.name) || a.id - b.id,
  lastModified: (a, b) => a.lastModified - b.lastModified || a.id - b.id,
  size: (a, b) => a.size - b.size || a.id - b.id,
};

/** 'all' lists every record of the group (recursive=true). */
export type Scope = number | 'all';

function childrenIndex(store: Store, groupId: number): Map<number, FileRecord[]> {
  return store.cached(`children:${groupId}`, () => {
    const map = new Map<number, FileRecord[]>();
    for (const f of store.filesOf(groupId)) {
      let list = map.get(f.parentId);
      if (!list) map.set(f.parentId, (list = []));
      list.push(f);
    }
    return map;
  });
}

export interface FileListing {
  total: number;
  items: FileRecord[];
}

export function listFiles(store: Store, group: Group, scope: Scope, query: URLSearchParams, p: Paging): FileListing {
  const order = oneOf(query, 'orderBy', FILE_ORDER, 'name');
  const ascending = bool(query, 'ascending', true);
  const name = text(query, 'name')?.toLowerCase();
  const modifiedAfter = epochMs(query, 'modifiedAfter');
  const foldersOnly = bool(query, 'foldersOnly', false);
  const recursive = bool(query, 'recursive', false);
  const effective: Scope = recursive ? 'all' : scope;

  const sorted = store.cached(`files:${group.id}:${effective}:${order}`, () => {
    const base = effective === 'all' ? store.filesOf(group.id) : (childrenIndex(store, group.id).get(effective) ?? []);
    return [...base].sort(COMPARE[order]);
  });
  const filtered =
    name === undefined && modifiedAfter === undefined && !foldersOnly
      ? sorted
      : store.cached(
          `files:${group.id}:${effective}:${order}:${name ?? ''}:${modifiedAfter ?? ''}:${foldersOnly}`,
          () =>
            sorted.filter(
              (f) =>
                (name === undefined || f.name.toLowerCase().includes(name)) &&
                (modifiedAfter === undefined || f.lastModified > modifiedAfter) &&
                (!foldersOnly || f.contentType === FOLDER),
            ),
        );

  const total = filtered.length;
  const start = (p.page - 1) * p.size;
  if (ascending) return { total, items: filtered.slice(start, start + p.size) };
  // Descending pages are read from the end of the ascending order, without copying it.
  const from = Math.max(0, total - start - p.size);
  const to = Math.max(0, total - start);
  return { total, items: filtered.slice(from, to).reverse() };
}

/** The folder named by a children path: '' or '0' is the root. */
export function folderScope(store: Store, group: Group, raw: string): number {
  if (raw === '' || raw === '0') return 0;
  const f = /^[1-9]\d{0,14}$/.test(raw) ? store.files.get(Number(raw)) : undefined;
  if (!f || f.groupId !== group.id) throw notFoundFile(raw);
  if (f.contentType !== FOLDER) throw badRequest(`File ${raw} is not a folder`);
  return f.id;
}

export function fileInGroup(store: Store, group: Group, raw: string): FileRecord {
  const f = /^[1-9]\d{0,14}$/.test(raw) ? store.files.get(Number(raw)) : undefined;
  if (!f || f.groupId !== group.id) throw notFoundFile(raw);
  return f;
}

function notFoundFile(raw: string): ApiError {
  return notFound(`File ${raw} not found`);
}
