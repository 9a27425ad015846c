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
