/**
 * What the Explorer keeps between sessions, in globalState and by ids only: each group's order and filters of
 * its file records, and whether disabled organisations are hidden. What a portal was seen to ignore is kept for
 * the session only.
 */
import type * as vscode from 'vscode';
import { isWithin, type TreeKey } from '../../../shared/keys';
import {
  DEFAULT_FILE_VIEW,
  isDefaultView,
  parseStoredView,
  type FileListView,
  type Unapplied,
} from '../files/fileListView';

const FILE_VIEWS = 'portal.explorer.fileViews';
const HIDE_DISABLED = 'portal.explorer.hideDisabledAccounts';
/** Groups whose order or filters are kept; past it the ones set longest ago are forgotten. */
const MAX_FILE_VIEWS = 500;

const NONE: ReadonlySet<Unapplied> = new Set();

export class ExplorerState {
  private readonly unapplied = new Map<TreeKey, Set<Unapplied>>();

  constructor(private readonly memento: vscode.Memento) {}

  /** The group's order and filters (by its key: ids only). */
  fileView(group: TreeKey): FileListView {
    return parseStoredView(this.views()[group]) ?? DEFAULT_FILE_VIEW;
  }

  async setFileView(group: TreeKey, view: FileListView): Promise<void> {
    const views = { ...this.views() };
    // Deleted first, so the insertion order is the order the views were set in.
    delete views[group];
    if (!isDefaultView(view)) views[group] = view;
    const keys = Object.keys(views);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_FILE_VIEWS))) delete views[key];
    this.unapplied.delete(group);
    await this.memento.update(FILE_VIEWS, views);
  }

  /** Notes what a page of the group's listing showed the portal did not apply; true when that is news. */
  noteUnapplied(group: TreeKey, parts: readonly Unapplied[]): boolean {
    let known = this.unapplied.get(group);
    const news = parts.filter((p) => !known?.has(p));
    if (news.length === 0) return false;
    if (!known) this.unapplied.set(group, (known = new Set()));
    for (const p of news) known.add(p);
    return true;
  }

  unappliedIn(group: TreeKey): ReadonlySet<Unapplied> {
    return this.unapplied.get(group) ?? NONE;
  }

  /** A refresh asks the portal again, and what it ignored before is not assumed any more. */
  forgetUnapplied(under?: TreeKey): void {
    for (const key of [...this.unapplied.keys()])
      if (under === undefined || isWithin(key, under)) this.unapplied.delete(key);
  }

  get hideDisabledAccounts(): boolean {
    return this.memento.get<unknown>(HIDE_DISABLED) === true;
  }

  async setHideDisabledAccounts(hide: boolean): Promise<void> {
    await this.memento.update(HIDE_DISABLED, hide ? true : undefined);
  }

  private views(): Record<string, unknown> {
    const raw = this.memento.get<unknown>(FILE_VIEWS);
    return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  }
}

const EXPANDED = 'portal.explorer.expanded';
/** Rows whose expansion is kept; past it the ones expanded longest ago are forgotten. */
const MAX_EXPANDED = 300;

/**
 * Which rows of the Explorer are expanded, kept per workspace by key (ids only), so a reload shows the tree as it
 * was left. A row collapsed is forgotten, and with it what was expanded below it.
 */
export class ExpandedRows {
  private readonly keys: Set<string>;
  /**
   * What the last session left expanded: only these rows are drawn expanded by us. In this session VS Code keeps
   * what the user expands, and drawing more rows expanded would read lists nobody asked for.
   */
  private readonly restored: Set<string>;

  constructor(private readonly memento: vscode.Memento) {
    const raw = memento.get<unknown>(EXPANDED);
    this.keys = new Set(Array.isArray(raw) ? raw.filter((k): k is string => typeof k === 'string') : []);
    this.restored = new Set(this.keys);
  }

  /** The row was expanded when the last session ended (and not collapsed since). */
  has(key: TreeKey): boolean {
    return this.restored.has(key);
  }

  expanded(key: TreeKey): void {
    this.keys.delete(key);
    this.keys.add(key);
    const all = [...this.keys];
    for (const old of all.slice(0, Math.max(0, all.length - MAX_EXPANDED))) this.keys.delete(old);
    void this.save();
  }

  collapsed(key: TreeKey): void {
    for (const k of [...this.keys]) if (isWithin(k, key)) this.keys.delete(k);
    for (const k of [...this.restored]) if (isWithin(k, key)) this.restored.delete(k);
    void this.save();
  }

  private save(): Thenable<void> {
    return this.memento.update(EXPANDED, [...this.keys]);
  }
}
