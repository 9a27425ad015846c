/**
 * A plan from desired member rows, for features that propose changes without a file (contracts.ts): the rows are
 * written as a members file and planned exactly as Plan Changes… plans one, against the portal as it is now, then
 * shown in the Plan view. Only reads are sent; whatever the plan holds is applied, if at all, by a person there.
 * Members not among the rows are left alone.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { PlanProposals } from '../../contracts';
import { csvLine } from '../csv/csv';
import { allChanges, diagnose, makePlan, parseMembersFile, readPortalState } from './core/index';
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

export function planProposals(registry: PortalRegistry, store: PlanStore): PlanProposals {
  return {
    propose: async (account, rows, signal) => {
      const file = parseMembersFile(membersFileText(rows));
      const client = registry.client(account.portalId);
      const state = await readPortalState(client, account.accountId, file, { signal });
      const me = registry.get(account.portalId)?.username?.toLowerCase();
      const plan = makePlan(file, state, { absent: 'leave', ...(me ? { keep: new Set([me]) } : {}) });
      const problems = diagnose(file, { groups: state.groups, members: state.members })
        .filter((p) => p.severity === 'error')
        .map(problemMessage);
      store.show(plan, account, undefined);
      await vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
      return { changes: allChanges(plan).length, problems };
    },
  };
}
