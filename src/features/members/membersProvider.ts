/**
 * The Members view: the members of one account (the Explorer's selection, or one chosen with a quick pick).
 * Search, tag filter and order are query parameters: the portal filters, so a filter sees rows not loaded yet.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { Ui } from '../../ui/ui';
import { countLabel } from '../../shared/format';
import { memberListKey, memberListsKey, type TreeKey } from '../../shared/keys';
import { describeQuery, isFiltered, type MemberQuery, type MemberRow } from '../../shared/members';
import { membersFetcher } from '../explorer/loaders';
import { MemberNode, type PortalTreeNode } from '../explorer/nodes';
import { PagedTreeProvider } from '../../views/pagedProvider';
import type { PagedList } from '../../views/paging';

export const MEMBERS_VIEW = 'portal.members';

export interface MembersTarget {
  readonly portalId: string;
  readonly accountId: number;
  readonly accountLabel: string;
}

export class MembersProvider extends PagedTreeProvider {
  private current: MembersTarget | undefined;
  private q: MemberQuery = {};
  private readonly descriptionEmitter = new vscode.EventEmitter<string | undefined>();
  /** The view's description ("Acme · 50 of 20,000 · search "ann""); the view's owner shows it. */
  readonly onDidChangeDescription = this.descriptionEmitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly registry: PortalRegistry, ui: () => Ui) {
    super(MEMBERS_VIEW, { loadMore: 'portal.members.loadMore', retry: 'portal.members.retry' }, ui);
    // Signed out of the portal whose members we show: start over with its next session.
    this.subscription = registry.onDidChange((c) => {
      if (this.current && (!c || c.entry.id === this.current.portalId)) {
        if (!registry.get(this.current.portalId)) this.current = undefined;
        this.refresh();
      }
    });
  }

  get target(): MembersTarget | undefined {
    return this.current;
  }

  get query(): MemberQuery {
    return this.q;
  }

  setTarget(target: MembersTarget | undefined): void {
    if (target?.portalId === this.current?.portalId && target?.accountId === this.current?.accountId) return;
    this.current = target;
    this.q = {};
    this.changed.fire(undefined);
    this.describe();
  }

  setQuery(query: MemberQuery): void {
    this.q = query;
    this.changed.fire(undefined);
    this.describe();
  }

  /** The cache key of the list the view shows now. */
  listKey(): TreeKey | undefined {
    const t = this.current;
    return t ? memberListKey(t, this.q) : undefined;
  }

  protected async childrenOf(element?: PortalTreeNode): Promise<PortalTreeNode[]> {
    const t = this.current;
    const key = this.listKey();
    if (element || !t || !key) return [];
    const q = this.q;
    const nodes = await this.listChildren<MemberRow>({
      portalId: t.portalId,
      parent: undefined,
      key,
      fetcher: () => membersFetcher(this.registry.client(t.portalId), t.accountId, q),
      keyOf: (r) => r.username,
      toNode: (r) => new MemberNode(t.portalId, t.accountId, r, key),
      noun: 'members',
      emptyText: isFiltered(q) ? 'No member matches the filter.' : 'This organisation has no members you can see.',
    });
    this.describe();
    return nodes;
  }

  resolveTreeItem(item: vscode.TreeItem, element: PortalTreeNode): vscode.TreeItem {
    if (element instanceof MemberNode) item.tooltip = element.tooltip();
    return item;
  }

  /** The member rows loaded so far (for the palette's quick picks). */
  loadedRows(): MemberRow[] {
    const key = this.listKey();
    return key ? (this.shownList<MemberRow>(key)?.items ?? []) : [];
  }

  private describe(): void {
    const t = this.current;
    if (!t) {
      this.descriptionEmitter.fire(undefined);
      return;
    }
    const key = this.listKey();
    const list = key ? this.shownList<MemberRow>(key) : undefined;
    const parts = [t.accountLabel];
    if (list?.loaded) parts.push(countLabel(list.count, list.total));
    const filter = describeQuery(this.q);
    if (filter) parts.push(filter);
    this.descriptionEmitter.fire(parts.join(' · '));
  }

  /** A member changed by a command: every loaded list of that account shows the new state in place. */
  memberChanged(portalId: string, accountId: number, row: MemberRow): void {
    for (const list of this.cache.listsUnder<MemberRow>(memberListsKey({ portalId, accountId }))) list.update(row);
    this.changed.fire(undefined);
  }

  memberRemoved(portalId: string, accountId: number, username: string): void {
    for (const list of this.cache.listsUnder<MemberRow>(memberListsKey({ portalId, accountId }))) list.remove(username);
    this.changed.fire(undefined);
    this.describe();
  }

  /** For tests and the heap probe: the list behind the view. */
  currentList(): PagedList<MemberRow> | undefined {
    const key = this.listKey();
    return key ? this.cache.peek<MemberRow>(key) : undefined;
  }

  override dispose(): void {
    this.subscription.dispose();
    this.descriptionEmitter.dispose();
    super.dispose();
  }
}
