/**
 * Offboard Members… and Remove from All Groups: on a selection in the Members view, from the palette (members
 * picked, or the people on a list of leavers), or from the CodeLens on such a list. Each person is read whole (every
 * group's level), the plan is shown in the Plan view, and Apply's one confirmation says what changes; the engine
 * journals it, reports it, and its Undo puts people back one by one.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { count } from '../../../shared/format';
import { MAX_TAG_LENGTH } from '../../../shared/memberRules';
import { plain } from '../../../shared/plainText';
import { memberOf, type AccountRef } from '../../../shared/refs';
import { accountFor } from '../../../targets/resolve';
import type { Run } from '../../../ui/commands';
import { answered, type Ui } from '../../../ui/ui';
import { Vouched } from '../../../ui/vouched';
import { groupLevelsOf, portalMemberOf, readGroups } from '../../../engine/members/index';
import { runPool } from '../../../node/pool';
import { selectedMembers } from '../bulk/bulk';
import { importTemp } from '../import/importCommand';
import { readSheet } from '../import/sheet';
import { allChanges, type Plan, type PortalGroup, type PortalMember } from '../plan/core/model';
import { readPortalState } from '../plan/core/portalState';
import type { ShownPlan } from '../plan/planStore';
import { PLAN_VIEW } from '../plan/planView';
import type { PlanStore } from '../plan/planStore';
import type { MembersProvider } from '../view/membersProvider';
import { leaverTag, offboardPlan, removeFromGroupsPlan, type OffboardChoices } from './offboardPlan';
import { leaversIn } from './leavers';
import { cancellableProgress } from '../../../ui/cancellableProgress';

export interface OffboardDeps {
  readonly registry: PortalRegistry;
  readonly provider: MembersProvider;
  readonly store: PlanStore;
  /** Applies the plan on show after its confirmation (the Plan view's Apply). */
  readonly apply: (ui: Ui, shown: ShownPlan) => Promise<boolean>;
  /** The extension's storage: a list's reader keeps its temporary files under it. */
  readonly storage: string;
  /** The clock the default tag is read from. */
  readonly now: () => Date;
}

/** A list of leavers, as its CodeLens hands it to the command. */
export class LeaversList extends Vouched {
  readonly ref = undefined;
  constructor(readonly file: vscode.Uri) {
    super();
  }
}

interface Leavers {
  readonly account: AccountRef;
  readonly usernames: readonly string[];
}

/** Members read at once, each two reads (the member, then their groups). */
const READS_AT_ONCE = 4;

/** Each person as the portal holds them, with every group's level: what the plan changes and its Undo puts back. */
async function readWhole(
  ui: Ui,
  deps: OffboardDeps,
  account: AccountRef,
  usernames: readonly string[],
): Promise<{ groups: PortalGroup[]; members: PortalMember[] }> {
  const client = deps.registry.client(account.portalId);
  return cancellableProgress(
    ui,
    'members.offboard.read',
    vscode.l10n.t('Reading {0} of {1}…', membersText(usernames.length), plain(account.label)),
    async (progress, signal) => {
      const groups = await readGroups(client, account.accountId, { signal });
      const members: PortalMember[] = new Array<PortalMember>(usernames.length);
      let done = 0;
      await runPool(
        usernames,
        READS_AT_ONCE,
        async (username, i) => {
          const v3 = await client.v3.members.get(account.accountId, username, { signal });
          const v2 = await client.v2.members.get(account.accountId, username, { signal });
          members[i] = { ...portalMemberOf(v3), groups: groupLevelsOf(v2.groups, groups) };
          progress.report({ increment: 100 / usernames.length, message: `${++done} / ${usernames.length}` });
        },
        signal,
      );
      signal.throwIfAborted();
      return { groups, members };
    },
  );
}

function membersText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 member') : vscode.l10n.t('{0} members', count(n));
}

/** The organisation's members, one walk of its list. */
function readMembers(ui: Ui, deps: OffboardDeps, account: AccountRef) {
  const client = deps.registry.client(account.portalId);
  return cancellableProgress(
    ui,
    'members.offboard.list',
    vscode.l10n.t('Reading the members of {0}…', plain(account.label)),
    (_progress, signal) => readPortalState(client, account.accountId, undefined, { signal }),
  );
}

