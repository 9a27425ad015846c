/**
 * The rows a paged list adds around its data: "Load more…", folded ranges, the error that replaced a page, and the
 * message that says why a list is empty. contextValues: loadMore, range, error, error.signedOut, empty.
 */
import * as vscode from 'vscode';
import { isPortalError, NOT_SIGNED_IN } from '../api';
import { errorMessage } from '../shared/errors';
import { count, countLabel } from '../shared/format';
import { errorKey, moreKey, rangeKey, type TreeKey } from '../shared/keys';
import type { PortalRef } from '../shared/refs';
import { treeItem } from './item';
import { PortalTreeNode } from './node';
import type { PagedList } from './paging';

/** "Load more…": appends the next page of its parent's list. */
export class LoadMoreNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly ref = undefined;
  constructor(
    readonly portalId: string,
    readonly parent: PortalTreeNode | undefined,
    readonly listKey: TreeKey,
    readonly list: PagedList<unknown>,
    private readonly noun: string,
    private readonly command: string,
  ) {
    super();
    this.key = moreKey(listKey);
  }

  treeItem() {
    return treeItem({
      key: this.key,
      label: vscode.l10n.t('Load more {0}…', this.noun),
      collapsible: 'none',
      contextValue: 'loadMore',
      description: countLabel(this.list.count, this.list.total),
      icon: this.list.loading ? 'loading~spin' : 'ellipsis',
      tooltip: vscode.l10n.t('Loads the next {0} {1} from the portal.', this.list.pageSize, this.noun),
      command: { command: this.command, title: vscode.l10n.t('Load More'), arguments: [this] },
    });
  }
}

/**
 * Earlier rows of a long list, folded into a range ("1–1,000", then "1–100"…, then the rows). VS Code redraws every
 * child of a node on each "Load more…"; folding keeps that redraw small however far a list is paged.
 */
export class RangeNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly ref = undefined;
  constructor(
    readonly portalId: string,
    readonly parent: PortalTreeNode | undefined,
    readonly listKey: TreeKey,
    /** The list whose rows it groups. */
    readonly list: PagedList<unknown>,
    /** 0-based index of the first row. */
    readonly start: number,
    readonly size: number,
    readonly noun: string,
  ) {
    super();
    this.key = rangeKey(listKey, start, size);
  }

  treeItem() {
    const first = count(this.start + 1);
    const last = count(this.start + this.size);
    return treeItem({
      key: this.key,
      label: `${first}–${last}`,
      collapsible: 'collapsed',
      contextValue: 'range',
      description: this.noun,
      icon: 'list-unordered',
      tooltip: vscode.l10n.t(
        '{0} {1} to {2}, already loaded. The earlier rows of a long list are grouped so the view stays fast.',
        this.noun,
        first,
        last,
      ),
    });
  }
}

/**
 * A failed load, in place of the children it could not get (mode 'first') or of the "Load more…" row whose page
 * failed (mode 'more', the rows loaded before stay). Clicking it asks again, or signs in.
 */
export class ErrorNode extends PortalTreeNode {
  readonly key: TreeKey;
  /** The portal to sign in to, when the load failed for want of a session. */
  readonly ref: PortalRef;
  constructor(
    readonly portalId: string,
    readonly parent: PortalTreeNode | undefined,
    readonly listKey: TreeKey,
    readonly error: unknown,
    private readonly retryCommand: string,
    readonly mode: 'first' | 'more',
  ) {
    super();
    this.key = errorKey(listKey);
    this.ref = { kind: 'portal', portalId, label: portalId };
  }

  get signedOut(): boolean {
    return isPortalError(this.error, 'signed-out');
  }

  treeItem() {
    const message = errorMessage(this.error);
    if (this.signedOut) {
      const never = (this.error as { code?: unknown }).code === NOT_SIGNED_IN;
      return treeItem({
        key: this.key,
        label: never ? vscode.l10n.t('Sign in…') : vscode.l10n.t('Sign in again…'),
        collapsible: 'none',
        contextValue: 'error.signedOut',
        description: message,
        tooltip: message,
        icon: 'sign-in',
        command: { command: 'portal.signIn', title: vscode.l10n.t('Sign In'), arguments: [this] },
      });
    }
    return treeItem({
      key: this.key,
      label: this.mode === 'more' ? vscode.l10n.t('Could not load more: {0}', message) : message,
      collapsible: 'none',
      contextValue: 'error',
      description: vscode.l10n.t('click to retry'),
      tooltip: vscode.l10n.t('{0}\nClick to try again.', message),
      icon: 'error',
      iconColor: 'errorForeground',
      command: { command: this.retryCommand, title: vscode.l10n.t('Retry'), arguments: [this] },
    });
  }
}

/** A row that says why a list is empty, so a view is never blank without a reason. */
export class MessageNode extends PortalTreeNode {
  readonly ref = undefined;
  constructor(
    readonly portalId: string,
    readonly parent: PortalTreeNode | undefined,
    readonly key: TreeKey,
    private readonly text: string,
    private readonly icon = 'info',
  ) {
    super();
  }

  treeItem() {
    return treeItem({ key: this.key, label: this.text, collapsible: 'none', contextValue: 'empty', icon: this.icon });
  }
}
