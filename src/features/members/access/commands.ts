/**
 * "Open Access Matrix" (an organisation's members × groups) and "Show Members of Group" (the same data, filtered to
 * one group, from the group's row in the Explorer). One panel per organisation; opening it reads what is missing or
 * stale in the background, after asking when that would take longer than a minute.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { errorMessage, isCancellation } from '../../../shared/errors';
import { count } from '../../../shared/format';
import { memberOf, type AccountRef, type MemberRef } from '../../../shared/refs';
import { accountFor, groupFor, memberFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../../ui/commands';
import { answered, type Ui } from '../../../ui/ui';
import { allChanges, type Plan } from '../plan/core/model';
import { planSameAccess } from './sameAccess/plan';
import { pickAccessSource, storedGroups } from './sameAccess/pick';
import { MatrixPanel, type MatrixPanelEnv } from './matrixPanel';
import type { AccessMatrix } from './store/accessMatrix';
import { accountOfRestore, parseRestore, viewIn } from './matrixRestore';
import type { MatrixSessions } from './store/matrixSessions';
import type { MatrixView } from './matrix.protocol';
import { cancellableProgress } from '../../../ui/cancellableProgress';

export class MatrixPanels implements vscode.Disposable {
  private readonly open = new Map<string, MatrixPanel>();
  private readonly expected = new Map<string, Set<string>>();

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
      panel = this.adopt(account, view);
    }
    this.startRead(panel, this.env.ui);
    return panel;
  }

  /**
   * A panel VS Code brought back after a reload: it shows the organisation's stored reads with the filter it had,
   * and reads nothing (a reload is no reason to spend the request budget; Refresh reads what is stale). A panel
   * without a state it can be shown from is closed: an empty tab would look like an organisation without members.
   */
  revive(restored: vscode.WebviewPanel, state: unknown): MatrixPanel | undefined {
    const restore = parseRestore(state);
    if (!restore) {
      this.env.log.warn('[access] a matrix panel came back without a state it can be shown from; it is closed');
      restored.dispose();
      return undefined;
    }
    const account = accountOfRestore(restore);
    return this.adopt(account, viewIn(restore, this.sessions.get(account).matrix), restored);
  }

  private adopt(account: AccountRef, view: MatrixView, restored?: vscode.WebviewPanel): MatrixPanel {
    const key = `${account.portalId}\n${account.accountId}`;
    this.open.get(key)?.dispose();
    const created = new MatrixPanel(this.env, this.sessions.get(account), view, restored);
    created.onDidClose(() => {
      if (this.open.get(key) === created) this.open.delete(key);
    });
    this.open.set(key, created);
    return created;
  }

  /** A plan will change these members' groups: their rows are read again, now and once the plan is applied. */
  expectChanges(account: AccountRef, usernames: readonly string[]): void {
    const key = `${account.portalId}\n${account.accountId}`;
    const set = this.expected.get(key) ?? new Set<string>();
    for (const u of usernames) set.add(u);
    this.expected.set(key, set);
    this.sessions.get(account).invalidate(usernames);
  }

  /** Members of the organisation changed (an apply ended): rows expected to change are read again if on show. */
  changed(account: AccountRef): void {
    const key = `${account.portalId}\n${account.accountId}`;
    const usernames = this.expected.get(key);
    this.expected.delete(key);
    if (usernames) this.sessions.get(account).invalidate([...usernames]);
    const panel = this.open.get(key);
    if (panel && !panel.isDisposed && usernames) this.startRead(panel, this.env.ui);
  }

  /** The organisation's access matrix as stored (what other commands may know without a request). */
  matrixOf(account: AccountRef): AccessMatrix {
    return this.sessions.get(account).matrix;
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

type SameAccessExtra = 'tags' | 'permission' | 'exact';

/**
 * "Give Same Access as…": the targets (the selected rows, or the row the command ran on) get the source's groups at
 * the source's levels, through a plan the Plan view shows before anything is sent (see sameAccess/plan.ts).
 */
async function giveSameAccess(
  run: Run,
  registry: PortalRegistry,
  panels: MatrixPanels,
  plans: PlanShower,
  shownAccount: () => AccountRef | undefined,
): Promise<void> {
  const first = await memberFor(run, registry, shownAccount());
  const account = first.account;
  const chosen = run.selection.flatMap((r) => {
    const m = memberOf(r);
    return m && m.account.portalId === account.portalId && m.account.accountId === account.accountId ? [m] : [];
  });
  const targets = chosen.length > 0 ? chosen : [first];
  const client = registry.client(account.portalId);
  const matrix = panels.matrixOf(account);
  const source = answered(await pickAccessSource(run.ui, client, account, matrix));
  const to = targets.filter((t) => t.username.toLowerCase() !== source.username.toLowerCase());
  if (to.length === 0) {
    run.ui.notify('info', vscode.l10n.t('{0} already has their own access.', source.name));
    return;
  }
  // Targets known to be in no group yet (a starter) get the same groups exactly, unless the user says otherwise.
  const noGroupsYet = to.every((t) => storedGroups(matrix, t.username)?.length === 0);
  const extras = new Set(answered(await pickExtras(run.ui, to, source.name, noGroupsYet)));
  const plan = await cancellableProgress(
    run.ui,
    'access.same.read',
    vscode.l10n.t('Reading the access of {0}…', source.name),
    (_progress, signal) =>
      planSameAccess(
        client,
        account.accountId,
        source.username,
        to.map((t) => t.username),
        { tags: extras.has('tags'), permission: extras.has('permission'), exact: extras.has('exact') },
        signal,
      ),
  );
  if (allChanges(plan).length === 0) {
    run.ui.notify('info', vscode.l10n.t('They already have the same access as {0}: nothing to change.', source.name));
    return;
  }
  panels.expectChanges(
    account,
    to.map((t) => t.username),
  );
  await plans.show(plan, account);
}

function pickExtras(
  ui: Ui,
  to: readonly MemberRef[],
  sourceName: string,
  exactByDefault: boolean,
): Promise<SameAccessExtra[] | undefined> {
  const whom = to.length === 1 ? (to[0]?.name ?? '') : vscode.l10n.t('{0} members', count(to.length));
  return ui.pickMany<SameAccessExtra>(
    [
      { label: vscode.l10n.t('Also the tags'), value: 'tags' },
      { label: vscode.l10n.t('Also the organisation permission'), value: 'permission' },
      {
        label: vscode.l10n.t('Exactly the same groups'),
        description: vscode.l10n.t('also leave groups {0} is not in', sourceName),
        value: 'exact',
        picked: exactByDefault,
      },
    ],
    {
      id: 'access.same.options',
      title: vscode.l10n.t('Give {0} the groups of {1}', whom, sourceName),
      placeHolder: vscode.l10n.t('What else? (none: the groups only)'),
    },
  );
}

/** Shows a plan in the Plan view (the plan feature's store), where it is applied, journaled and undone. */
export interface PlanShower {
  show(plan: Plan, account: AccountRef): Promise<void>;
}

export function registerAccessCommands(
  env: CommandEnv,
  registry: PortalRegistry,
  panels: MatrixPanels,
  sessions: MatrixSessions,
  shownAccount: () => AccountRef | undefined,
  plans: PlanShower,
): vscode.Disposable[] {
  /** The row's organisation, else the Members view's, else one the user picks. */
  const account = async (run: Run): Promise<AccountRef> =>
    run.target || !shownAccount() ? accountFor(run, registry) : (shownAccount() as AccountRef);
  return [
    registerCommand(env, 'portal.access.openMatrix', async (run) => panels.show(await account(run), {})),
    registerCommand(env, 'portal.member.giveSameAccess', (run) =>
      giveSameAccess(run, registry, panels, plans, shownAccount),
    ),
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