/** The members picked from the organisation's list (read once, whole). */
async function pickMembers(run: Run, deps: OffboardDeps, account: AccountRef): Promise<string[]> {
  const state = await readMembers(run.ui, deps, account);
  const items = [...state.members.values()]
    .sort((a, b) => a.username.localeCompare(b.username))
    .map((m) => ({
      label: plain(m.name || m.username),
      description: [m.username, m.enabled ? '' : vscode.l10n.t('disabled')].filter(Boolean).join(' · '),
      value: m.username,
    }));
  const picked = answered(
    await run.ui.pickMany(items, {
      id: 'members.offboard.pick',
      title: vscode.l10n.t('Offboard members of {0}', plain(account.label)),
      placeHolder: vscode.l10n.t('Who is leaving?'),
      matchOnDescription: true,
    }),
  );
  return picked.length ? picked : answered<string[]>(undefined);
}

/** A .csv or .xlsx of the workspace, newest first. */
async function pickList(ui: Ui): Promise<vscode.Uri> {
  const found = await vscode.workspace.findFiles('**/*.{xlsx,csv,XLSX,CSV}', '**/node_modules/**', 200);
  const files = found.filter((u) => u.scheme === 'file');
  if (files.length === 0)
    throw new Error(vscode.l10n.t('No .xlsx or .csv file in this workspace: open the list first.'));
  return answered(
    await ui.pick(
      files.map((u) => ({
        label: u.path.split('/').pop() ?? u.fsPath,
        description: vscode.workspace.asRelativePath(u),
        value: u,
      })),
      { id: 'members.offboard.list.file', placeHolder: vscode.l10n.t('Which list of leavers?') },
    ),
  );
}

/** The people on a list, matched to members by username or e-mail; those not found are named. */
async function fromList(run: Run, deps: OffboardDeps, file: vscode.Uri): Promise<Leavers> {
  const account = deps.provider.account ?? (await accountFor(run, deps.registry));
  const sheet = await readSheet(file.fsPath, importTemp(deps.storage));
  const state = await readMembers(run.ui, deps, account);
  const found = leaversIn(sheet, state.members.values());
  if ('problem' in found)
    throw new Error(
      vscode.l10n.t('{0} has no e-mail or username column: nobody to offboard.', file.path.split('/').pop() ?? ''),
    );
  if (found.notFound.length > 0)
    run.ui.notify(
      'warning',
      found.notFound.length === 1
        ? vscode.l10n.t(
            '1 person on the list is not a member of {0}: {1}',
            plain(account.label),
            plain(found.notFound[0] ?? ''),
          )
        : vscode.l10n.t(
            '{0} people on the list are not members of {1}: {2}',
            count(found.notFound.length),
            plain(account.label),
            found.notFound
              .slice(0, 10)
              .map((n) => plain(n))
              .join(', '),
          ),
    );
  if (found.usernames.length === 0)
    throw new Error(vscode.l10n.t('Nobody on the list is a member of {0}.', plain(account.label)));
  return { account, usernames: found.usernames };
}

/** Who is leaving: the selected rows, the row clicked, the list the lens is on, or asked. */
async function whoLeaves(run: Run, deps: OffboardDeps): Promise<Leavers> {
  const many = selectedMembers(run);
  if (many?.[0]) return { account: many[0].account, usernames: many.map((m) => m.username) };
  const one = memberOf(run.target);
  if (one) return { account: one.account, usernames: [one.username] };
  if (run.node instanceof LeaversList) return fromList(run, deps, run.node.file);
  const account = deps.provider.account ?? (await accountFor(run, deps.registry));
  const how = answered(
    await run.ui.pick(
      [
        { label: vscode.l10n.t('Choose members of {0}…', plain(account.label)), value: 'pick' as const },
        { label: vscode.l10n.t('People on a list of leavers (a .csv or .xlsx)…'), value: 'list' as const },
      ],
      { id: 'members.offboard.who', placeHolder: vscode.l10n.t('Who is leaving?') },
    ),
  );
  if (how === 'list') return fromList(run, deps, await pickList(run.ui));
  return { account, usernames: await pickMembers(run, deps, account) };
}

