/** Commands on one member: enable, disable, lock, unlock, remove from the organisation, copy the username. */
import * as vscode from 'vscode';
import { accountPermissionWords } from '../../../shared/permissions';
import type { MemberRef } from '../../../shared/refs';
import { memberFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../../ui/commands';
import { answered, type Ui } from '../../../ui/ui';
import { bulkEdit, changeOne, selectedMembers, type BulkDeps } from '../bulk/bulk';
import type { BulkChange } from '../bulk/bulkChange';
import { registerTagCommands } from './tagCommands';

/** The four flag commands: one PATCH each through the engine, and the member's new state shown in place. */
const FLAGS: ReadonlyArray<{
  id: string;
  kind: 'enable' | 'disable' | 'lock' | 'unlock';
  title: (name: string) => string;
  done: (name: string) => string;
}> = [
  {
    id: 'portal.member.enable',
    kind: 'enable',
    title: (name) => vscode.l10n.t('Enable {0}', name),
    done: (name) => vscode.l10n.t('{0} is enabled.', name),
  },
  {
    id: 'portal.member.disable',
    kind: 'disable',
    title: (name) => vscode.l10n.t('Disable {0}', name),
    done: (name) => vscode.l10n.t('{0} is disabled and cannot sign in.', name),
  },
  {
    id: 'portal.member.lock',
    kind: 'lock',
    title: (name) => vscode.l10n.t('Lock {0}', name),
    done: (name) => vscode.l10n.t('{0} is locked.', name),
  },
  {
    id: 'portal.member.unlock',
    kind: 'unlock',
    title: (name) => vscode.l10n.t('Unlock {0}', name),
    done: (name) => vscode.l10n.t('{0} is unlocked.', name),
  },
];

type MemberDeps = BulkDeps;

/** One flag through the engine (journaled, undoable), the member's new state shown in every loaded list. */
function setFlag(deps: MemberDeps, ui: Ui, m: MemberRef, flag: (typeof FLAGS)[number]): Promise<boolean> {
  return changeOne(deps, ui, m, { kind: flag.kind }, { title: flag.title(m.username), done: flag.done(m.name) });
}

/** Removing a member can delete their user for good: the first question says which, the second wants the username. */
async function confirmRemoval(
  ui: Ui,
  m: MemberRef,
  who: string,
  permission: number | null,
  otherAccounts: boolean,
): Promise<boolean> {
  const ok = await ui.confirm({
    id: 'member.delete.confirm',
    message: vscode.l10n.t('Remove {0} from this organisation?', who),
    detail: [
      vscode.l10n.t(
        'They lose access to the organisation and all its groups. Organisation permission: {0}.',
        accountPermissionWords(permission),
      ),
      otherAccounts
        ? vscode.l10n.t('They also belong to another organisation, so their user stays on the portal.')
        : vscode.l10n.t(
            'They belong to no other organisation, so their user is DELETED FOR GOOD. A snapshot is kept first, so Undo can re-create them (everything but the password).',
          ),
      vscode.l10n.t('You will be asked to type the username to confirm.'),
    ].join('\n\n'),
    action: vscode.l10n.t('Continue…'),
  });
  if (!ok) return false;
  const typed = answered(
    await ui.input({
      id: 'member.delete.typeUsername',
      title: vscode.l10n.t('Remove {0}', who),
      prompt: vscode.l10n.t('Type the username "{0}" to confirm.', m.username),
      placeHolder: m.username,
      validate: (v) => (v === m.username ? undefined : vscode.l10n.t('Type the username exactly as shown.')),
    }),
  );
  return typed === m.username;
}

async function deleteMember(deps: MemberDeps, ui: Ui, m: MemberRef): Promise<boolean> {
  const client = deps.registry.client(m.account.portalId);
  const member = await client.v3.members.get(m.account.accountId, m.username);
  const who = vscode.l10n.t('{0} ({1})', member.user.name || m.username, m.username);
  if (!(await confirmRemoval(ui, m, who, member.permission, member.memberOfMultipleAccounts))) return false;
  const done = vscode.l10n.t('{0} was removed from the organisation.', who);
  return changeOne(deps, ui, m, { kind: 'delete' }, { title: vscode.l10n.t('Remove {0}', m.username), done });
}

export function registerMemberCommands(env: CommandEnv, deps: MemberDeps): vscode.Disposable[] {
  /** One row: the single-member command. Several selected rows: the same change as one bulk edit. */
  const withMember = (then: (ui: Ui, m: MemberRef) => Promise<unknown>, bulk?: BulkChange) => async (run: Run) => {
    const many = bulk ? selectedMembers(run) : undefined;
    if (bulk && many?.[0]) return bulkEdit(deps, run.ui, many[0].account, many, bulk);
    return then(run.ui, await memberFor(run, deps.registry, deps.provider.account));
  };
  return [
    ...FLAGS.map((flag) =>
      registerCommand(
        env,
        flag.id,
        withMember((ui, m) => setFlag(deps, ui, m, flag), { kind: flag.kind }),
      ),
    ),
    registerCommand(
      env,
      'portal.member.delete',
      withMember((ui, m) => deleteMember(deps, ui, m), { kind: 'delete' }),
    ),
    registerCommand(
      env,
      'portal.member.copyUsername',
      withMember((ui, m) => ui.copy(m.username)),
    ),
    ...registerTagCommands(env, deps),
  ];
}
