/** Commands on one member: enable, disable, lock, unlock, remove from the organisation, copy the username. */
import * as vscode from 'vscode';
import { accountPermissionLabel, type MemberUpdate } from '../../api';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { memberRow } from '../../shared/members';
import type { Ui } from '../../ui/ui';
import { guarded, type CommandEnv } from '../../ui/commands';
import { pickMember, type AccountRef, type MemberRef } from '../../targets/pick';
import type { ViewsHandle } from '../views';

/** The four flag commands: one PATCH each, and the member's new state shown in place. */
const FLAGS: ReadonlyArray<{ id: string; verb: string; update: Pick<MemberUpdate, 'enabled' | 'lock'>; done: string }> = [
  { id: 'portal.member.enable', verb: 'Enable', update: { enabled: true }, done: 'is enabled' },
  { id: 'portal.member.disable', verb: 'Disable', update: { enabled: false }, done: 'is disabled and cannot sign in' },
  { id: 'portal.member.lock', verb: 'Lock', update: { lock: true }, done: 'is locked' },
  { id: 'portal.member.unlock', verb: 'Unlock', update: { lock: false }, done: 'is unlocked' },
];

/** A member named by a caller outside this extension: the change happens only when the user agrees to it. */
function confirmNamed(ui: Ui, m: MemberRef, verb: string): Promise<boolean> {
  return ui.confirm({
    id: 'member.named',
    message: `${verb} the member ${m.username}?`,
    detail: `A link, a keybinding or another extension asked for this (portal ${m.portalId}, organisation ${m.accountId}). Nothing changes unless you confirm.`,
    action: verb,
  });
}

interface MemberDeps {
  readonly registry: PortalRegistry;
  readonly views: ViewsHandle;
}

async function setFlag(deps: MemberDeps, ui: Ui, m: MemberRef, flag: (typeof FLAGS)[number]): Promise<boolean> {
  if (!m.chosenHere && !(await confirmNamed(ui, m, flag.verb))) return false;
  const member = await deps.registry.client(m.portalId).v3.members.update(m.accountId, m.username, flag.update);
  deps.views.memberChanged(m.portalId, m.accountId, memberRow(member));
  ui.status(`${m.name ?? m.username} ${flag.done}.`);
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
  const typed = await ui.input({
    id: 'member.delete.typeUsername',
    title: `Remove ${who}`,
    prompt: `Type the username "${m.username}" to confirm.`,
    placeHolder: m.username,
    validate: (v) => (v === m.username ? undefined : 'Type the username exactly as shown.'),
  });
  return typed === m.username;
}

async function deleteMember(deps: MemberDeps, ui: Ui, m: MemberRef): Promise<boolean> {
  const client = deps.registry.client(m.portalId);
  const member = await client.v3.members.get(m.accountId, m.username);
  const who = `${member.user.name || m.username} (${m.username})`;
  if (!(await confirmRemoval(ui, m, who, member.permission, member.memberOfMultipleAccounts))) return false;
  await client.v3.members.delete(m.accountId, m.username);
  deps.views.memberRemoved(m.portalId, m.accountId, m.username);
  ui.notify('info', `${who} was removed from the organisation.`);
  return true;
}

export function registerMemberCommands(deps: MemberDeps, preferred: () => AccountRef | undefined, env: CommandEnv): vscode.Disposable[] {
  const withMember = (then: (ui: Ui, m: MemberRef) => Promise<unknown>) => async (arg?: unknown): Promise<unknown> => {
    const ui = env.ui();
    const m = await pickMember(ui, deps.registry, arg, preferred());
    return m ? then(ui, m) : false;
  };
  return [
    ...FLAGS.map((flag) => guarded(env, flag.id, withMember((ui, m) => setFlag(deps, ui, m, flag)))),
    guarded(env, 'portal.member.delete', withMember((ui, m) => deleteMember(deps, ui, m))),
    guarded(env, 'portal.member.copyUsername', withMember((ui, m) => ui.copy(m.username))),
  ];
}