/** The one question of options, and the tag when chosen. */
async function askChoices(ui: Ui, deps: OffboardDeps, n: number): Promise<OffboardChoices> {
  const tag = leaverTag(deps.now());
  const chosen = new Set(
    answered(
      await ui.pickMany(
        [
          { label: vscode.l10n.t('Lock them'), value: 'lock' as const },
          {
            label: vscode.l10n.t('Tag them "{0}"', tag),
            description: vscode.l10n.t('the tag can be changed next'),
            value: 'tag' as const,
          },
          {
            label: vscode.l10n.t('Remove them from the organisation'),
            detail: vscode.l10n.t(
              'Instead of disabling them: they lose every group. A member of no other organisation is deleted for good, after a snapshot, and you type the count to confirm.',
            ),
            value: 'remove' as const,
          },
        ],
        {
          id: 'members.offboard.options',
          title:
            n === 1
              ? vscode.l10n.t('Offboard 1 member: disabled and removed from every group')
              : vscode.l10n.t('Offboard {0} members: disabled and removed from every group', count(n)),
          placeHolder: vscode.l10n.t('Also (none is fine):'),
        },
      ),
    ),
  );
  const remove = chosen.has('remove');
  const typed =
    chosen.has('tag') && !remove
      ? answered(
          await ui.input({
            id: 'members.offboard.tag',
            title: vscode.l10n.t('Tag the people leaving'),
            prompt: vscode.l10n.t('The tag each of them gets.'),
            value: tag,
            validate: (v) =>
              v.trim() === ''
                ? vscode.l10n.t('A tag needs at least one character other than spaces.')
                : v.trim().length > MAX_TAG_LENGTH
                  ? vscode.l10n.t('A tag has at most {0} characters.', MAX_TAG_LENGTH)
                  : undefined,
          }),
        ).trim()
      : undefined;
  return { lock: chosen.has('lock') && !remove, remove, ...(typed ? { tag: typed } : {}) };
}

/** Shows the plan and asks its Apply; a plan with nothing to change says so instead. */
async function showAndApply(ui: Ui, deps: OffboardDeps, plan: Plan, account: AccountRef): Promise<void> {
  if (allChanges(plan).length === 0) {
    ui.notify('info', vscode.l10n.t('Nothing to change: they are disabled and in no group already.'));
    return;
  }
  const shown = deps.store.show(plan, account, undefined);
  await vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
  await deps.apply(ui, shown);
}

/** Offboard Members…: who, the one question of options, the plan, its Apply. */
export async function offboardMembers(run: Run, deps: OffboardDeps): Promise<void> {
  const who = await whoLeaves(run, deps);
  const choices = await askChoices(run.ui, deps, who.usernames.length);
  const read = await readWhole(run.ui, deps, who.account, who.usernames);
  const plan = offboardPlan(who.account.accountId, read.groups, read.members, choices, deps.now().getTime());
  await showAndApply(run.ui, deps, plan, who.account);
}

/** Remove from All Groups: the selection (or the row) taken out of every group, as a plan. */
export async function removeFromAllGroups(run: Run, deps: OffboardDeps): Promise<void> {
  const many = selectedMembers(run);
  const one = memberOf(run.target);
  const who: Leavers = many?.[0]
    ? { account: many[0].account, usernames: many.map((m) => m.username) }
    : one
      ? { account: one.account, usernames: [one.username] }
      : await (async () => {
          const account = deps.provider.account ?? (await accountFor(run, deps.registry));
          return { account, usernames: await pickMembers(run, deps, account) };
        })();
  const read = await readWhole(run.ui, deps, who.account, who.usernames);
  const plan = removeFromGroupsPlan(who.account.accountId, read.groups, read.members, deps.now().getTime());
  if (allChanges(plan).length === 0) {
    run.ui.notify('info', vscode.l10n.t('Nothing to change: they are in no group.'));
    return;
  }
  const shown = deps.store.show(plan, who.account, undefined);
  await vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
  await deps.apply(run.ui, shown);
}
