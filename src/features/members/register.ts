/**
 * The Members feature: the view of one organisation's members, its commands, and the member and assignments
 * forms. It shows the organisation the Explorer selects (extension.ts wires that) or one the user chooses.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { FormHost } from '../../forms/formHost';
import { formKeys } from '../../shared/keys';
import { plain } from '../../shared/plainText';
import type { AccountRef } from '../../shared/refs';
import type { GroupsReader } from '../../shared/activityScan';
import { accountFor, memberFor } from '../../targets/resolve';
import { registerCommand, type CommandEnv } from '../../ui/commands';
import type { PortalTreeNode } from '../../views/node';
import { StickyContext } from '../../views/stickyContext';
import { registerViewCommands } from '../../views/viewCommands';
import { appliedRun } from './plan/appliedRun';
import { reportCounts } from './plan/core/report';
import type { AccessHandle, FeatureDeps, MemberPlans, MembersHandle, PlanProposals } from '../contracts';
import { accessHandle } from './access/accessHandle';
import { planProposals } from './plan/proposals';
import { MatrixPanels, registerAccessCommands, type PlanShower } from './access/commands';
import type { PlanStore } from './plan/planStore';
import { MatrixSessions } from './access/store/matrixSessions';
import { registerMatrixSerializer } from './access/matrixSerializer';
import { AssignmentsForm } from './forms/assignments/assignmentsForm';
import { registerMemberCommands } from './edit/memberCommands';
import { MemberForm } from './forms/memberForm';
import { MEMBERS_VIEW, MembersProvider, type MembersSnapshot } from './view/membersProvider';
import { registerPermissionCommand } from './edit/permission';
import { PLAN_VIEW } from './plan/planView';
import type { UndoChange } from '../../ui/undoOffer';
import type { Plan } from './plan/core/model';
import { registerPlan, type PlanFeature } from './plan/register';
import { registerImport } from './import/register';
import { registerLocalData, tidyLocalData } from './localData/register';
import type { OutsidersSource } from './view/invited';
import { registerMembersViewCommands } from './view/viewCommands';
import { registerOffboard } from './offboard/register';
import { registerInvite } from './invite/register';

export interface MembersFeature extends MembersHandle {
  readonly provider: MembersProvider;
  readonly view: vscode.TreeView<PortalTreeNode>;
  /** Members files, plans, apply, journal and undo. */
  readonly plan: PlanFeature;
  /** The view's account, query and counts: its description, CSV export, and tests. */
  snapshot(): MembersSnapshot;
  /** The access matrices: what was read per organisation, and their panels. */
  readonly access: { readonly sessions: MatrixSessions; readonly panels: MatrixPanels };
  /** The access store and plans from desired rows, for answers and proposals in other features. */
  readonly store: AccessHandle;
  readonly proposals: PlanProposals;
  /** The Plan view, for plans of member changes other features build (an access review's removals). */
  readonly plans: MemberPlans;
}

/** Edit Assignments, Edit Member and New Member; a save reloads the organisation's member lists. */
function registerMemberForms(
  env: CommandEnv,
  forms: FormHost,
  registry: PortalRegistry,
  provider: MembersProvider,
  /** The walkthrough's last step: done once an Edit Assignments form has opened. */
  assignmentsOpened: StickyContext,
  /** Where saves are journaled, and their Undo. */
  writes: { readonly storage: string; readonly undo: UndoChange },
): vscode.Disposable[] {
  let created = 0;
  const context = (a: AccountRef) => ({
    registry,
    portalId: a.portalId,
    accountId: a.accountId,
    afterSave: () => provider.reloadAccount(a),
    ...writes,
  });
  return [
    registerCommand(env, 'portal.editMemberAssignments', async (run) => {
      const m = await memberFor(run, registry, provider.account);
      assignmentsOpened.mark();
      return forms.show(
        formKeys.assignments(m),
        (e, key) =>
          new AssignmentsForm(
            e,
            key,
            { ...context(m.account), username: m.username },
            vscode.l10n.t('Assignments: {0}', m.name),
          ),
      );
    }),
    registerCommand(env, 'portal.editMember', async (run) => {
      const m = await memberFor(run, registry, provider.account);
      return forms.show(
        formKeys.member(m),
        (e, key) =>
          new MemberForm(e, key, { ...context(m.account), username: m.username }, vscode.l10n.t('Member: {0}', m.name)),
      );
    }),
    registerCommand(env, 'portal.createMember', async (run) => {
      const a = await accountFor(run, registry);
      // Every "New Member" opens its own panel, which turns into the new member's edit form once saved.
      return forms.show(
        formKeys.newMember(a, ++created),
        (e, key) => new MemberForm(e, key, context(a), vscode.l10n.t('New Member: {0}', a.label)),
      );
    }),
  ];
}

