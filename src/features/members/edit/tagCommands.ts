/** Add a tag to, or remove one from, the selected members (or the one member a row or the picker names). */
import * as vscode from 'vscode';
import { count } from '../../../shared/format';
import { MAX_TAG_LENGTH } from '../../../shared/memberRules';
import type { AccountRef, MemberRef } from '../../../shared/refs';
import { memberFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../../ui/commands';
import { answered, type PickItem, type Ui } from '../../../ui/ui';
import { bulkEdit, currentMembers, selectedMembers, type BulkDeps } from '../bulk/bulk';

/** The selected members, else the row's or a picked one; all of one organisation. */
async function membersOf(deps: BulkDeps, run: Run): Promise<{ account: AccountRef; members: MemberRef[] }> {
  const selected = selectedMembers(run);
  if (selected?.[0]) return { account: selected[0].account, members: selected };
  const one = await memberFor(run, deps.registry, deps.provider.account);
  return { account: one.account, members: [one] };
}

function checkTag(value: string): string | undefined {
  const tag = value.trim();
  if (!tag) return vscode.l10n.t('Type a tag.');
  return tag.length > MAX_TAG_LENGTH ? vscode.l10n.t('A tag has at most {0} characters.', MAX_TAG_LENGTH) : undefined;
}

/** One of the organisation's tags, or a new one: typing a name nobody has yet offers to create it, row and all. */
async function askNewTag(deps: BulkDeps, ui: Ui, account: AccountRef, members: readonly MemberRef[]): Promise<string> {
  const tags = deps.registry.client(account.portalId).v3.memberTags.list(account.accountId);
  const items = tags.then((list) =>
    [...new Set(list)].sort((a, b) => a.localeCompare(b)).map((t): PickItem<string> => ({ label: t, value: t })),
  );
  const title =
    members.length === 1
      ? vscode.l10n.t('Tag {0}', members[0]?.name ?? '')
      : vscode.l10n.t('Tag {0} members', count(members.length));
  const picked = answered(
    await ui.pickOrCreate(items, {
      id: 'members.tag.add',
      title,
      placeHolder: vscode.l10n.t('Pick a tag, or type a new one'),
      createLabel: (typed) => vscode.l10n.t('Create tag "{0}"', typed),
      validate: checkTag,
    }),
  );
  return picked.trim();
}

/** One of the tags the members carry, with how many of them carry it. */
async function askTagToRemove(
  deps: BulkDeps,
  ui: Ui,
  account: AccountRef,
  members: readonly MemberRef[],
): Promise<string> {
  const rows = (await currentMembers(deps, account, members)).map((m) => m.row);
  const carried = new Map<string, number>();
  for (const r of rows) for (const t of r.tags) carried.set(t, (carried.get(t) ?? 0) + 1);
  if (carried.size === 0) {
    ui.notify(
      'info',
      members.length === 1
        ? vscode.l10n.t('{0} has no tag.', members[0]?.name ?? '')
        : vscode.l10n.t('None of the {0} selected members has a tag.', count(members.length)),
    );
    return answered<string>(undefined);
  }
  const items = [...carried]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([t, n]): PickItem<string> => ({
      label: t,
      description: vscode.l10n.t('on {0} of {1}', count(n), count(rows.length)),
      value: t,
    }));
  return answered(await ui.pick(items, { id: 'members.tag.remove', placeHolder: vscode.l10n.t('Remove which tag?') }));
}

export function registerTagCommands(env: CommandEnv, deps: BulkDeps): vscode.Disposable[] {
  return [
    registerCommand(env, 'portal.member.addTag', async (run) => {
      const { account, members } = await membersOf(deps, run);
      const tag = await askNewTag(deps, run.ui, account, members);
      return bulkEdit(deps, run.ui, account, members, { kind: 'addTag', tag });
    }),
    registerCommand(env, 'portal.member.removeTag', async (run) => {
      const { account, members } = await membersOf(deps, run);
      const tag = await askTagToRemove(deps, run.ui, account, members);
      return bulkEdit(deps, run.ui, account, members, { kind: 'removeTag', tag });
    }),
  ];
}
