/**
 * The Members view: the members of one account (the Explorer's selection, or one chosen with a quick pick).
 * Search, tag filter and order are query parameters: the portal filters, so a filter sees rows not loaded yet.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { GroupsReader } from '../../../shared/activityScan';
import { count, countLabel } from '../../../shared/format';
import { memberListKey, memberListsKey, type TreeKey } from '../../../shared/keys';
import {
  describeQuery,
  hasActivityFilter,
  isFiltered,
  type MemberQuery,
  type MemberRow,
} from '../../../shared/members';
import type { AccountRef } from '../../../shared/refs';
import type { Ui } from '../../../ui/ui';
import type { PortalTreeNode } from '../../../views/node';
import { PagedTreeProvider } from '../../../views/pagedProvider';
import type { PagedList } from '../../../views/paging';
import { lastSignIn } from '../access/outsiders/outsiders.protocol';
import { emptyKey } from '../../../shared/keys';
import { MessageNode } from '../../../views/rows';
import {
  InvitedNode,
  invitedNote,
  invitedShown,
  neverSignedInReader,
  OutsidersNoteNode,
  showsInvited,
  type OutsidersHeld,
  type OutsidersSource,
} from './invited';
import { membersFetcher } from './loaders';
import { MemberDetails } from './memberDetails';
import { MemberNode } from './memberNode';
import { keepMembersView, loadMembersView, type KeptMembersView } from './membersState';

export const MEMBERS_VIEW = 'portal.members';

/** The view's account, query and counts: what its description, a CSV export and the tests read. */
export interface MembersSnapshot {
  readonly account: AccountRef | undefined;
  readonly query: MemberQuery;
  /** Rows shown, and the total when the portal reported one. */
  readonly shown: number;
  readonly total: number | undefined;
  /** Goes up each time a fresh first page replaces the rows (after a refresh or a reload). */
  readonly generation: number;
}

/** The audit's last sign-in of a member; undefined where the audit read does not tell (not read, or only in part). */
function signInOf(record: OutsidersHeld['signIns'], username: string): number | undefined {
  const last = lastSignIn(record, username);
  return last === -1 && record?.kind === 'read' && !record.complete ? undefined : last;
}

const sameAccount = (a: AccountRef | undefined, b: AccountRef | undefined): boolean =>
  a?.portalId === b?.portalId && a?.accountId === b?.accountId;

export class MembersProvider extends PagedTreeProvider {
  private current: AccountRef | undefined;
  private q: MemberQuery = {};
  private generation = 0;
  /** Per list: the members an activity filter is checked among, as the portal counted them. */
  private readonly scanned = new Map<TreeKey, number>();
  /** Where the view's organisation and query are kept for the next session (none: not kept). */
  private memento: vscode.Memento | undefined;
  /** What the last session showed, until its portal is signed in. */
  private waiting: KeptMembersView | undefined;
  private lastLoaded: PagedList<MemberRow> | undefined;
  private readonly descriptionEmitter = new vscode.EventEmitter<string | undefined>();
  /** The view's description ("Acme · 50 of 20,000 · matches "ann""); the view's owner shows it. */
  readonly onDidChangeDescription = this.descriptionEmitter.event;
  private readonly subscription: vscode.Disposable;
  /** v2's member detail for tooltips, read on hover. */
  private readonly details = new MemberDetails();
  private readonly membersEmitter = new vscode.EventEmitter<Pick<AccountRef, 'portalId' | 'accountId'>>();
  /** A write changed members of an organisation: other views that count them read again. */
  readonly onDidChangeMembers = this.membersEmitter.event;

  /**
   * `groupsOf`: where a filter scoped to a group learns the members' groups (the access store). `outsiders`: the
   * access store's pending invitations and sign-ins (the *Invited* rows, the sign-in filter and column).
   */
  constructor(
    private readonly registry: PortalRegistry,
    ui: () => Ui,
    private readonly groupsOf?: (account: AccountRef) => GroupsReader,
    private readonly outsiders?: OutsidersSource,
  ) {
    super(MEMBERS_VIEW, { loadMore: 'portal.members.loadMore', retry: 'portal.members.retry' }, ui);
    // Signed out of the portal whose members we show: start over with its next session.
    this.subscription = registry.onDidChange((c) => {
      this.resume();
      if (this.current && (!c || c.entry.id === this.current.portalId)) {
        if (!registry.get(this.current.portalId)) this.current = undefined;
        this.refresh();
      }
    });
  }

