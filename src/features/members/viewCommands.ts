/** The Members view's own commands: choose the organisation, search, filter by tag, order, clear. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { count } from '../../shared/format';
import { MEMBER_ORDERS, parseSearch, searchText, type MemberQuery } from '../../shared/members';
import type { PickItem, Ui } from '../../ui/ui';
import { guarded, type CommandEnv } from '../../ui/commands';
import { pickAccount } from '../../targets/pick';

/** What the Members view exposes to its title commands. */
export interface MembersViewControl {
  target(): { portalId: string; accountId: number; accountLabel: string } | undefined;
  setTarget(t: { portalId: string; accountId: number; accountLabel: string } | undefined): void;
  query(): MemberQuery;
  setQuery(q: MemberQuery): void;
}

type Target = NonNullable<ReturnType<MembersViewControl['target']>>;

async function searchMembers(ui: Ui, control: MembersViewControl, t: Target): Promise<void> {
  const q = control.query();
  const value = await ui.input({
    id: 'members.search',
    title: `Search members of ${t.accountLabel}`,
    prompt: 'Name, username or e-mail contains this text. Start with ^ for "starts with" (e.g. ^ann). Empty clears the search.',
    value: searchText(q),
  });
  if (value === undefined) return;
  // The tag endpoint takes no search text: a search replaces the tag filter.
  control.setQuery({ orderBy: q.orderBy, ascending: q.ascending, ...parseSearch(value) });
}

async function askTags(ui: Ui, registry: PortalRegistry, t: Target, active: ReadonlySet<string>): Promise<string[] | undefined> {
  const summary = await ui.progress({ id: 'members.tags.load', title: 'Loading tags…', where: { view: 'portal.members' } }, () =>
    registry.client(t.portalId).v3.memberTags.summary(t.accountId, { orderBy: 'members', ascending: false }));
  if (summary.length === 0) {
    ui.notify('info', `No member of ${t.accountLabel} has a tag.`);
    return undefined;
  }
  const items = summary.map((s): PickItem<string> => ({
    label: s.name, description: `${count(s.members)} ${s.members === 1 ? 'member' : 'members'}`, picked: active.has(s.name), value: s.name,
  }));
  return ui.pickMany(items, { id: 'members.tags', placeHolder: 'Show members with any of these tags' });
}

async function filterByTag(ui: Ui, registry: PortalRegistry, control: MembersViewControl, t: Target): Promise<void> {
  const q = control.query();
  const tags = await askTags(ui, registry, t, new Set(q.tags ?? []));
  if (!tags) return;
  control.setQuery({ orderBy: q.orderBy, ascending: q.ascending, ...(tags.length ? { tags } : {}) });
}

async function sortMembers(ui: Ui, control: MembersViewControl): Promise<void> {
  const q = control.query();
  const current = (o: (typeof MEMBER_ORDERS)[number]) => (q.orderBy ?? 'name') === o.orderBy && (q.ascending !== false) === o.ascending;
  const picked = await ui.pick(
    MEMBER_ORDERS.map((o): PickItem<(typeof MEMBER_ORDERS)[number]> => ({ label: o.label, description: current(o) ? 'current' : '', value: o })),
    { id: 'members.order', placeHolder: 'Order members by' },
  );
  if (picked) control.setQuery({ ...q, orderBy: picked.orderBy, ascending: picked.ascending });
}

export function registerMembersViewCommands(registry: PortalRegistry, control: MembersViewControl, env: CommandEnv): vscode.Disposable[] {
  /** The view's organisation; from the palette with none shown yet, the user picks one first. */
  const target = async (ui: Ui): Promise<Target | undefined> => {
    if (!control.target()) {
      const a = await pickAccount(ui, registry, undefined);
      if (a) control.setTarget({ portalId: a.portalId, accountId: a.accountId, accountLabel: a.label ?? `account ${a.accountId}` });
    }
    return control.target();
  };
  const withTarget = (then: (ui: Ui, t: Target) => Promise<void>) => async (): Promise<void> => {
    const ui = env.ui();
    const t = await target(ui);
    if (t) await then(ui, t);
  };
  return [
    guarded(env, 'portal.members.chooseAccount', async (arg?: unknown) => {
      const a = await pickAccount(env.ui(), registry, arg);
      if (!a) return;
      control.setTarget({ portalId: a.portalId, accountId: a.accountId, accountLabel: a.label ?? `account ${a.accountId}` });
      await vscode.commands.executeCommand('portal.members.focus');
    }),
    guarded(env, 'portal.members.search', withTarget((ui, t) => searchMembers(ui, control, t))),
    guarded(env, 'portal.members.filterByTag', withTarget((ui, t) => filterByTag(ui, registry, control, t))),
    guarded(env, 'portal.members.sort', withTarget((ui) => sortMembers(ui, control))),
    guarded(env, 'portal.members.clearFilter', () => control.setQuery({})),
  ];
}
