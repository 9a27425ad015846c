import * as vscode from 'vscode';
import type { PortalConnection } from '../auth/portalRegistry';
import { portalKey, type TreeKey, type ViewName } from '../shared/keys';
import type { PortalRef } from '../shared/refs';
import { treeItem } from './item';
import { PortalTreeNode } from './node';

/** A portal at the root of the Explorer and the Applications view: signed in or not. */
export class PortalNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly parent = undefined;
  readonly portalId: string;
  readonly ref: PortalRef;

  constructor(
    readonly connection: PortalConnection,
    readonly view: ViewName,
  ) {
    super();
    this.portalId = connection.entry.id;
    this.key = portalKey(view, this.portalId);
    this.ref = { kind: 'portal', portalId: this.portalId, label: connection.entry.label };
  }

  get signedIn(): boolean {
    return this.connection.client !== undefined;
  }

  treeItem() {
    const c = this.connection;
    return treeItem({
      key: this.key,
      label: c.entry.label,
      collapsible: 'collapsed',
      contextValue: this.signedIn ? 'portal.signedIn' : 'portal.signedOut',
      description: this.signedIn ? (c.username ?? '') : vscode.l10n.t('signed out'),
      icon: this.signedIn ? 'globe' : 'debug-disconnect',
      tooltip: [
        c.entry.label,
        c.entry.baseUrl,
        this.signedIn
          ? vscode.l10n.t('Signed in as {0}', c.username ?? '')
          : c.signedOutReason
            ? vscode.l10n.t('Signed out: {0}', c.signedOutReason)
            : vscode.l10n.t('Signed out'),
      ].join('\n'),
    });
  }
}
