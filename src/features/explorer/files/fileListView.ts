/**
 * How a group's file records are listed: the order and filters of the v2 file listing (`orderBy`, `ascending`,
 * `foldersOnly`, `modifiedAfter`), what the group row says about them, and whether a page shows that the portal
 * ignored them. The spec says the listing can be ordered and filtered but names no parameter, so a portal that
 * keeps to its letter answers in its own order, unfiltered; the Explorer then says so instead of claiming an
 * order it does not show. No VS Code here (unit-tested under plain Node).
 */
import * as l10n from '@vscode/l10n';
import type { FileRecord, FilesQuery } from '../../../api';

export type FileOrder = 'name' | 'lastModified' | 'size';

export interface FileListView {
  readonly orderBy: FileOrder;
  readonly ascending: boolean;
  readonly foldersOnly: boolean;
  /** Only records modified at or after this instant (ms since the epoch); null: any date. */
  readonly modifiedSince: number | null;
}

/** What the portal was asked for and a page shows it did not do. */
export type Unapplied = 'order' | 'foldersOnly' | 'modifiedSince';

export const DEFAULT_FILE_VIEW: FileListView = {
  orderBy: 'name',
  ascending: true,
  foldersOnly: false,
  modifiedSince: null,
};

const ORDERS: readonly FileOrder[] = ['name', 'lastModified', 'size'];

export function isDefaultOrder(v: FileListView): boolean {
  return v.orderBy === 'name' && v.ascending;
}

export function sameFileView(a: FileListView, b: FileListView): boolean {
  return (
    a.orderBy === b.orderBy &&
    a.ascending === b.ascending &&
    a.foldersOnly === b.foldersOnly &&
    a.modifiedSince === b.modifiedSince
  );
}

export function isDefaultView(v: FileListView): boolean {
  return isDefaultOrder(v) && !v.foldersOnly && v.modifiedSince === null;
}

/** The listing parameters of a view; the defaults are sent too, so every request says what it expects. */
export function filesQueryOf(
  v: FileListView,
): Pick<FilesQuery, 'orderBy' | 'ascending' | 'foldersOnly' | 'modifiedAfter'> {
  return {
    orderBy: v.orderBy,
    ascending: v.ascending,
    ...(v.foldersOnly ? { foldersOnly: true } : {}),
    // The portal's parameter is exclusive; "since" a day includes that day's first millisecond.
    ...(v.modifiedSince !== null ? { modifiedAfter: v.modifiedSince - 1 } : {}),
  };
}

/** "name A–Z", "newest first", "largest first"…: the words of a row's description and of the order picker. */
function orderWords(orderBy: FileOrder, ascending: boolean): string {
  switch (orderBy) {
    case 'name':
      return ascending ? l10n.t('name A–Z') : l10n.t('name Z–A');
    case 'lastModified':
      return ascending ? l10n.t('oldest first') : l10n.t('newest first');
    case 'size':
      return ascending ? l10n.t('smallest first') : l10n.t('largest first');
  }
}