/** Shows a plan in the Plan view (where it is applied, journaled and undone), and says when one was applied. */
function memberPlans(
  store: PlanStore,
  panels: MatrixPanels,
  storage: string,
): MemberPlans & { showPlan: PlanShower['show'] } {
  const showPlan = async (p: Plan, account: AccountRef): Promise<void> => {
    store.show(p, account, undefined);
    await vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
  };
  return {
    showPlan,
    appliedRun: (account, title, since) => appliedRun(storage, account, title, since),
    show: async (p, account, usernames) => {
      panels.expectChanges(account, usernames);
      await showPlan(p, account);
    },
    onDidApply: (listener, thisArgs, disposables) =>
      store.onDidApply(
        (a) => {
          const n = reportCounts(a.rows);
          listener.call(thisArgs, {
            plan: a.plan,
            account: a.account,
            report: a.report.fsPath,
            done: n.done,
            failed: n.failed + n['not-started'],
          });
        },
        undefined,
        disposables,
      ),
  };
}

/** A filter scoped to a group learns members' groups from the access store, and fills it. */
const groupsFromStore =
  (sessions: MatrixSessions) =>
  (a: AccountRef): GroupsReader =>
  (rows, signal) =>
    sessions.get(a).memberGroups(rows, signal);

/** The Members view's invitations and sign-ins: the access store's, read when not fresh as the matrix reads them. */
const outsidersFromStore = (sessions: MatrixSessions): OutsidersSource => {
  const held = (a: AccountRef) => {
    const { outsiders, signIns } = sessions.get(a).matrix;
    return { outsiders, signIns };
  };
  return {
    held,
    read: async (a, signal) => {
      await sessions.get(a).readOutsiders(signal ?? new AbortController().signal);
      return held(a);
    },
  };
};

/**
 * Members changed by a write here, or found changed by an access matrix read (a member's groups as the portal holds
 * them now): either way, counts other views show may be out of date.
 */
function changedOrRead(provider: MembersProvider, sessions: MatrixSessions): MembersHandle['onDidChangeMembers'] {
  return (listener, thisArgs, disposables) => {
    const both = vscode.Disposable.from(
      provider.onDidChangeMembers(listener, thisArgs),
      sessions.onDidRead(listener, thisArgs),
    );
    disposables?.push(both);
    return both;
  };
}

export function registerMembers(context: vscode.ExtensionContext, deps: FeatureDeps): MembersFeature {
  const { registry } = deps.auth;
  const { commands, forms } = deps;
  const sessions = new MatrixSessions(context.globalStorageUri.fsPath, registry);
  const provider = new MembersProvider(registry, commands.ui, groupsFromStore(sessions), outsidersFromStore(sessions));
  provider.keepIn(context.workspaceState);
  // Several rows at once: the member commands then run as one bulk edit on all of them.
  const view = vscode.window.createTreeView(MEMBERS_VIEW, { treeDataProvider: provider, canSelectMany: true });
  const panels = new MatrixPanels({ extensionUri: context.extensionUri, log: commands.log, ui: commands.ui }, sessions);
  const plan = registerPlan(context, commands, registry, deps.settings, (a) => {
    provider.reloadAccount(a);
    panels.changed(a);
  });
  const storage = context.globalStorageUri.fsPath;
  const plans = memberPlans(plan.store, panels, storage);
  void tidyLocalData(storage, commands.log);
  const bulkDeps = { registry, provider, log: commands.log, storage, undo: plan.undo };
  context.subscriptions.push(
    ...registerLocalData(commands, { registry, storage, memento: context.globalState }),
    sessions,
    panels,
    registerMatrixSerializer(panels),
    ...registerAccessCommands(commands, registry, panels, sessions, () => provider.account, { show: plans.showPlan }),
    provider,
    view,
    provider.onDidChangeDescription((d) => (view.description = d === undefined ? undefined : plain(d))),
    ...registerViewCommands(commands, 'members', provider),
    ...registerMembersViewCommands(commands, registry, provider, (file, account) =>
      plan.store.rememberAccount(vscode.Uri.file(file), account),
    ),
    ...registerMemberCommands(commands, bulkDeps),
    ...registerImport(commands, registry, plan.store, storage, () => provider.account),
    registerPermissionCommand(commands, bulkDeps),
    ...registerInvite(commands, { registry, storage, log: commands.log }, provider),
    ...registerOffboard(commands, { ...bulkDeps, store: plan.store, apply: plan.apply, now: () => new Date() }),
    ...registerMemberForms(
      commands,
      forms,
      registry,
      provider,
      new StickyContext(context.globalState, 'portal.assignmentsOpened'),
      { storage, undo: plan.undo },
    ),
  );
  return {
    provider,
    view,
    plan,
    show: (account) => provider.show(account),
    refresh: () => provider.refresh(),
    snapshot: () => provider.snapshot(),
    onDidChangeMembers: changedOrRead(provider, sessions),
    access: { sessions, panels },
    store: accessHandle(sessions, registry, commands.ui),
    proposals: planProposals(registry, plan.store, commands.ui),
    plans: { show: plans.show, onDidApply: plans.onDidApply, appliedRun: plans.appliedRun },
  };
}
