import * as vscode from 'vscode';
import { describe } from '../webview/formPanel';
import type { FormHost } from '../webview/index';
import { ApplicationForm } from '../webview/forms/applicationForm';
import { AssignmentsForm } from '../webview/forms/assignmentsForm';
import { GroupForm } from '../webview/forms/groupForm';
import { OverviewForm } from '../webview/forms/overviewForm';
import { Picker, targetFromArg } from './target';

/**
 * The form commands: thin adapters from a tree node (or palette quick picks) to a form panel.
 * Each returns the panel, so tests can drive it.
 */
export function registerFormCommands(host: FormHost): vscode.Disposable[] {
  const { registry } = host.deps;
  const pick = new Picker(registry);
  const command = (id: string, run: (arg: unknown) => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async (arg?: unknown) => {
      try {
        return await run(arg);
      } catch (err) {
        void vscode.window.showErrorMessage(describe(err));
        return undefined;
      }
    });

  return [
    command('portal.editMemberAssignments', async (arg) => {
      const t = await pick.member(targetFromArg(arg));
      if (!t) return undefined;
      const ctx = { registry, portalId: t.portalId, accountId: t.accountId, username: t.username };
      return host.show(AssignmentsForm.keyOf(ctx), () => new AssignmentsForm(host.env, ctx, t.label ?? t.username));
    }),
    command('portal.accountOverview', async (arg) => {
      const t = await pick.account(targetFromArg(arg));
      if (!t) return undefined;
      const ctx = { registry, portalId: t.portalId, accountId: t.accountId };
      return host.show(OverviewForm.keyOf(ctx), () => new OverviewForm(host.env, ctx, t.label ?? String(t.accountId)));
    }),
    command('portal.createGroup', async (arg) => {
      const t = await pick.account(targetFromArg(arg));
      if (!t) return undefined;
      const ctx = { registry, portalId: t.portalId, accountId: t.accountId };
      return host.show(GroupForm.keyOf(ctx), () => new GroupForm(host.env, ctx, 'New Group'));
    }),
    command('portal.editGroup', async (arg) => {
      const t = await pick.group(targetFromArg(arg));
      if (!t) return undefined;
      const ctx = { registry, portalId: t.portalId, accountId: t.accountId, groupId: t.groupId };
      return host.show(GroupForm.keyOf(ctx), () => new GroupForm(host.env, ctx, `Group: ${t.label ?? t.groupId}`));
    }),
    command('portal.createApplication', async (arg) => {
      const portalId = await pick.portal(targetFromArg(arg));
      if (!portalId) return undefined;
      const ctx = { registry, portalId };
      return host.show(ApplicationForm.keyOf(ctx), () => new ApplicationForm(host.env, ctx));
    }),
    command('portal.rotateApplicationSecret', async (arg) => {
      const t = await pick.application(targetFromArg(arg));
      if (!t) return undefined;
      const ctx = { registry, portalId: t.portalId, clientId: t.clientId };
      return host.show(ApplicationForm.keyOf(ctx), () => new ApplicationForm(host.env, ctx));
    }),
  ];
}
