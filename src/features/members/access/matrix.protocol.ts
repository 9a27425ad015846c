/**
 * The access matrix as both sides of its webview see it: a row per member, a column per group, a cell per
 * membership. Rows travel as arrays of numbers and a few strings, and the page and the host filter and sort them with
 * the same functions here, so what the page shows is what an export writes. Imports nothing from Node or VS Code.
 *
 * The conversation:
 *   page → host  { type: 'ready' }                     once its script runs (and again after the webview reloads)
 *   host → page  { type: 'init', title, l10n, view }   the starting filter (a group's list starts filtered to it)
 *   host → page  { type: 'columns', from, names }      group names from index `from` on (names only grow)
 *   host → page  { type: 'tags', from, names }         tag names from index `from` on
 *   host → page  { type: 'rows', rows }                new or changed rows, in batches
 *   host → page  { type: 'removed', ids }              members no longer in the organisation
 *   host → page  { type: 'progress', progress }        the read's state: counts, ETA, age of what is shown
 *   page → host  { type: 'cancel' } | { type: 'refresh' } | { type: 'export', view } | { type: 'close' }
 */
import * as l10n from '@vscode/l10n';
import { bool, int, messages, object, oneOf, optional, str, type Infer } from '../../../forms/protocol/validate';
import {
  cellOf,
  LEVEL_PERMISSIONS,
  ROW,
  rowInactiveFor,
  rowInState,
  rowNotStarted,
  rowStateWords,
  type WireRow,
} from '../../../shared/accessRow';
import { filtersActivity, MEMBER_STATES, stateWord, type ActivityFacets } from '../../../shared/memberStates';

export { stateWord };
import { ACCOUNT_LEVELS, accountLevelOf, groupPermissionWords } from '../../../shared/permissions';
import { othersShape } from './outsiders/outsiders.protocol';
import { count, relativeTime } from '../../../shared/format';
import { checkWidths, type ColumnWidths } from './matrixColumns.protocol';

export const SORTS = ['name', 'username', 'lastActive', 'level', 'groups', 'state', 'permission'] as const;
export type MatrixSort = (typeof SORTS)[number];

/** What the matrix shows: every field optional, absent means "any". */
export interface MatrixView extends ActivityFacets {
  /** A column index: only members of that group, and only its column. */
  readonly group?: number | undefined;
  /** Name, username or e-mail contains (case-insensitive). */
  readonly text?: string | undefined;
  /** A tag index. */
  readonly tag?: number | undefined;
  /** 1–3: members with a cell at this level (in the group, when one is chosen). */
  readonly level?: number | undefined;
  /** The organisation permission (1, 4 or 16); a mask between levels counts as the highest level it holds. */
  readonly permission?: number | undefined;
  readonly sort?: MatrixSort | undefined;
  readonly descending?: boolean | undefined;
}

function hasLevel(row: WireRow, level: number): boolean {
  const cells = row[ROW.cells];
  for (let i = 1; i < cells.length; i += 2) if (cells[i] === level) return true;
  return false;
}

/** An activity filter leaves out members who have not started yet, unless the view keeps them. */
function leftOutAsNotStarted(row: WireRow, view: MatrixView): boolean {
  return !view.notStarted && filtersActivity(view) && rowNotStarted(row);
}

/**
 * Whether the row shows under `view`. `now` decides "inactive N days", so the page and the export agree on the
 * rows when they pass the same time.
 */
