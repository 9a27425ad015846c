/**
 * Invite Members… (the palette, the Members view's title): the addresses, the organisation permission and the groups
 * (with one level) they would be granted, then the invitation job (inviteJob.ts) plans, confirms and sends.
 */
import * as vscode from 'vscode';
import type { Invitee } from '../../../engine/invitations/index';
import { EMAIL } from '../../../shared/memberRules';
import { accountPermissionWords, groupPermissionWords } from '../../../shared/permissions';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';
import { accountFor } from '../../../targets/resolve';
import type { Run } from '../../../ui/commands';
import { answered, type Ui } from '../../../ui/ui';
import { inviteJob, type InviteDeps } from './inviteJob';

const ACCOUNT_LEVELS = [1, 4, 16] as const;
const GROUP_LEVELS = [1, 4, 16] as const;

/** Addresses as typed: separated by commas, semicolons or spaces. */
export function addressesOf(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter((a) => a !== '');
}

export async function inviteMembers(
  run: Run,
  deps: InviteDeps,
  preferred: () => AccountRef | undefined,
): Promise<void> {
  const ui = run.ui;
  const account: AccountRef = run.target
    ? await accountFor(run, deps.registry)
    : (preferred() ?? (await accountFor(run, deps.registry)));
  const typed = answered(
    await ui.input({
      id: 'invite.addresses',
      title: vscode.l10n.t('Invite Members to {0}', plain(account.label)),
      prompt: vscode.l10n.t('The e-mail addresses to invite, separated by commas or spaces'),
      validate: (v) => {
        const list = addressesOf(v);
        if (list.length === 0) return vscode.l10n.t('Type at least one e-mail address.');
        const bad = list.find((a) => !EMAIL.test(a));
        return bad ? vscode.l10n.t('{0} is not an e-mail address.', bad) : undefined;
      },
    }),
  );
  const mask = answered(
    await ui.pick(
      ACCOUNT_LEVELS.map((level) => ({ label: accountPermissionWords(level), value: level })),
      {
        id: 'invite.permission',
        title: vscode.l10n.t('Invite Members to {0}', plain(account.label)),
        placeHolder: vscode.l10n.t('Their permission in the organisation once they accept'),
      },
    ),
  );
  const { names, levels } = await askGroups(ui, deps, account);
  const people: Invitee[] = addressesOf(typed).map((email) => ({ email, mask, groups: levels }));
  await inviteJob(ui, deps, account, people, { origin: 'invite', groupNames: names });
}

/** The groups the invitations would grant, and one level for them all; with their names for the confirmation. */
async function askGroups(
  ui: Ui,
  deps: InviteDeps,
  account: AccountRef,
): Promise<{ names: Map<string, string>; levels: Record<string, number> }> {
  const client = deps.registry.client(account.portalId);
  const groups = await client.v2.groups.list(account.accountId);
  const names = new Map(groups.map((g) => [String(g.id), g.friendlyName || g.name]));
  const chosen = answered(
    await ui.pickMany(
      groups.map((g) => ({ label: plain(g.friendlyName || g.name), description: plain(g.name), value: String(g.id) })),
      {
        id: 'invite.groups',
        title: vscode.l10n.t('Invite Members to {0}', plain(account.label)),
        placeHolder: vscode.l10n.t('The groups they join once they accept (none: only the organisation)'),
      },
    ),
  );
  const level =
    chosen.length === 0
      ? 1
      : answered(
          await ui.pick(
            GROUP_LEVELS.map((l) => ({ label: groupPermissionWords(l), value: l })),
            {
              id: 'invite.level',
              title: vscode.l10n.t('Invite Members to {0}', plain(account.label)),
              placeHolder: vscode.l10n.t('Their level in the groups chosen'),
            },
          ),
        );
  return { names, levels: Object.fromEntries(chosen.map((id) => [id, level])) };
}
