import * as vscode from 'vscode';
import type { FormHost } from '../forms/formHost';
import { ApplicationForm } from './applications/applicationForm';
import { AssignmentsForm } from './members/assignmentsForm';
import { GroupForm } from './explorer/groupForm';
import { MemberForm } from './members/memberForm';
import { OverviewForm } from './explorer/overviewForm';
import { guarded } from '../ui/commands';
import { pickAccount, pickApplication, pickGroup, pickMember, pickSignedInPortal } from '../targets/pick';

/**
 * The form commands: thin adapters from a tree node (or, from the palette, the explorer's quick picks) to a
 * form panel. Each returns the panel, so tests can drive it.
 */
export function registerFormCommands(host: FormHost): vscode.Disposable[] {
  const { registry, ui } = host.deps;
  const command = (id: string, run: (arg: unknown) => Promise<unknown>) => guarded(host.deps, id, (arg?: unknown) => run(arg));
  const accountLabel = (a: { label?: string | undefined; accountId: number }) => a.label ?? `account ${a.accountId}`;

  return [
    command('portal.editMemberAssignments', async (arg) => {
      const m = await pickMember(ui(), registry, arg, undefined);
      if (!m) return undefined;
      const ctx = { registry, portalId: m.portalId, accountId: m.accountId, username: m.username };
      return host.show(AssignmentsForm.keyOf(ctx), () => new AssignmentsForm(host.env, ctx, m.name ?? m.username));
    }),
    command('portal.editMember', async (arg) => {
      const m = await pickMember(ui(), registry, arg, undefined);
      if (!m) return undefined;
      const ctx = { registry, portalId: m.portalId, accountId: m.accountId, username: m.username };
      return host.show(MemberForm.keyOf(ctx), () => new MemberForm(host.env, ctx, `Member: ${m.name ?? m.username}`));
    }),
    command('portal.createMember', async (arg) => {
      const a = await pickAccount(ui(), registry, arg);
      if (!a) return undefined;
      const ctx = { registry, portalId: a.portalId, accountId: a.accountId };
      return host.show(MemberForm.keyOf(ctx), () => new MemberForm(host.env, ctx, `New Member: ${accountLabel(a)}`));
    }),
    command('portal.accountOverview', async (arg) => {
      const a = await pickAccount(ui(), registry, arg);
      if (!a) return undefined;
      const ctx = { registry, portalId: a.portalId, accountId: a.accountId };
      return host.show(OverviewForm.keyOf(ctx), () => new OverviewForm(host.env, ctx, accountLabel(a)));
    }),
    command('portal.createGroup', async (arg) => {
      const a = await pickAccount(ui(), registry, arg);
      if (!a) return undefined;
      const ctx = { registry, portalId: a.portalId, accountId: a.accountId };
      return host.show(GroupForm.keyOf(ctx), () => new GroupForm(host.env, ctx, `New Group: ${accountLabel(a)}`));
    }),
    command('portal.editGroup', async (arg) => {
      const g = await pickGroup(ui(), registry, arg);
      if (!g) return undefined;
      const ctx = { registry, portalId: g.portalId, accountId: g.accountId, groupId: g.groupId };
      return host.show(GroupForm.keyOf(ctx), () => new GroupForm(host.env, ctx, `Group: ${g.label ?? g.groupId}`));
    }),
    command('portal.createApplication', async (arg) => {
      const portal = await pickSignedInPortal(ui(), registry, arg, 'Create the application on which portal?');
      if (!portal) return undefined;
      const ctx = { registry, portalId: portal.portalId };
      return host.show(ApplicationForm.keyOf(ctx), () => new ApplicationForm(host.env, ctx));
    }),
    command('portal.rotateApplicationSecret', async (arg) => {
      const app = await pickApplication(ui(), registry, arg);
      if (!app) return undefined;
      const ctx = { registry, portalId: app.portalId, clientId: app.clientId };
      return host.show(ApplicationForm.keyOf(ctx), () => new ApplicationForm(host.env, ctx));
    }),
  ];
}
