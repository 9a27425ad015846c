/** Commands on one member: enable, disable, lock, unlock, remove from the organisation, copy the username. */
import type * as vscode from 'vscode';
import { accountPermissionLabel, type MemberUpdate } from '../../api';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { memberRow } from '../../shared/members';
import type { MemberRef } from '../../shared/refs';
import { memberFor } from '../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../ui/commands';
import { answered, type Ui } from '../../ui/ui';
import type { MembersProvider } from './membersProvider';

/** The four flag commands: one PATCH each, and the member's new state shown in place. */
const FLAGS: ReadonlyArray<{ id: string; update: Pick<MemberUpdate, 'enabled' | 'lock'>; done: string }> = [
  { id: 'portal.member.enable', update: { enabled: true }, done: 'is enabled' },
  { id: 'portal.member.disable', update: { enabled: false }, done: 'is disabled and cannot sign in' },
  { id: 'portal.member.lock', update: { lock: true }, done: 'is locked' },
  { id: 'portal.member.unlock', update: { lock: false }, done: 'is unlocked' },
];

interface MemberDeps {
  readonly registry: PortalRegistry;
  readonly provider: MembersProvider;
}

/** PATCH one flag and show the member's new state in every loaded list. */
async function setFlag(deps: MemberDeps, ui: Ui, m: MemberRef, flag: (typeof FLAGS)[number]): Promise<boolean> {
  const member = await deps.registry.client(m.account.portalId).v3.members.update(m.account.accountId, m.username, flag.update);
  deps.provider.memberChanged(m.account, memberRow(member));
  ui.status(`${m.name} ${flag.done}.`);
  return true;
}

/** Removing a member can delete their user for good: the first question says which, the second wants the username. */
async function confirmRemoval(ui: Ui, m: MemberRef, who: string, permission: number | null, otherAccounts: boolean): Promise<boolean> {
  const ok = await ui.confirm({
    id: 'member.delete.confirm',
    message: `Remove ${who} from this organisation?`,
    detail: [
      `They lose access to the organisation and all its groups. Account permission: ${accountPermissionLabel(permission)}.`,
      otherAccounts
        ? 'They also belong to another organisation, so their user stays on the portal.'
        : 'They belong to no other organisation, so their user is DELETED FOR GOOD: it cannot be restored.',
      'You will be asked to type the username to confirm.',
    ].join('\n\n'),
    action: 'Continue…',
  });
  if (!ok) return false;
  const typed = answered(await ui.input({
    id: 'member.delete.typeUsername',
    title: `Remove ${who}`,
    prompt: `Type the username "${m.username}" to confirm.`,
    placeHolder: m.username,
    validate: (v) => (v === m.username ? undefined : 'Type the username exactly as shown.'),
  }));
  return typed === m.username;
}

async function deleteMember(deps: MemberDeps, ui: Ui, m: MemberRef): Promise<boolean> {
  const client = deps.registry.client(m.account.portalId);
  const member = await client.v3.members.get(m.account.accountId, m.username);
  const who = `${member.user.name || m.username} (${m.username})`;
  if (!(await confirmRemoval(ui, m, who, member.permission, member.memberOfMultipleAccounts))) return false;
  await client.v3.members.delete(m.account.accountId, m.username);
  deps.provider.memberRemoved(m.account, m.username);
  ui.notify('info', `${who} was removed from the organisation.`);
  return true;
}

export function registerMemberCommands(env: CommandEnv, deps: MemberDeps): vscode.Disposable[] {
  const withMember = (then: (ui: Ui, m: MemberRef) => Promise<unknown>) => async (run: Run) =>
    then(run.ui, await memberFor(run, deps.registry, deps.provider.account));
  return [
    ...FLAGS.map((flag) => registerCommand(env, flag.id, withMember((ui, m) => setFlag(deps, ui, m, flag)))),
    registerCommand(env, 'portal.member.delete', withMember((ui, m) => deleteMember(deps, ui, m))),
    registerCommand(env, 'portal.member.copyUsername', withMember((ui, m) => ui.copy(m.username))),
  ];
}
