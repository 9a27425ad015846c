/**
 * The one tool that concerns writes, and it writes nothing: desired member rows in the members file's own columns
 * become a plan through the same planner as a members file, shown in the Plan view. A person reviews it there and
 * applies it, or not; chat has no tool that applies. Only reads reach the portal. A plan the person is reviewing is
 * replaced only when they say so, and the answer says when they kept theirs.
 */
import * as vscode from 'vscode';
import { count } from '../../shared/format';
import type { AccessHandle, BudgetEstimate, DesiredMemberRow, PlanProposals, ProposalReads } from '../contracts';
import { quoted } from './answers';
import { askBeforeLongRead, windowMinutes } from './longRead';
import { TargetError } from './target';
import { defineTool, objectOf, type ToolEnv } from './toolKit';

/** The members file's columns a row may give (plus `group:<name>`); read-only and export-only columns are not. */
const COLUMNS = ['username', 'name', 'email', 'jobTitle', 'enabled', 'locked', 'accountPermission', 'tags'] as const;
const MAX_ROWS = 1000;

interface ProposeInput {
  readonly rows: readonly DesiredMemberRow[];
}

function cell(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.filter((x) => typeof x === 'string').join(', ');
  return undefined;
}

/** A row as the members file has it; `groups: {name: level}` is taken as the `group:<name>` columns. */
function rowOf(raw: unknown): DesiredMemberRow {
  const o = objectOf(raw);
  const row: Record<string, string> = {};
  for (const key of COLUMNS) {
    const v = cell(o[key]);
    if (v !== undefined) row[key] = v;
  }
  const groups = { ...objectOf(o.groups) };
  for (const [k, v] of Object.entries(o)) if (k.startsWith('group:')) groups[k.slice(6)] = v;
  for (const [name, level] of Object.entries(groups)) {
    const v = cell(level ?? '');
    if (v !== undefined && name.trim()) row[`group:${name.trim()}`] = v;
  }
  if (!row.username?.trim()) throw new TargetError('Every row needs a "username".', []);
  return row;
}

/** Why the plan reads what it reads, for the question before a long read. */
function readsWords(r: ProposalReads, named: number, e: BudgetEstimate): string {
  const budget = [e.etaWords, count(e.limit), windowMinutes(e)] as const;
  return r.way === 'named'
    ? vscode.l10n.t(
        'The plan compares the rows with the portal as it is now, so it reads the {0} members the rows name, one request each, and their groups: {1} requests, {2} within the request budget of {3} requests every {4} minutes. Nothing is written.',
        count(named),
        count(r.requests),
        ...budget,
      )
    : vscode.l10n.t(
        'The plan compares the rows with the portal as it is now, so it reads the member list of {0} members, and the groups of the members the rows name: {1} requests, {2} within the request budget of {3} requests every {4} minutes (reading the named members one at a time would take {5}). Nothing is written.',
        count(r.members),
        count(r.requests),
        ...budget,
        count(r.otherWay),
      );
}

/** What the answer says of the reads: the way taken, and the requests it took instead of the other way's. */
function readsAnswer(r: ProposalReads, named: number): object {
  return {
    way: r.way,
    requests: r.requests,
    note:
      r.way === 'named'
        ? `Only the ${named} member(s) the rows name were read, one request each, instead of the member list of ${r.members} members (${r.otherWay} requests).`
        : `The member list of ${r.members} members was read: fewer requests than reading the ${named} named members one at a time (${r.otherWay} requests).`,
  };
}

const namedCount = (rows: readonly DesiredMemberRow[]) =>
  new Set(rows.map((r) => r.username?.trim().toLowerCase())).size;

export function proposeTool(
  env: ToolEnv,
  proposals: PlanProposals,
  store: AccessHandle,
): vscode.LanguageModelTool<object> {
  return defineTool<ProposeInput>(env, {
    name: 'portal_proposeMemberChanges',
    input: (o) => {
      const rows = Array.isArray(o.rows) ? o.rows : [];
      if (rows.length === 0) throw new TargetError('The input needs "rows": at least one desired member row.', []);
      if (rows.length > MAX_ROWS) throw new TargetError(`At most ${MAX_ROWS} rows at a time.`, []);
      return { rows: rows.map(rowOf) };
    },
    prepare: async (input, target, signal) => {
      const reads = await proposals.reads(target.account, input.rows, signal);
      const named = namedCount(input.rows);
      return askBeforeLongRead(store, target, reads.requests, {
        running: vscode.l10n.t('Planning changes to {0} members of {1}…', input.rows.length, target.accountName),
        title: vscode.l10n.t('Read the portal to plan changes to {0}?', target.accountName),
        message: (e) => readsWords(reads, named, e),
      });
    },
    run: async (input, target, signal) => {
      const { changes, problems, read, shown } = await proposals.propose(target.account, input.rows, signal);
      if (!shown)
        return {
          outcome: 'declined',
          answer: {
            changes,
            applied: 0,
            shown: false,
            message:
              'The person kept the plan they were reviewing in the Plan view: this plan was not shown, and nothing was applied. Do not propose it again unless they ask for it.',
          },
        };
      return {
        outcome: 'proposed',
        answer: {
          changes,
          applied: 0,
          message:
            changes === 1
              ? 'A plan of 1 change is waiting for your review in the Plan view. Nothing was applied: only a person applies it there.'
              : `A plan of ${changes} changes is waiting for your review in the Plan view. Nothing was applied: only a person applies it there.`,
          problems: problems.slice(0, 50).map(quoted),
          portalReads: readsAnswer(read, namedCount(input.rows)),
        },
      };
    },
  });
}
