/**
 * Member commands (enable/disable, lock/unlock, delete) and the Members view's own commands (choose account,
 * search, tag filter, order, clear).
 */
import * as vscode from 'vscode';
import { accountPermissionLabel } from '../api';
import type { PortalRegistry } from '../auth/portalRegistry';
import { count } from '../shared/format';
import { MEMBER_ORDERS, memberRow, parseSearch, searchText, type MemberQuery } from '../shared/members';
import { prompts } from './prompts';
import { guarded } from './run';
import { pickAccount, pickMember, type AccountRef, type MemberRef } from './targets';
import type { ViewsHandle } from './views';
import * as notify from '../shared/notify';
import { plain } from '../shared/plainText';

/** What the Members view exposes to its title commands. */
export interface MembersViewControl {
  target(): { portalId: string; accountId: number; accountLabel: string } | undefined;
  setTarget(t: { portalId: string; accountId: number; accountLabel: string } | undefined): void;
  query(): MemberQuery;
  setQuery(q: MemberQuery): void;
}

/** A member named by a caller outside this extension: the change happens only when the user agrees to it. */
async function confirmNamed(m: MemberRef, verb: string): Promise<boolean> {
  return prompts().confirm(
    `${verb} the member ${m.username}?`,
    `A link, a keybinding or another extension asked for this (portal ${m.portalId}, organisation ${m.accountId}). Nothing changes unless you confirm.`,
    verb,
  );
}