  get account(): AccountRef | undefined {
    return this.current;
  }

  get query(): MemberQuery {
    return this.q;
  }

  /** Where a filter scoped to a group learns members' groups in this organisation (a CSV export walks the same way). */
  groupsReader(account: AccountRef): GroupsReader | undefined {
    return this.groupsOf?.(account);
  }

  /** Who never signed in, as the view's sign-in filter tells it (a CSV export filters the same way). */
  neverSignedInReader(account: AccountRef) {
    return this.outsiders ? neverSignedInReader(this.outsiders, account) : undefined;
  }

  /** Shows this account's members; another account starts without search, filter or order. */
  show(account: AccountRef | undefined): void {
    this.waiting = undefined;
    if (sameAccount(account, this.current)) return;
    this.current = account;
    this.q = {};
    this.changed.fire(undefined);
    this.describe();
    this.keep();
  }

  setQuery(query: MemberQuery): void {
    this.q = query;
    this.changed.fire(undefined);
    this.describe();
    this.keep();
  }

  /**
   * Keeps the organisation and query in `memento` from now on, and shows the ones kept by the last session: at once
   * when its portal is signed in, else as soon as it is (sign-in is restored after activation).
   */
  keepIn(memento: vscode.Memento): void {
    this.memento = memento;
    const kept = loadMembersView(memento);
    if (!kept || this.current) return;
    this.waiting = kept;
    this.resume();
  }

  private resume(): void {
    const kept = this.waiting;
    if (!kept || this.current || !this.registry.get(kept.account.portalId)) return;
    this.waiting = undefined;
    this.current = kept.account;
    this.q = kept.query;
    this.changed.fire(undefined);
    this.describe();
  }

  private keep(): void {
    if (!this.memento) return;
    void keepMembersView(this.memento, this.current ? { account: this.current, query: this.q } : undefined);
  }

  snapshot(): MembersSnapshot {
    const key = this.listKey();
    this.noteLoaded(key);
    const list = key ? this.shownList<MemberRow>(key) : undefined;
    return {
      account: this.current,
      query: this.q,
      shown: list?.count ?? 0,
      total: list?.total,
      generation: this.generation,
    };
  }

  /** Every member list of the view's account is asked again; the rows stay until the new ones arrive. */
  reloadAccount(account: Pick<AccountRef, 'portalId' | 'accountId'>): void {
    this.details.clear();
    this.reload(memberListsKey(account));
    this.membersEmitter.fire(account);
  }

  /** Members changed by a command: every loaded list of that account shows their new state in place, in one redraw. */
  memberChanged(account: Pick<AccountRef, 'portalId' | 'accountId'>, ...rows: MemberRow[]): void {
    const lists = this.cache.listsUnder<MemberRow>(memberListsKey(account));
    for (const row of rows) {
      this.details.forget(account, row.username);
      // A group scope's permission is dropped with the old row: the change may have been to that group.
      for (const list of lists) list.update(row);
    }
    this.changed.fire(undefined);
    this.membersEmitter.fire(account);
  }

  memberRemoved(account: Pick<AccountRef, 'portalId' | 'accountId'>, ...usernames: string[]): void {
    const lists = this.cache.listsUnder<MemberRow>(memberListsKey(account));
    for (const username of usernames) for (const list of lists) list.remove(username);
    this.changed.fire(undefined);
    this.describe();
    this.membersEmitter.fire(account);
  }

  /** The row a loaded list of the account holds for this member (what a bulk change plans from). */
  rowOf(account: Pick<AccountRef, 'portalId' | 'accountId'>, username: string): MemberRow | undefined {
    for (const list of this.cache.listsUnder<MemberRow>(memberListsKey(account))) {
      const row = list.find(username);
      if (row) return row;
    }
    return undefined;
  }

