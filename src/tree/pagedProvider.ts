/**
 * What the three views share: a paged list per parent (cached briefly), "Load more…", error nodes that retry,
 * progress in the view while a page loads, and refresh that cancels what is in flight.
 */
import * as vscode from 'vscode';
import { isPortalError } from '../api';
import { ListCache } from './listCache';
import { ErrorNode, LoadMoreNode, MessageNode, PortalTreeNode, RangeNode } from './nodes';
import { decompose, FLAT_LIMIT, PagedList, RANGE_BASE, type PageFetcher } from './paging';

export interface ListSpec<T> {
  readonly portalId: string;
  readonly parent: PortalTreeNode | undefined;
  /** Cache key of the list: the parent's key (or the view's root key). */
  readonly key: string;
  /** Called only when no fresh list is cached; throws (e.g. signed-out) become an error node. */
  readonly fetcher: () => PageFetcher<T>;
  readonly keyOf: (row: T) => string | number;
  readonly toNode: (row: T) => PortalTreeNode;
  /** "groups", "members"… for "Load more groups…". */
  readonly noun: string;
  readonly emptyText: string;
}

/** Settings read on each use, so a change applies to the next list without a reload. */
export function pageSize(): number {
  const n = vscode.workspace.getConfiguration('portal').get<number>('pageSize', 50);
  return Math.min(100, Math.max(1, Math.floor(Number.isFinite(n) ? n : 50)));
}

export function cacheMs(): number {
  const s = vscode.workspace.getConfiguration('portal').get<number>('cacheSeconds', 30);
  return Math.max(0, Number.isFinite(s) ? s : 30) * 1000;
}

/** A cancelled load is retried with the list that replaced it; bounded so a refresh storm cannot loop. */
const MAX_CANCELLED_RETRIES = 2;

export abstract class PagedTreeProvider implements vscode.TreeDataProvider<PortalTreeNode>, vscode.Disposable {
  protected readonly changed = new vscode.EventEmitter<PortalTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  protected readonly cache = new ListCache(cacheMs);
  /** Nodes made for each list's rows, by position: a "Load more" maps only the new rows. */
  private readonly nodes = new WeakMap<PagedList<unknown>, { version: number; nodes: PortalTreeNode[] }>();


  constructor(
    /** The view's id, for in-view progress. */
    readonly viewId: string,
    /** Commands the view registers for its "Load more…" and error rows. */
    private readonly commands: { loadMore: string; retry: string },
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

  /** Drops the lists under a key (a node not at hand, e.g. after a palette command) and redraws the view. */
  refreshKey(key: string): void {
    this.cache.drop(key);
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
      let list: PagedList<T>;
      try {
        list = this.cache.get(spec.key, () => new PagedList(spec.fetcher(), spec.keyOf, pageSize()));
      } catch (error) {
        return [new ErrorNode(spec.portalId, spec.parent, spec.key, error, this.commands.retry, 'first')];
      }
      try {
        if (!list.loaded || list.loading) await this.withViewProgress(list.ensureFirstPage());
      } catch (error) {
        if (isPortalError(error, 'cancelled') && attempt < MAX_CANCELLED_RETRIES) continue;
        if (this.cache.peek(spec.key) === list) this.cache.drop(spec.key);
        return [new ErrorNode(spec.portalId, spec.parent, spec.key, error, this.commands.retry, 'first')];
      }
      return this.rowsOf(spec, list);
    }
  }

  private rowsOf<T>(spec: ListSpec<T>, list: PagedList<T>): PortalTreeNode[] {
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
    if (list.error !== undefined && !isPortalError(list.error, 'cancelled')) {
      out.push(new ErrorNode(spec.portalId, spec.parent, spec.key, list.error, this.commands.retry, 'more'));
    } else if (list.hasMore) {
      out.push(new LoadMoreNode(spec.portalId, spec.parent, spec.key, generic, spec.noun, this.commands.loadMore));
    } else if (out.length === 0) {
      out.push(new MessageNode(spec.portalId, spec.parent, `${spec.key}/#empty`, spec.emptyText));
    }
    return out;
  }

  /** Flat up to FLAT_LIMIT rows; beyond, earlier rows in ranges and the last (up to RANGE_BASE) rows flat. */
  private fold<T>(spec: ListSpec<T>, list: PagedList<unknown>, made: PortalTreeNode[]): PortalTreeNode[] {
    if (made.length <= FLAT_LIMIT) return made.slice();
    const folded = Math.floor((made.length - 1) / RANGE_BASE) * RANGE_BASE;
    return [
      ...decompose(0, folded).map((r) => new RangeNode(spec.portalId, spec.parent, spec.key, list, r.start, r.size, spec.noun)),
      ...made.slice(folded),
    ];
  }

  /** A range's children: ten ranges a tenth its size, down to RANGE_BASE rows. */
  private rangeChildren(range: RangeNode): PortalTreeNode[] {
    const made = this.nodes.get(range.list)?.nodes ?? [];
    if (range.size <= RANGE_BASE) return made.slice(range.start, range.start + range.size);
    const step = range.size / 10;
    return Array.from({ length: 10 }, (_, i) => new RangeNode(range.portalId, range, range.listKey, range.list, range.start + i * step, step, range.noun));
  }

  protected withViewProgress<T>(task: Promise<T>): Promise<T> {
    return Promise.resolve(vscode.window.withProgress({ location: { viewId: this.viewId } }, () => task));
  }

  dispose(): void {
    this.cache.clear();
    this.changed.dispose();
  }
}
