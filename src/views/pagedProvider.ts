/**
 * What the three views share: a paged list per parent (cached briefly), "Load more…", error nodes that retry,
 * progress in the view while a page loads, and refresh that cancels what is in flight.
 */
import * as vscode from 'vscode';
import { setting } from '../auth/settings';
import { ListCache } from './listCache';
import type { PortalTreeNode } from './node';
import { ErrorNode, LoadMoreNode, MessageNode, RangeNode } from './rows';
import { decompose, FLAT_LIMIT, PagedList, RANGE_BASE, type PageFetcher } from './paging';
import { isCancellation } from '../shared/errors';
import { emptyKey, type TreeKey } from '../shared/keys';
import type { Ui } from '../ui/ui';
import { TreeChanges } from './treeChanges';

interface ListSpec<T> {
  readonly portalId: string;
  readonly parent: PortalTreeNode | undefined;
  /** Cache key of the list: the parent's key (or the view's root key). */
  readonly key: TreeKey;
  /** Called only when no fresh list is cached; throws (e.g. signed-out) become an error node. */
  readonly fetcher: () => PageFetcher<T>;
  readonly keyOf: (row: T) => string | number;
  readonly toNode: (row: T) => PortalTreeNode;
  /** "groups", "members"… for "Load more groups…". */
  readonly noun: string;
  readonly emptyText: string;
}

/** Settings read on each use, so a change applies to the next list without a reload. */
function pageSize(): number {
  return setting('pageSize');
}

function cacheMs(): number {
  return setting('cacheSeconds') * 1000;
}

/** A cancelled load is retried with the list that replaced it; bounded so a refresh storm cannot loop. */
const MAX_CANCELLED_RETRIES = 2;

export abstract class PagedTreeProvider implements vscode.TreeDataProvider<PortalTreeNode>, vscode.Disposable {
  protected readonly changed = new TreeChanges<PortalTreeNode>();
  readonly onDidChangeTreeData = this.changed.event;
  protected readonly cache = new ListCache(cacheMs);
  /** Nodes made for each list's rows, by position: a "Load more" maps only the new rows. */
  private readonly nodes = new WeakMap<PagedList<unknown>, { version: number; nodes: PortalTreeNode[] }>();
  /** A reloading list → the out-of-date list whose rows the view shows until the new first page is in (see reload). */
  private readonly standIns = new WeakMap<PagedList<unknown>, PagedList<unknown>>();
  /** Lists whose first page is loading behind their stand-in's rows. */
  private readonly loadingBehind = new WeakSet<PagedList<unknown>>();
  private firstRows: number | undefined;

  constructor(
    /** The view's id, for in-view progress. */
    readonly viewId: string,
    /** Commands the view registers for its "Load more…" and error rows. */
    private readonly commands: { loadMore: string; retry: string },
    /** Shows the view's progress bar while a page loads. */
    private readonly ui: () => Ui,
  ) {}

  /** The children of a node of this view (range nodes are handled here). */
  protected abstract childrenOf(element?: PortalTreeNode): Promise<PortalTreeNode[]>;

  getChildren(element?: PortalTreeNode): Promise<PortalTreeNode[]> {
    if (element instanceof RangeNode) return Promise.resolve(this.rangeChildren(element));
    return this.childrenOf(element);
  }

  getTreeItem(element: PortalTreeNode): vscode.TreeItem {
    return element.treeItem();
  }

  getParent(element: PortalTreeNode): PortalTreeNode | undefined {
    return element.parent;
  }

  /** Drops the node's list (and everything below it) and asks VS Code to show it again. */
  refresh(node?: PortalTreeNode): void {
    if (node) this.cache.drop(node.key);
    else this.cache.clear();
    this.changed.fire(node);
  }

  /**
   * The portal changed under the lists below `key` (every list without one; with `only`, the list of `key` alone,
   * not the lists of its expanded children): after a form's save or a command
   * such as "Move to Trash". Each list the view shows is asked again, but the view keeps its rows (and VS Code
   * keeps knowing them) until the new first page is in; then it redraws.
   *
   * Why not refresh(): a context-menu entry passes the command only a handle of its row, which VS Code's
   * extension host turns back into the node through the rows the view last drew. It forgets a parent's rows
   * the moment it asks for them again, until getChildren answers. Dropping the lists makes that a round trip
   * to the portal for every open level, and a menu entry used meanwhile ran with no row (and asked "Which
   * organisation?"). Answering with the loaded rows keeps it to one exchange inside VS Code.
   */
  reload(key?: TreeKey, only = false): void {
    this.cache.expire(key, only);
    this.changed.fire(undefined);
  }

  /** The next page of the list behind a "Load more…" row. */
  async loadMore(node: LoadMoreNode | ErrorNode): Promise<void> {
    const list = node instanceof LoadMoreNode ? node.list : this.cache.peek(node.listKey);
    if (!list) {
      this.changed.fire(node.parent);
      return;
    }
    const loading = list.loadMore();
    this.changed.fire(node.parent); // shows the spinner icon on "Load more…"
    try {
      await this.withViewProgress(loading);
    } catch {
      // The list keeps the error; getChildren shows it in place of "Load more…".
    }
    this.changed.fire(node.parent);
  }

  /** An error row was clicked. */
  async retry(node: ErrorNode): Promise<void> {
    if (node.mode === 'more') return this.loadMore(node);
    this.cache.drop(node.listKey);
    this.changed.fire(node.parent);
  }

