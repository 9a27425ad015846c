/** The Applications view: each signed-in portal → the signed-in user's applications (GET /v3/applications). */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { Ui } from '../../ui/ui';
import { applicationsFetcher, type ApplicationRow } from './loaders';
import { ApplicationNode } from './applicationNode';
import type { PortalTreeNode } from '../../views/node';
import { PagedTreeProvider } from '../../views/pagedProvider';
import { PortalNode } from '../../views/portalNode';
import { portalKey } from '../../shared/keys';

export const APPLICATIONS_VIEW = 'portal.applications';

export class ApplicationsProvider extends PagedTreeProvider {
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly registry: PortalRegistry,
    ui: () => Ui,
  ) {
    super(APPLICATIONS_VIEW, { loadMore: 'portal.applications.loadMore', retry: 'portal.applications.retry' }, ui);
    this.subscription = registry.onDidChange((c) => {
      // A new session (or none) means another user or application: its list is not ours any more.
      if (c) this.cache.drop(portalKey('applications', c.entry.id));
      else this.cache.clear();
      this.changed.fire(undefined);
    });
  }

  protected async childrenOf(element?: PortalTreeNode): Promise<PortalTreeNode[]> {
    if (!element)
      return this.registry
        .list()
        .filter((c) => c.client)
        .map((c) => new PortalNode(c, 'applications'));
    if (!(element instanceof PortalNode)) return [];
    return this.listChildren<ApplicationRow>({
      portalId: element.portalId,
      parent: element,
      key: element.key,
      fetcher: () => applicationsFetcher(this.registry.client(element.portalId)),
      keyOf: (r) => r.clientId,
      // Compared at render time, so a rotated or replaced session marks the right row.
      toNode: (r) => new ApplicationNode(element, r, this.registry.get(element.portalId)?.clientId === r.clientId),
      noun: vscode.l10n.t('applications'),
      emptyText: vscode.l10n.t('No applications. Signing in registers one for this machine.'),
    });
  }

  override dispose(): void {
    this.subscription.dispose();
    super.dispose();
  }
}
