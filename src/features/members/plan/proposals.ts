/**
 * A plan from desired member rows, for features that propose changes without a file (contracts.ts): the rows are
 * written as a members file and planned exactly as Plan Changes… plans one, against the portal as it is now, then
 * shown in the Plan view. Only reads are sent; whatever the plan holds is applied, if at all, by a person there.
 * Members not among the rows are left alone, so when the rows name fewer members than the member list has pages,
 * only those members are read, one request each, instead of the whole list.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { AccountRef } from '../../../shared/refs';
import type { PlanProposals, ProposalReads } from '../../contracts';
import { csvLine } from '../csv/csv';
import { diagnose } from './core/file/diagnose';
import { parseMembersFile } from './core/file/membersFile';
import { allChanges, type MembersFile } from './core/model';
import { makePlan } from './core/planner';
import { readNamedPortalState, readPortalState, stateReads } from './core/portalState';
import { problemMessage } from './editor/problemText';
import type { PlanStore } from './planStore';
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

export function planProposals(registry: PortalRegistry, store: PlanStore): PlanProposals {
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
      const plan = makePlan(file, state, { absent: 'leave', ...(me ? { keep: new Set([me]) } : {}) });
      const problems = diagnose(file, { groups: state.groups, members: state.members })
        .filter((p) => p.severity === 'error')
        .map(problemMessage);
      store.show(plan, account, undefined);
      await vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
      return { changes: allChanges(plan).length, problems, read: { ...reads, requests: state.requests } };
    },
  };
}