export function matches(row: WireRow, view: MatrixView, now = Date.now()): boolean {
  if (view.group !== undefined && cellOf(row, view.group) === 0) return false;
  if (view.inactiveDays !== undefined && !rowInactiveFor(row, view.inactiveDays, now)) return false;
  if (view.state !== undefined && !rowInState(row, view.state)) return false;
  if (leftOutAsNotStarted(row, view)) return false;
  if (view.permission !== undefined && accountLevelOf(row[ROW.permission]) !== view.permission) return false;
  if (view.level !== undefined && view.level > 0) {
    const ok = view.group !== undefined ? cellOf(row, view.group) === view.level : hasLevel(row, view.level);
    if (!ok) return false;
  }
  if (view.tag !== undefined && !row[ROW.tags].includes(view.tag)) return false;
  const text = view.text?.trim().toLowerCase();
  if (text) {
    const hay = `${row[ROW.name]}\n${row[ROW.username]}\n${row[ROW.email]}`.toLowerCase();
    if (!hay.includes(text)) return false;
  }
  return true;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

function compare(a: WireRow, b: WireRow, view: MatrixView): number {
  switch (view.sort ?? 'name') {
    case 'username':
      return collator.compare(a[ROW.username], b[ROW.username]);
    case 'lastActive':
      // Never active (-1) sorts as the oldest.
      return a[ROW.lastActive] - b[ROW.lastActive];
    case 'level':
      return view.group !== undefined
        ? cellOf(a, view.group) - cellOf(b, view.group)
        : maxLevel(a) - maxLevel(b) || collator.compare(a[ROW.name], b[ROW.name]);
    case 'groups':
      return a[ROW.cells].length - b[ROW.cells].length;
    case 'state':
      return a[ROW.flags] - b[ROW.flags];
    case 'permission':
      return accountLevelOf(a[ROW.permission]) - accountLevelOf(b[ROW.permission]);
    default:
      return collator.compare(a[ROW.name], b[ROW.name]);
  }
}

function maxLevel(row: WireRow): number {
  let max = 0;
  const cells = row[ROW.cells];
  for (let i = 1; i < cells.length; i += 2) max = Math.max(max, cells[i] ?? 0);
  return max;
}

/** Group columns in name order, as the page shows them and an export writes them. */
export function columnOrder(names: readonly string[]): number[] {
  return names.map((_, i) => i).sort((a, b) => collator.compare(names[a] ?? '', names[b] ?? ''));
}

/** The rows the view shows, in its order; ties keep the name order, then the username. */
export function visibleRows(rows: Iterable<WireRow>, view: MatrixView, now = Date.now()): WireRow[] {
  const out: WireRow[] = [];
  for (const row of rows) if (matches(row, view, now)) out.push(row);
  const sign = view.descending ? -1 : 1;
  out.sort(
    (a, b) =>
      sign * compare(a, b, view) ||
      collator.compare(a[ROW.name], b[ROW.name]) ||
      (a[ROW.username] < b[ROW.username] ? -1 : a[ROW.username] > b[ROW.username] ? 1 : 0),
  );
  return out;
}

export { rowStateWords as stateWords };

/** What made a view, in words ("group Engineering, inactive 90+ days"); empty when nothing filters. */
export function viewWords(
  view: MatrixView,
  names: { readonly columns: readonly string[]; readonly tags: readonly string[] },
  permissionWord: (mask: number) => string,
): string {
  const parts: string[] = [];
  if (view.group !== undefined) parts.push(l10n.t('group {0}', names.columns[view.group] ?? ''));
  if (view.level) parts.push(l10n.t('group permission {0}', levelWord(view.level)));
  if (view.inactiveDays !== undefined) parts.push(l10n.t('inactive {0}+ days', view.inactiveDays));
  if (view.state !== undefined) parts.push(stateWord(view.state).toLowerCase());
  if (filtersActivity(view)) parts.push(notStartedWords(view));
  if (view.permission !== undefined) parts.push(l10n.t('organisation permission {0}', permissionWord(view.permission)));
  if (view.tag !== undefined) parts.push(l10n.t('tag {0}', names.tags[view.tag] ?? ''));
  if (view.text?.trim()) parts.push(l10n.t('matching "{0}"', view.text.trim()));
  return parts.join(', ');
}

/** Whether an activity filter kept the members not started yet, in words. */
function notStartedWords(view: MatrixView): string {
  return view.notStarted ? l10n.t('members not started yet included') : l10n.t('members not started yet left out');
}

/** A cell's level in the words of the members file and its plan; empty for none. */
export function levelWord(level: number): string {
  return level > 0 ? groupPermissionWords(LEVEL_PERMISSIONS[level] ?? level) : '';
}

/** "about 25 minutes": how long a read still takes, to the unit that matters. */
export function durationWords(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 60) return s === 1 ? l10n.t('about 1 second') : l10n.t('about {0} seconds', s);
  const m = Math.round(s / 60);
  if (m < 90) return m === 1 ? l10n.t('about 1 minute') : l10n.t('about {0} minutes', m);
  const h = Math.round((s / 3600) * 10) / 10;
  return l10n.t('about {0} hours', h);
}