  /** The children of a paged parent: rows, then "Load more…" or the error of the last page, never nothing. */
  protected async listChildren<T>(spec: ListSpec<T>): Promise<PortalTreeNode[]> {
    for (let attempt = 0; ; attempt++) {
      const before = this.cache.peek<T>(spec.key);
      let list: PagedList<T>;
      try {
        list = this.cache.get(spec.key, () => new PagedList(spec.fetcher(), spec.keyOf, pageSize()));
      } catch (error) {
        return [new ErrorNode(spec.portalId, spec.parent, spec.key, error, this.commands.retry, 'first')];
      }
      const generic = list as PagedList<unknown>;
      // reload(): the rows on screen (the out-of-date list's, or those it stood in with) stand in for the new
      // list's until its first page arrives.
      const replaced = before as PagedList<unknown> | undefined;
      if (replaced && replaced !== generic && this.cache.isExpired(replaced)) {
        const shown = replaced.loaded ? replaced : this.standIns.get(replaced);
        if (shown) this.standIns.set(generic, shown);
      }
      const standIn = this.standIns.get(generic) as PagedList<T> | undefined;
      if (standIn) {
        if (!list.loaded && (list.loading || list.error === undefined)) {
          this.loadBehind(generic);
          return this.rowsOf(spec, standIn);
        }
        this.standIns.delete(generic);
        if (!list.loaded) {
          // The reload's first page failed: say so where the rows were, as a failed expand does.
          if (this.cache.peek(spec.key) === list) this.cache.drop(spec.key);
          return [new ErrorNode(spec.portalId, spec.parent, spec.key, list.error, this.commands.retry, 'first')];
        }
      }
      try {
        if (!list.loaded || list.loading) await this.withViewProgress(list.ensureFirstPage());
      } catch (error) {
        if (isCancellation(error) && attempt < MAX_CANCELLED_RETRIES) continue;
        if (this.cache.peek(spec.key) === list) this.cache.drop(spec.key);
        return [new ErrorNode(spec.portalId, spec.parent, spec.key, error, this.commands.retry, 'first')];
      }
      return this.rowsOf(spec, list);
    }
  }

  /** The list whose rows the view shows for `key`: the cached one, or while it reloads, its stand-in. */
  protected shownList<T>(key: TreeKey): PagedList<T> | undefined {
    const list = this.cache.peek<T>(key);
    if (!list || list.loaded) return list;
    return (this.standIns.get(list as PagedList<unknown>) as PagedList<T> | undefined) ?? list;
  }

  /** Loads a reloading list's first page while its stand-in's rows are shown, then has the view redraw. */
  private loadBehind(list: PagedList<unknown>): void {
    if (this.loadingBehind.has(list)) return;
    this.loadingBehind.add(list);
    const settled = (): void => {
      this.loadingBehind.delete(list);
      // The whole view: the parent node VS Code asked with may have been replaced by a newer one meanwhile, and a
      // change event for a node VS Code no longer knows is ignored. Every other list answers from the cache.
      this.changed.fire(undefined);
    };
    this.withViewProgress(list.ensureFirstPage()).then(settled, settled);
  }

  /** When (performance.now()) the view first showed rows the portal sent; undefined until then. */
  get firstRowsAt(): number | undefined {
    return this.firstRows;
  }

  private rowsOf<T>(spec: ListSpec<T>, list: PagedList<T>): PortalTreeNode[] {
    if (list.count > 0) this.firstRows ??= performance.now();
    const generic = list as PagedList<unknown>;
    let memo = this.nodes.get(generic);
    if (!memo || memo.version !== list.version) this.nodes.set(generic, (memo = { version: list.version, nodes: [] }));
    const made = memo.nodes;
    if (made.length < list.count) {
      const rows = list.items;
      for (let i = made.length; i < rows.length; i++) {
        const row = rows[i];
        if (row !== undefined) made.push(spec.toNode(row));
      }
    }
    const out = this.fold(spec, generic, made);
    if (list.error !== undefined && !isCancellation(list.error)) {
      out.push(new ErrorNode(spec.portalId, spec.parent, spec.key, list.error, this.commands.retry, 'more'));
    } else if (list.hasMore) {
      out.push(new LoadMoreNode(spec.portalId, spec.parent, spec.key, generic, spec.noun, this.commands.loadMore));
    } else if (out.length === 0) {
      out.push(new MessageNode(spec.portalId, spec.parent, emptyKey(spec.key), spec.emptyText));
    }
    return out;
  }

  /** Flat up to FLAT_LIMIT rows; beyond, earlier rows in ranges and the last (up to RANGE_BASE) rows flat. */
  private fold<T>(spec: ListSpec<T>, list: PagedList<unknown>, made: PortalTreeNode[]): PortalTreeNode[] {
    if (made.length <= FLAT_LIMIT) return made.slice();
    const folded = Math.floor((made.length - 1) / RANGE_BASE) * RANGE_BASE;
    return [
      ...decompose(0, folded).map(
        (r) => new RangeNode(spec.portalId, spec.parent, spec.key, list, r.start, r.size, spec.noun),
      ),
      ...made.slice(folded),
    ];
  }

  /** A range's children: ten ranges a tenth its size, down to RANGE_BASE rows. */
  private rangeChildren(range: RangeNode): PortalTreeNode[] {
    const made = this.nodes.get(range.list)?.nodes ?? [];
    if (range.size <= RANGE_BASE) return made.slice(range.start, range.start + range.size);
    const step = range.size / 10;
    return Array.from(
      { length: 10 },
      (_, i) =>
        new RangeNode(range.portalId, range, range.listKey, range.list, range.start + i * step, step, range.noun),
    );
  }

  protected withViewProgress<T>(task: Promise<T>): Promise<T> {
    return this.ui().progress(
      { id: 'view.load', title: vscode.l10n.t('Loading…'), where: { view: this.viewId } },
      () => task,
    );
  }

  dispose(): void {
    this.cache.clear();
    this.changed.dispose();
  }
}