  protected async childrenOf(element?: PortalTreeNode): Promise<PortalTreeNode[]> {
    const account = this.current;
    const key = this.listKey();
    if (element || !account || !key) return [];
    const q = this.q;
    const outsiders = showsInvited(q) ? await this.invitedNodes(account, key, q) : [];
    if (q.activity?.invited) {
      this.describe();
      return outsiders.length > 0
        ? outsiders
        : [new MessageNode(account.portalId, undefined, emptyKey(key), vscode.l10n.t('No invitation is pending.'))];
    }
    const signIns = this.outsiders?.held(account).signIns;
    const nodes = await this.listChildren<MemberRow>({
      portalId: account.portalId,
      parent: undefined,
      key,
      fetcher: () =>
        membersFetcher(this.registry.client(account.portalId), account.accountId, q, Date.now, {
          onScanned: (n) => this.scanned.set(key, n),
          groups: this.groupsOf?.(account),
          neverSignedIn: this.neverSignedInReader(account),
        }),
      keyOf: (r) => r.username,
      toNode: (r) => new MemberNode(account, r, key, q.activity, signInOf(signIns, r.username)),
      noun: vscode.l10n.t('members'),
      emptyText: isFiltered(q)
        ? vscode.l10n.t('No member matches the filter.')
        : vscode.l10n.t('This organisation has no members you can see.'),
    });
    this.noteLoaded(key);
    this.describe();
    return [...outsiders, ...nodes];
  }

  /**
   * The pending invitations the query shows, from the access store (read within the budget when not fresh), and
   * above them the one line that says what the portal refused; the members show whatever the answer.
   */
  private async invitedNodes(account: AccountRef, key: TreeKey, q: MemberQuery): Promise<PortalTreeNode[]> {
    const source = this.outsiders;
    if (!source) return [];
    let held: OutsidersHeld;
    try {
      held = await source.read(account, undefined);
    } catch {
      held = source.held(account);
    }
    const note = invitedNote(held, q);
    return [
      ...(note ? [new OutsidersNoteNode(account.portalId, key, note)] : []),
      ...invitedShown(held, q, Date.now()).map((r) => new InvitedNode(account.portalId, key, r)),
    ];
  }

  /** On hover: what the row knows, and what v2's detail adds (one request per member, kept). */
  async resolveTreeItem(item: vscode.TreeItem, element: PortalTreeNode): Promise<vscode.TreeItem> {
    if (!(element instanceof MemberNode)) return item;
    const { account, username } = element.ref;
    const client = this.registry.get(account.portalId)?.client;
    const detail = client ? await this.details.get(client, account, username) : undefined;
    item.tooltip = element.tooltip(detail);
    return item;
  }

  override refresh(node?: PortalTreeNode): void {
    this.details.clear();
    super.refresh(node);
  }

  override dispose(): void {
    this.subscription.dispose();
    this.descriptionEmitter.dispose();
    this.membersEmitter.dispose();
    super.dispose();
  }

  /** The cache key of the list the view shows now. */
  private listKey(): TreeKey | undefined {
    return this.current ? memberListKey(this.current, this.q) : undefined;
  }

  /** Counts a first page that replaced the rows: a new list object, loaded. */
  private noteLoaded(key: TreeKey | undefined): void {
    const list = key ? this.cache.peek<MemberRow>(key) : undefined;
    if (!list?.loaded || list === this.lastLoaded) return;
    this.lastLoaded = list;
    this.generation++;
  }

  /** "50 of 20,000"; with an activity filter, "29 of 36 match" once every member was checked. */
  private countWords(list: PagedList<MemberRow>, key: TreeKey | undefined): string {
    const scanned = key ? this.scanned.get(key) : undefined;
    if (!hasActivityFilter(this.q.activity) || scanned === undefined) return countLabel(list.count, list.total);
    return list.hasMore
      ? vscode.l10n.t('{0} match so far, of {1}', count(list.count), count(scanned))
      : vscode.l10n.t('{0} of {1} match', count(list.count), count(scanned));
  }

  private describe(): void {
    const account = this.current;
    if (!account) {
      this.descriptionEmitter.fire(undefined);
      return;
    }
    const key = this.listKey();
    const list = key ? this.shownList<MemberRow>(key) : undefined;
    const parts = [account.label];
    if (list?.loaded) parts.push(this.countWords(list, key));
    const filter = describeQuery(this.q);
    if (filter) parts.push(filter);
    this.descriptionEmitter.fire(parts.join(' · '));
  }
}