export function registerMemberCommands(
  registry: PortalRegistry,
  views: ViewsHandle,
  control: MembersViewControl,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  const preferred = (): AccountRef | undefined => {
    const t = control.target();
    return t ? { portalId: t.portalId, accountId: t.accountId, label: t.accountLabel } : undefined;
  };
  const chooseMember = (arg: unknown) => pickMember(registry, arg, preferred());

  /** PATCH one flag and show the member's new state in every loaded list. */
  const patch = async (m: MemberRef, update: { enabled?: boolean; lock?: boolean }, verb: string, done: string): Promise<boolean> => {
    if (!m.chosenHere && !(await confirmNamed(m, verb))) return false;
    const member = await registry.client(m.portalId).v3.members.update(m.accountId, m.username, update);
    views.memberChanged(m.portalId, m.accountId, memberRow(member));
    notify.status(`${m.name ?? m.username} ${done}.`, 4000);
    return true;
  };

  const requireTarget = async (): Promise<boolean> => {
    if (control.target()) return true;
    const a = await pickAccount(registry, undefined);
    if (a) control.setTarget({ portalId: a.portalId, accountId: a.accountId, accountLabel: a.label ?? `account ${a.accountId}` });
    return control.target() !== undefined;
  };

  return [
    guarded(log, 'portal.members.chooseAccount', async (arg?: unknown) => {
      const a = await pickAccount(registry, arg);
      if (!a) return;
      control.setTarget({ portalId: a.portalId, accountId: a.accountId, accountLabel: a.label ?? `account ${a.accountId}` });
      await vscode.commands.executeCommand('portal.members.focus');
    }),
    guarded(log, 'portal.members.search', async (arg?: unknown) => {
      if (!(await requireTarget())) return;
      const q = control.query();
      const value = typeof arg === 'string' ? arg : await prompts().input({
        title: plain(`Search members of ${control.target()?.accountLabel ?? 'this organisation'}`),
        prompt: 'Name, username or e-mail contains this text. Start with ^ for "starts with" (e.g. ^ann). Empty clears the search.',
        value: searchText(q),
      });
      if (value === undefined) return;
      // The tag endpoint takes no search text: a search replaces the tag filter.
      control.setQuery({ orderBy: q.orderBy, ascending: q.ascending, ...parseSearch(value) });
    }),
    guarded(log, 'portal.members.filterByTag', async (arg?: unknown) => {
      if (!(await requireTarget())) return;
      const t = control.target();
      if (!t) return;
      const q = control.query();
      let tags: string[] | undefined;
      if (typeof arg === 'string') tags = [arg];
      else if (Array.isArray(arg)) tags = arg.filter((x): x is string => typeof x === 'string');
      else {
        const summary = await notify.progress({ location: { viewId: 'portal.members' } }, () =>
          registry.client(t.portalId).v3.memberTags.summary(t.accountId, { orderBy: 'members', ascending: false }),
        );
        if (summary.length === 0) {
          void notify.info(`No member of ${t.accountLabel} has a tag.`);
          return;
        }
        const active = new Set(q.tags ?? []);
        const picked = await vscode.window.showQuickPick(
          summary.map((s) => ({ label: plain(s.name), tag: s.name, description: `${count(s.members)} ${s.members === 1 ? 'member' : 'members'}`, picked: active.has(s.name) })),
          { canPickMany: true, placeHolder: 'Show members with any of these tags' },
        );
        if (!picked) return;
        tags = picked.map((p) => p.tag);
      }
      control.setQuery({ orderBy: q.orderBy, ascending: q.ascending, ...(tags.length ? { tags } : {}) });
    }),
    guarded(log, 'portal.members.sort', async (arg?: unknown) => {
      if (!(await requireTarget())) return;
      const q = control.query();
      const given = MEMBER_ORDERS.find((o) => o.orderBy === arg);
      const picked = given ?? (await vscode.window.showQuickPick(
        MEMBER_ORDERS.map((o) => ({ ...o, description: (q.orderBy ?? 'name') === o.orderBy && (q.ascending !== false) === o.ascending ? 'current' : '' })),
        { placeHolder: 'Order members by' },
      ));
      if (!picked) return;
      control.setQuery({ ...q, orderBy: picked.orderBy, ascending: picked.ascending });
    }),
    guarded(log, 'portal.members.clearFilter', () => {
      control.setQuery({});
    }),
    guarded(log, 'portal.member.enable', async (arg?: unknown) => {
      const m = await chooseMember(arg);
      return m ? patch(m, { enabled: true }, 'Enable', 'is enabled') : false;
    }),
    guarded(log, 'portal.member.disable', async (arg?: unknown) => {
      const m = await chooseMember(arg);
      return m ? patch(m, { enabled: false }, 'Disable', 'is disabled and cannot sign in') : false;
    }),
    guarded(log, 'portal.member.lock', async (arg?: unknown) => {
      const m = await chooseMember(arg);
      return m ? patch(m, { lock: true }, 'Lock', 'is locked') : false;
    }),
    guarded(log, 'portal.member.unlock', async (arg?: unknown) => {
      const m = await chooseMember(arg);
      return m ? patch(m, { lock: false }, 'Unlock', 'is unlocked') : false;
    }),
    guarded(log, 'portal.member.delete', async (arg?: unknown) => {
      const m = await chooseMember(arg);
      if (!m) return false;
      const client = registry.client(m.portalId);
      const member = await client.v3.members.get(m.accountId, m.username);
      const who = `${member.user.name || m.username} (${m.username})`;
      const ok = await prompts().confirm(
        `Remove ${who} from this organisation?`,
        [
          `They lose access to the organisation and all its groups. Account permission: ${accountPermissionLabel(member.permission)}.`,
          member.memberOfMultipleAccounts
            ? 'They also belong to another organisation, so their user stays on the portal.'
            : 'They belong to no other organisation, so their user is DELETED FOR GOOD: it cannot be restored.',
          'You will be asked to type the username to confirm.',
        ].join('\n\n'),
        'Continue…',
      );
      if (!ok) return false;
      const typed = await prompts().input({
        title: plain(`Remove ${who}`),
        prompt: plain(`Type the username "${m.username}" to confirm.`),
        placeHolder: m.username,
        validateInput: (v) => (v === m.username ? undefined : 'Type the username exactly as shown.'),
      });
      if (typed !== m.username) return false;
      await client.v3.members.delete(m.accountId, m.username);
      views.memberRemoved(m.portalId, m.accountId, m.username);
      void notify.info(`${who} was removed from the organisation.`);
      return true;
    }),
    guarded(log, 'portal.member.copyUsername', async (arg?: unknown) => {
      const m = await chooseMember(arg);
      if (m) await vscode.env.clipboard.writeText(m.username);
    }),
  ];
}
