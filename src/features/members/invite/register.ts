/** Invite Members… and the resume of invitations a reload cut off (offered at start-up, and by its command). */
import * as vscode from 'vscode';
import type { AccountRef } from '../../../shared/refs';
import { registerCommand, type CommandEnv } from '../../../ui/commands';
import { inviteMembers } from './inviteCommand';
import { offerInviteResume, type InviteDeps } from './inviteJob';

export const INVITE_COMMAND = 'portal.members.invite';

/** The Members view: the organisation it shows is the one invited to, and it is read again after invitations. */
interface ShownAccount {
  readonly account: AccountRef | undefined;
  reloadAccount(account: AccountRef): void;
}

export function registerInvite(
  env: CommandEnv,
  base: Omit<InviteDeps, 'sent'>,
  view: ShownAccount,
): vscode.Disposable[] {
  const deps: InviteDeps = { ...base, sent: (a) => view.reloadAccount(a) };
  const preferred = () => view.account;
  // Not awaited: a notification nobody has to answer; a portal not signed in yet is asked again from the command.
  void offerInviteResume(env.ui(), deps, false).catch((error: unknown) =>
    env.log.warn(`invite resume offer: ${error instanceof Error ? error.message : String(error)}`),
  );
  return [
    registerCommand(env, INVITE_COMMAND, (run) => inviteMembers(run, deps, preferred)),
    registerCommand(
      env,
      'portal.members.invite.resume',
      async (run) => void (await offerInviteResume(run.ui, deps, true)),
    ),
  ];
}