/** "2025-01-15", with the time when it is not midnight: in the local time zone, as typed. */
export function dateWords(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return d.getHours() === 0 && d.getMinutes() === 0 ? day : `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The parts of a group row's description for its order and filters (nothing for the defaults). A part the
 * portal did not apply says so.
 */
export function describeFileView(v: FileListView, ignored: ReadonlySet<Unapplied>): string[] {
  const mark = (part: Unapplied, words: string) =>
    ignored.has(part) ? l10n.t('{0} (not applied by the portal)', words) : words;
  const parts: string[] = [];
  if (!isDefaultOrder(v) || ignored.has('order')) parts.push(mark('order', orderWords(v.orderBy, v.ascending)));
  if (v.foldersOnly) parts.push(mark('foldersOnly', l10n.t('folders only')));
  if (v.modifiedSince !== null)
    parts.push(mark('modifiedSince', l10n.t('modified since {0}', dateWords(v.modifiedSince))));
  return parts;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** How many neighbouring pairs of the page's files agree with the order asked for, and how many disagree. */
function orderVotes(
  v: FileListView,
  items: readonly Pick<FileRecord, 'name' | 'isFolder' | 'size' | 'lastModified'>[],
): { agree: number; disagree: number } {
  // Folders are left out: a portal may list them first whatever the order.
  const files = items.filter((r) => !r.isFolder);
  const key = (r: (typeof files)[number]): number | string | null =>
    v.orderBy === 'name' ? r.name : v.orderBy === 'size' ? r.size : r.lastModified;
  let agree = 0;
  let disagree = 0;
  for (let i = 1; i < files.length; i++) {
    const a = key(files[i - 1] as (typeof files)[number]);
    const b = key(files[i] as (typeof files)[number]);
    if (a === null || b === null) continue;
    const c = typeof a === 'string' ? collator.compare(a, String(b)) : a - (b as number);
    if (c === 0) continue;
    if (c < 0 === v.ascending) agree++;
    else disagree++;
  }
  return { agree, disagree };
}

/**
 * What a page of the listing shows the portal did not do (from what each row shows of itself). Numbers are compared exactly; names only by majority,
 * since a portal may collate differently from this machine.
 */
export function unappliedIn(
  v: FileListView,
  items: readonly Pick<FileRecord, 'name' | 'isFolder' | 'size' | 'lastModified'>[],
): Unapplied[] {
  const out: Unapplied[] = [];
  if (!isDefaultOrder(v)) {
    const { agree, disagree } = orderVotes(v, items);
    if (v.orderBy === 'name' ? disagree > agree : disagree > 0) out.push('order');
  }
  if (v.foldersOnly && items.some((r) => !r.isFolder)) out.push('foldersOnly');
  const since = v.modifiedSince;
  if (since !== null && items.some((r) => r.lastModified !== null && r.lastModified < since)) out.push('modifiedSince');
  return out;
}

/**
 * "2025-01-15" or "2025-01-15 14:30" (local time) → ms since the epoch; undefined when it is not such a date.
 * A date alone means its midnight, so "modified since 2025-01-15" includes that whole day.
 */
export function parseSinceDate(text: string): number | undefined {
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?\s*$/.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const d = new Date(year, month - 1, day, hour, minute);
  // new Date() rolls 2025-02-30 over into March: a date that does not exist is refused instead.
  if (
    d.getFullYear() !== year ||
    d.getMonth() !== month - 1 ||
    d.getDate() !== day ||
    d.getHours() !== hour ||
    d.getMinutes() !== minute
  )
    return undefined;
  return d.getTime();
}

/** A view read back from storage, or undefined when it is not one (storage is ours, but may be from an older version). */
export function parseStoredView(raw: unknown): FileListView | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const o = raw as Record<string, unknown>;
  const orderBy = ORDERS.find((x) => x === o.orderBy);
  if (!orderBy || typeof o.ascending !== 'boolean' || typeof o.foldersOnly !== 'boolean') return undefined;
  const modifiedSince =
    typeof o.modifiedSince === 'number' && Number.isFinite(o.modifiedSince) ? o.modifiedSince : null;
  return { orderBy, ascending: o.ascending, foldersOnly: o.foldersOnly, modifiedSince };
}

/** "name Z–A, folders only": the parts of a view the portal ignored, for a notice row and a tooltip. */
export function unappliedWords(v: FileListView, ignored: ReadonlySet<Unapplied>): string {
  const words: string[] = [];
  if (ignored.has('order')) words.push(orderWords(v.orderBy, v.ascending));
  if (ignored.has('foldersOnly')) words.push(l10n.t('folders only'));
  if (ignored.has('modifiedSince') && v.modifiedSince !== null)
    words.push(l10n.t('modified since {0}', dateWords(v.modifiedSince)));
  return words.join(', ');
}