export type ReadState = 'idle' | 'listing' | 'reading' | 'done' | 'cancelled' | 'failed';

export interface MatrixProgress {
  readonly state: ReadState;
  /** Members whose groups are known (read now or kept from before). */
  readonly read: number;
  /** Members in the organisation as far as listed (undefined before the first page). */
  readonly total: number | undefined;
  /** Reads still to do in this run. */
  readonly remaining: number;
  /** Estimated time left, ms; undefined when nothing is running. */
  readonly etaMs: number | undefined;
  /** When the oldest row shown was read (0: nothing read). */
  readonly oldestReadAt: number;
  /** Members whose read failed in this run. */
  readonly failed: number;
  /** Words for a failure or a note (already plain text). */
  readonly message: string;
}

/**
 * The status line: how far a read is, or how old what is shown is, as of `now` (the host's clock, which also stamped
 * the reads): the host sends the progress again when these words would change, so the age keeps counting.
 */
export function statusWords(p: MatrixProgress, now: number): string {
  const running = p.state === 'listing' || p.state === 'reading';
  const total = p.total ?? 0;
  const parts: string[] = [];
  if (total > 0) parts.push(l10n.t('{0} of {1} members read', count(p.read), count(total)));
  if (running && p.etaMs !== undefined && p.remaining > 0) parts.push(l10n.t('{0} left', durationWords(p.etaMs)));
  if (p.state === 'cancelled') parts.push(l10n.t('stopped; Refresh goes on from here'));
  if (!running && p.oldestReadAt > 0) parts.push(l10n.t('oldest read {0}', relativeTime(p.oldestReadAt, now)));
  return parts.join(' · ');
}

/** What the page keeps in its webview state, so the panel comes back after a reload (ids and the filter only). */
export interface MatrixRestore {
  readonly portalId: string;
  readonly accountId: number;
  readonly label: string;
  readonly view: MatrixView;
  /**
   * The names of the view's group and tag: their indexes are this session's, and the next one, loading the stored
   * reads in another order, may number them otherwise.
   */
  readonly groupName?: string | undefined;
  readonly tagName?: string | undefined;
  /** The column widths the user dragged to (matrixColumns.ts). */
  readonly widths?: Partial<ColumnWidths> | undefined;
}

// ---- page → host ----

const MAX_NAME = 200;
const viewShape = {
  group: optional(int({ min: 0, max: 1_000_000 })),
  text: optional(str({ max: MAX_NAME })),
  tag: optional(int({ min: 0, max: 1_000_000 })),
  level: optional(int({ min: 0, max: 3 })),
  inactiveDays: optional(int({ min: 0, max: 100_000 })),
  state: optional(oneOf(MEMBER_STATES)),
  notStarted: optional(bool),
  permission: optional(oneOf(ACCOUNT_LEVELS)),
  sort: optional(oneOf(SORTS)),
  descending: optional(bool),
};

/** The kept state as VS Code hands it back: checked like any message from the page. */
export const checkRestore = object({
  portalId: str({ min: 1, max: 2000 }),
  accountId: int({ min: 1 }),
  label: str({ max: MAX_NAME }),
  view: object(viewShape),
  groupName: optional(str({ max: MAX_NAME })),
  tagName: optional(str({ max: MAX_NAME })),
  widths: optional(checkWidths),
});

export const checkPageMessage = messages({
  ready: {},
  cancel: {},
  refresh: {},
  close: {},
  export: { view: object(viewShape), others: optional(object(othersShape)) },
  /** The guests' and invitations' filters, and the sign-in filter, changed (outsiders/). */
  others: { others: object(othersShape) },
  /** The page's filter changed: the host keeps it, so a reopened panel and an export start from it. */
  view: { view: object(viewShape) },
});
export type PageMessage = Infer<typeof checkPageMessage>;
