/**
 * The Members view's own commands: choose the organisation, search, filter by tag, filter by activity and state,
 * order, clear, export to CSV.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import {
  memberOrders,
  parseSearch,
  searchText,
  type ActivityFilter,
  type GroupScope,
  type MemberOrderChoice,
} from '../../../shared/members';
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
  provider.setQuery({ orderBy: q.orderBy, ascending: q.ascending, activity: q.activity, ...parseSearch(value) });
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

type ActivityChoice =
  | 'never'
  | 'inactive'
  | 'notStarted'
  | 'disabled'
  | 'locked'
  | 'pending'
  | 'twoFactorOff'
  | 'neverSignedIn'
  | 'invited'
  | 'group';

/** The group to scope the filter to, by friendly name (its unique name beside it); the current one first. */
async function askGroupScope(
  ui: Ui,
  registry: PortalRegistry,
  account: AccountRef,
  current: GroupScope | undefined,
): Promise<GroupScope> {
  const groups = await registry.client(account.portalId).v2.groups.list(account.accountId);
  const items = [...groups]
    .sort((a, b) => a.friendlyName.localeCompare(b.friendlyName))
    .map((g): PickItem<GroupScope> => ({
      label: g.friendlyName,
      description: g.id === current?.id ? vscode.l10n.t('{0} · current', g.name) : g.name,
      value: { id: g.id, name: g.name, label: g.friendlyName },
    }));
  return answered(
    await ui.pick(items, {
      id: 'members.activity.group',
      title: vscode.l10n.t('Only members of one group of {0}', account.label),
      placeHolder: vscode.l10n.t('In which group?'),
      matchOnDescription: true,
    }),
  );
}

async function askDays(ui: Ui, current: number | undefined): Promise<number> {
  const text = answered(
    await ui.input({
      id: 'members.activity.days',
      title: vscode.l10n.t('Inactive members'),
      prompt: vscode.l10n.t('Not active for at least this many days (1 to 3650).'),
      value: String(current ?? 90),
      validate: (v) =>
        /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 3650
          ? undefined
          : vscode.l10n.t('A whole number of days from 1 to 3650.'),
    }),
  );
  return Number(text.trim());
}

/** The conditions Filter by Activity offers, those of the current filter ticked. */
function activityItems(f: ActivityFilter): Array<PickItem<ActivityChoice>> {
  return [
    {
      label: vscode.l10n.t('Inactive for a number of days…'),
      description: vscode.l10n.t('never active counts as inactive'),
      value: 'inactive',
      picked: f.inactiveDays !== undefined,
    },
    { label: vscode.l10n.t('Never active'), value: 'never', picked: f.never === true },
    {
      label: vscode.l10n.t('Include members not started yet'),
      description: vscode.l10n.t(
        'never active, activation e-mail still to come; left out of the two above unless chosen',
      ),
      value: 'notStarted',
      picked: f.notStarted === true,
    },
    { label: vscode.l10n.t('Disabled'), value: 'disabled', picked: f.disabled === true },
    { label: vscode.l10n.t('Locked'), value: 'locked', picked: f.locked === true },
    { label: vscode.l10n.t('Pending activation'), value: 'pending', picked: f.pending === true },
    { label: vscode.l10n.t('Two-factor off'), value: 'twoFactorOff', picked: f.twoFactorOff === true },
    {
      label: vscode.l10n.t('Never signed in since invited/created'),
      description: vscode.l10n.t('from the audit, as the access matrix reads it; the pending invitations too'),
      value: 'neverSignedIn',
      picked: f.neverSignedIn === true,
    },
    {
      label: vscode.l10n.t('Pending invitations only'),
      description: vscode.l10n.t('shown as Invited; no member is listed'),
      value: 'invited',
      picked: f.invited === true,
    },
    {
      label: vscode.l10n.t('In one group…'),
      description: f.group ? f.group.label : vscode.l10n.t('one request per member that meets the rest'),
      value: 'group',
      picked: f.group !== undefined,
    },
  ];
}

/**
 * Stale and risky members: the conditions to check, then (for "inactive") how many days, then (for "in one group") the
 * group. Choosing none clears the filter. The portal cannot be asked for these, so the view checks them on the rows
 * as it walks the list; the group last, and only for the rows that met the rest (it costs a read per member).
 */
async function filterByActivity(
  ui: Ui,
  registry: PortalRegistry,
  provider: MembersProvider,
  account: AccountRef,
): Promise<void> {
  const q = provider.query;
  const f = q.activity ?? {};
  const items = activityItems(f);
  const chosen = new Set(
    answered(
      await ui.pickMany(items, {
        id: 'members.activity',
        title: vscode.l10n.t('Every condition chosen must hold; none clears the filter'),
        placeHolder: vscode.l10n.t('Show members who are…'),
      }),
    ),
  );
  const inactiveDays = chosen.has('inactive') ? await askDays(ui, f.inactiveDays) : undefined;
  const group = chosen.has('group') ? await askGroupScope(ui, registry, account, f.group) : undefined;
  const activity: ActivityFilter = {
    ...(inactiveDays !== undefined ? { inactiveDays } : {}),
    ...(chosen.has('never') ? { never: true } : {}),
    ...(chosen.has('notStarted') && (inactiveDays !== undefined || chosen.has('never')) ? { notStarted: true } : {}),
    ...(chosen.has('disabled') ? { disabled: true } : {}),
    ...(chosen.has('locked') ? { locked: true } : {}),
    ...(chosen.has('pending') ? { pending: true } : {}),
    ...(chosen.has('twoFactorOff') ? { twoFactorOff: true } : {}),
    ...(chosen.has('neverSignedIn') ? { neverSignedIn: true } : {}),
    ...(chosen.has('invited') ? { invited: true } : {}),
    ...(group ? { group } : {}),
  };
  provider.setQuery({ ...q, activity: Object.keys(activity).length > 0 ? activity : undefined });
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
    registerCommand(env, 'portal.members.filterActivity', async (run) => {
      await filterByActivity(run.ui, registry, provider, await shown(run));
    }),
    registerCommand(env, 'portal.members.sort', async (run) => {
      await shown(run);
      await sortMembers(run.ui, provider);
    }),
    registerCommand(env, 'portal.members.clearFilter', () => provider.setQuery({})),
    registerCommand(env, 'portal.members.exportCsv', async (run) => {
      const account = await shown(run);
      const total = provider.snapshot().total;
      const memberGroups = provider.groupsReader(account);
      const neverSignedIn = provider.neverSignedInReader(account);
      return exportMembers(registry, run.ui, account, provider.query, {
        ...(total !== undefined ? { total } : {}),
        ...(memberGroups ? { memberGroups } : {}),
        ...(neverSignedIn ? { neverSignedIn } : {}),
        ...(exported ? { onExported: exported } : {}),
      });
    }),
  ];
}
