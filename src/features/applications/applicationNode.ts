/** An application row: contextValue `application`, or `application.current` for the one this window signs in with. */
import * as vscode from 'vscode';
import { relativeTime } from '../../shared/format';
import { applicationKey, type TreeKey } from '../../shared/keys';
import type { ApplicationRef } from '../../shared/refs';
import { treeItem } from '../../views/item';
import { PortalTreeNode } from '../../views/node';
import type { PortalNode } from '../../views/portalNode';
import type { ApplicationRow } from './loaders';
import { deviceTypeWord, platformWord } from '../../shared/applicationWords';

export class ApplicationNode extends PortalTreeNode {
  readonly key: TreeKey;
  readonly portalId: string;
  readonly ref: ApplicationRef;
  constructor(
    readonly parent: PortalNode,
    readonly row: ApplicationRow,
    readonly current: boolean,
  ) {
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
      description: [
        r.platform ? platformWord(r.platform) : vscode.l10n.t('unknown platform'),
        r.lastActivity ? vscode.l10n.t('active {0}', relativeTime(r.lastActivity)) : vscode.l10n.t('never active'),
        this.current ? vscode.l10n.t('this VS Code') : '',
      ]
        .filter(Boolean)
        .join(' · '),
      icon: this.current ? 'vm-active' : 'key',
      tooltip: [
        r.name,
        r.description,
        vscode.l10n.t('Client id: {0}', r.clientId),
        vscode.l10n.t(
          'Platform: {0} ({1})',
          r.platform ? platformWord(r.platform) : vscode.l10n.t('unknown'),
          r.deviceType ? deviceTypeWord(r.deviceType) : vscode.l10n.t('unknown device'),
        ),
        vscode.l10n.t('Last activity: {0}', relativeTime(r.lastActivity)),
        this.current ? vscode.l10n.t('This VS Code window signs in with this application.') : '',
      ]
        .filter(Boolean)
        .join('\n'),
      command: {
        command: 'portal.application.details',
        title: vscode.l10n.t('Show Application Details'),
        arguments: [this],
      },
    });
  }
}
