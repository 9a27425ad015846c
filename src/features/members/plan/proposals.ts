/**
 * A plan from desired member rows, for features that propose changes without a file (contracts.ts): the rows are
 * written as a members file and planned exactly as Plan Changes… plans one, against the portal as it is now, then
 * shown in the Plan view. Only reads are sent; whatever the plan holds is applied, if at all, by a person there.
 * Members not among the rows are left alone, so when the rows name fewer members than the member list has pages,
 * only those members are read, one request each, instead of the whole list.
 *
 * A plan on show is someone's review in progress, with the changes they left out: a proposal never replaces it in
 * silence. A modal question names both plans first, and a person who keeps theirs has chat told so.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { Cancelled } from '../../../shared/errors';
import { count } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';
import type { Ui } from '../../../ui/ui';
import type { PlanProposals, ProposalReads } from '../../contracts';
import { csvLine } from '../csv/csv';
import { diagnose } from './core/file/diagnose';
import { parseMembersFile } from './core/file/membersFile';
import { allChanges, type MembersFile } from './core/model';
import { makePlan } from './core/planner';
import { readNamedPortalState, readPortalState, stateReads } from './core/portalState';
import { problemMessage } from './editor/problemText';
import type { PlanStore, ShownPlan } from './planStore';
import { PLAN_VIEW } from './planView';

/** The rows as a members file: one column per key any row has, `username` first. */
function membersFileText(rows: readonly Readonly<Record<string, string>>[]): string {
  const keys = ['username'];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  let text = csvLine(keys);
  for (const row of rows) text += csvLine(keys.map((k) => row[k] ?? ''));
  return text;
}

/** The cheaper way to read the portal for `file`: the first list page (one small request) says how many members. */
async function readsFor(
  registry: PortalRegistry,
  account: AccountRef,
  file: MembersFile,
  signal: AbortSignal,
): Promise<ProposalReads> {
  const first = await registry
    .client(account.portalId)
    .v3.members.page(account.accountId, { page: 1, size: 1 }, { signal });
  // A portal that answers the whole list at once gives no total: its one answer is the walk.
  const members = first.totalResults ?? first.items.length;
  const r = stateReads(file, members, first.totalResults === undefined && !first.hasNext ? 1 : undefined);
  return r.named <= r.list
    ? { way: 'named', requests: r.named, otherWay: r.list, members }
    : { way: 'list', requests: r.list, otherWay: r.named, members };
}

/** The plan on show, in words that tell it from a proposal: where it came from, for whom, how many changes. */
function shownWords(shown: ShownPlan): string {
  const label = plain(shown.account.label);
  const changes = count(allChanges(shown.plan).length);
  if (shown.proposedInChat) return vscode.l10n.t('a plan proposed in chat for {0} ({1} changes)', label, changes);
  if (shown.file)
    return vscode.l10n.t(
      'the plan of {0} for {1} ({2} changes)',
      plain(path.basename(shown.file.fsPath)),
      label,
      changes,
    );
  if (shown.plan.title)
    return vscode.l10n.t('the plan "{0}" for {1} ({2} changes)', plain(shown.plan.title), label, changes);
  return vscode.l10n.t('a plan for {0} ({1} changes)', label, changes);
}

/**
 * Whether the proposal may take the Plan view: yes when nothing is on show, else the person's answer. A plan put on
 * show while the question was open is asked about in turn.
 */
async function mayReplace(ui: Ui, store: PlanStore, account: AccountRef, changes: number): Promise<boolean> {
  for (let asked = store.plan; asked !== undefined; asked = store.plan) {
    const yes = await ui.confirm({
      id: 'plan.proposal.replace',
      message: vscode.l10n.t('Replace the plan you are reviewing with a plan proposed in chat?'),
      detail: vscode.l10n.t(
        'On show: {0}.\nProposed in chat: a plan for {1} ({2} changes).\nCancel keeps the plan on show, with what you left out of it; chat is told you kept it.',
        shownWords(asked),
        plain(account.label),
        count(changes),
      ),
      action: vscode.l10n.t('Show the Proposed Plan'),
    });
    if (!yes) return false;
    if (store.plan === asked) return true;
  }
  return true;
}

export function planProposals(registry: PortalRegistry, store: PlanStore, ui: () => Ui): PlanProposals {
  return {
    reads: (account, rows, signal) => readsFor(registry, account, parseMembersFile(membersFileText(rows)), signal),
    propose: async (account, rows, signal) => {
      const file = parseMembersFile(membersFileText(rows));
      const client = registry.client(account.portalId);
      const reads = await readsFor(registry, account, file, signal);
      const state = await (reads.way === 'named' ? readNamedPortalState : readPortalState)(
        client,
        account.accountId,
        file,
        { signal },
      );
      const me = registry.get(account.portalId)?.username?.toLowerCase();
      // Its title goes into the apply's journal, so the change history says where the change came from.
      const plan = {
        ...makePlan(file, state, { absent: 'leave', ...(me ? { keep: new Set([me]) } : {}) }),
        title: vscode.l10n.t('Changes proposed in chat'),
      };
      const problems = diagnose(file, { groups: state.groups, members: state.members })
        .filter((p) => p.severity === 'error')
        .map(problemMessage);
      const changes = allChanges(plan).length;
      const read = { ...reads, requests: state.requests };
      const shown = await mayReplace(ui(), store, account, changes);
      // The chat was stopped while the question was open: nothing is shown on its behalf.
      if (signal.aborted) throw new Cancelled();
      if (shown) {
        store.show(plan, account, undefined, { proposedInChat: true });
        await vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
      }
      return { changes, problems, read, shown };
    },
  };
}
