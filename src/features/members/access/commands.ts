/**
 * "Open Access Matrix" (an organisation's members × groups) and "Show Members of Group" (the same data, filtered to
 * one group, from the group's row in the Explorer). One panel per organisation; opening it reads what is missing or
 * stale in the background, after asking when that would take longer than a minute.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { errorMessage, isCancellation } from '../../../shared/errors';
import type { AccountRef } from '../../../shared/refs';
import { accountFor, groupFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../../ui/commands';
import type { Ui } from '../../../ui/ui';
import { MatrixPanel, type MatrixPanelEnv } from './matrixPanel';
import type { MatrixSessions } from './matrixSessions';
import type { MatrixView } from './matrix.protocol';

export class MatrixPanels implements vscode.Disposable {
  private readonly open = new Map<string, MatrixPanel>();

  constructor(
    private readonly env: MatrixPanelEnv,
    private readonly sessions: MatrixSessions,
  ) {}

  /** The organisation's panel, showing `view`; opened if needed. Starts a read of what is missing or stale. */
  show(account: AccountRef, view: MatrixView): MatrixPanel {
    const key = `${account.portalId}\n${account.accountId}`;
    let panel = this.open.get(key);
    if (panel && !panel.isDisposed && panel.session === this.sessions.get(account)) {
      panel.show(view);
    } else {
      panel?.dispose();
      const created = new MatrixPanel(this.env, this.sessions.get(account), view);
      created.onDidClose(() => {
        if (this.open.get(key) === created) this.open.delete(key);
      });
      this.open.set(key, created);
      panel = created;
    }
    this.startRead(panel, this.env.ui);
    return panel;
  }

  get(account: AccountRef): MatrixPanel | undefined {
    return this.open.get(`${account.portalId}\n${account.accountId}`);
  }

  private startRead(panel: MatrixPanel, ui: () => Ui): void {
    panel.session.read(ui).catch((error: unknown) => {
      if (!isCancellation(error)) ui().notify('error', errorMessage(error));
    });
  }

  dispose(): void {
    for (const p of this.open.values()) p.dispose();
    this.open.clear();
  }
}

export function registerAccessCommands(
  env: CommandEnv,
  registry: PortalRegistry,
  panels: MatrixPanels,
  sessions: MatrixSessions,
  shownAccount: () => AccountRef | undefined,
): vscode.Disposable[] {
  /** The row's organisation, else the Members view's, else one the user picks. */
  const account = async (run: Run): Promise<AccountRef> =>
    run.target || !shownAccount() ? accountFor(run, registry) : (shownAccount() as AccountRef);
  return [
    registerCommand(env, 'portal.access.openMatrix', async (run) => panels.show(await account(run), {})),
    registerCommand(env, 'portal.group.showMembers', async (run) => {
      const group = await groupFor(run, registry);
      const client = registry.client(group.account.portalId);
      // The member reads name groups by name; the row knows the id and the friendly name.
      const { name } = await client.v2.groups.get(group.account.accountId, group.groupId);
      const column = sessions.get(group.account).matrix.ensureColumn(name);
      return panels.show(group.account, { group: column, sort: 'level', descending: true });
    }),
  ];
}
