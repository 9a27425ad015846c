/** An application row: contextValue `application`, or `application.current` for the one this window signs in with. */
import { relativeTime } from '../../shared/format';
import { applicationKey, type TreeKey } from '../../shared/keys';
import type { ApplicationRef } from '../../shared/refs';
import { treeItem } from '../../views/item';
import { PortalTreeNode } from '../../views/node';
import type { PortalNode } from '../../views/portalNode';
import type { ApplicationRow } from './loaders';

export class ApplicationNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly portalId: string;
  readonly ref: ApplicationRef;
  constructor(readonly parent: PortalNode, readonly row: ApplicationRow, readonly current: boolean) {
    super();
    this.portalId = parent.portalId;
    this.ref = { kind: 'application', portalId: this.portalId, clientId: row.clientId, label: row.name, current };
    this.key = applicationKey(this.portalId, row.clientId);
  }

  treeItem() {
    const r = this.row;
    return treeItem({
      key: this.key,
      label: r.name,
      collapsible: 'none',
      contextValue: this.current ? 'application.current' : 'application',
      description: `${r.platform || 'unknown platform'} · ${r.lastActivity ? `active ${relativeTime(r.lastActivity)}` : 'never active'}${this.current ? ' · this VS Code' : ''}`,
      icon: this.current ? 'vm-active' : 'key',
      tooltip: [
        r.name,
        r.description,
        `Client id: ${r.clientId}`,
        `Platform: ${r.platform || 'unknown'} (${r.deviceType || 'unknown device'})`,
        `Last activity: ${relativeTime(r.lastActivity)}`,
        this.current ? 'This VS Code window signs in with this application.' : '',
      ].filter(Boolean).join('\n'),
      command: { command: 'portal.application.details', title: 'Show Application Details', arguments: [this] },
    });
  }
}
