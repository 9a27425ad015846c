/** The Members view's own commands: choose the organisation, search, filter by tag, order, clear, export to CSV. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { memberOrders, parseSearch, searchText, type MemberOrderChoice } from '../../../shared/members';
import type { AccountRef } from '../../../shared/refs';
import { accountFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../../ui/commands';
import { answered, type PickItem, type Ui } from '../../../ui/ui';
import { exportMembers, type ExportOptions } from '../csv/exportCsv';
import { TagFilter } from './tagFilter';
import { MEMBERS_VIEW, type MembersProvider } from './membersProvider';

async function searchMembers(ui: Ui, provider: MembersProvider, account: AccountRef): Promise<void> {
  const q = provider.query;
  const value = answered(
    await ui.input({
      id: 'members.search',
      title: vscode.l10n.t('Search members of {0}', account.label),
      prompt: vscode.l10n.t(
        'Name, username or e-mail contains this text. Start with ^ for "starts with" (e.g. ^ann). Empty clears the search.',
      ),
      value: searchText(q),
    }),
  );
  // The tag endpoint takes no search text: a search replaces the tag filter.
  provider.setQuery({ orderBy: q.orderBy, ascending: q.ascending, ...parseSearch(value) });
}

async function sortMembers(ui: Ui, provider: MembersProvider): Promise<void> {
  const q = provider.query;
  const current = (o: MemberOrderChoice) =>
    (q.orderBy ?? 'name') === o.orderBy && (q.ascending !== false) === o.ascending;
  const picked = answered(
    await ui.pick(
      memberOrders().map((o): PickItem<MemberOrderChoice> => ({
        label: o.label,
        description: current(o) ? vscode.l10n.t('current') : '',
        value: o,
      })),
      { id: 'members.order', placeHolder: vscode.l10n.t('Order members by') },
    ),
  );
  provider.setQuery({ ...q, orderBy: picked.orderBy, ascending: picked.ascending });
}

export function registerMembersViewCommands(
  env: CommandEnv,
  registry: PortalRegistry,
  provider: MembersProvider,
  exported?: ExportOptions['onExported'],
): vscode.Disposable[] {
  /** The view's organisation; with none shown yet, the user picks one first. */
  const shown = async (run: Run): Promise<AccountRef> => {
    if (!provider.account) provider.show(await accountFor(run, registry));
    return provider.account ?? (await accountFor(run, registry));
  };
  const tags = new TagFilter(registry);
  return [
    registerCommand(env, 'portal.members.chooseAccount', async (run) => {
      provider.show(await accountFor(run, registry));
      await vscode.commands.executeCommand(`${MEMBERS_VIEW}.focus`);
    }),
    registerCommand(env, 'portal.members.search', async (run) => searchMembers(run.ui, provider, await shown(run))),
    registerCommand(env, 'portal.members.filterByTag', async (run) => {
      const account = await shown(run);
      provider.setQuery(await tags.ask(run.ui, account, provider.query));
    }),
    registerCommand(env, 'portal.members.sort', async (run) => {
      await shown(run);
      await sortMembers(run.ui, provider);
    }),
    registerCommand(env, 'portal.members.clearFilter', () => provider.setQuery({})),
    registerCommand(env, 'portal.members.exportCsv', async (run) => {
      const account = await shown(run);
      const total = provider.snapshot().total;
      return exportMembers(registry, run.ui, account, provider.query, {
        ...(total !== undefined ? { total } : {}),
        ...(exported ? { onExported: exported } : {}),
      });
    }),
  ];
}
