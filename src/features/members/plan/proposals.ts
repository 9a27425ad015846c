/**
 * A plan from desired member rows, for features that propose changes without a file (contracts.ts): the rows become
 * the members file's model as they are (membersFileOfRows, no CSV written and read back) and go to the worker that
 * plans Plan Changes…' files, which asks for the same group reads and makes the plan with the same code, against the
 * portal as it is now; the plan is then shown in the Plan view. Only reads are sent; whatever the plan holds is
 * applied, if at all, by a person there. Members not among the rows are left alone, so when the rows name fewer
 * members than the member list has pages, only those members are read, one request each, instead of the whole list.
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
import { membersFileOfRows } from './core/file/membersFile';
import { allChanges, type MembersFile } from './core/model';
import { namedUsernames, readNamedPortalState, readPortalState, stateReads } from './core/portalState';
import { rowsInWorker, type PlanMade } from './core/worker/planInWorker';
import { problemMessage } from './editor/problemText';
import type { PlanStore, ShownPlan } from './planStore';
import { PLAN_VIEW } from './planView';

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

/**
 * The plan of the rows, made by the planning worker from the portal read the cheaper way: the named members alone,
 * or the member list. Each member's groups are read as the worker asks, as for a file.
 */
async function planInWorker(
  registry: PortalRegistry,
  account: AccountRef,
  file: MembersFile,
  way: ProposalReads['way'],
  signal: AbortSignal,
): Promise<PlanMade & { readonly requests: number }> {
  const client = registry.client(account.portalId);
  const worker = await rowsInWorker(file);
  try {
    const { accountId } = account;
    const state =
      way === 'named'
        ? await readNamedPortalState(client, accountId, namedUsernames(file), worker.needs, { signal })
        : await readPortalState(client, accountId, worker.needs, { signal });
    const me = registry.get(account.portalId)?.username?.toLowerCase();
    const made = await worker.plan(state, { absent: 'leave', ...(me ? { keep: new Set([me]) } : {}) });
    return { ...made, requests: state.requests };
  } finally {
    await worker.close();
  }
}

export function planProposals(registry: PortalRegistry, store: PlanStore, ui: () => Ui): PlanProposals {
  return {
    reads: (account, rows, signal) => readsFor(registry, account, membersFileOfRows(rows), signal),
    propose: async (account, rows, signal) => {
      const file = membersFileOfRows(rows);
      const reads = await readsFor(registry, account, file, signal);
      const made = await planInWorker(registry, account, file, reads.way, signal);
      // Its title goes into the apply's journal, so the change history says where the change came from.
      const plan = { ...made.plan, title: vscode.l10n.t('Changes proposed in chat') };
      // What keeps a row out of the plan, and what the header names that the portal lacks (a group), for chat to say.
      const problems = [...made.problems, ...(plan.skipped ?? []).flatMap((s) => s.problems)]
        .filter((p) => p.severity === 'error')
        .map(problemMessage);
      const changes = allChanges(plan).length;
      const read = { ...reads, requests: made.requests };
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
