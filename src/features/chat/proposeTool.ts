/**
 * The one tool that concerns writes, and it writes nothing: desired member rows in the members file's own columns
 * become a plan through the same planner as a members file, shown in the Plan view. A person reviews it there and
 * applies it, or not; chat has no tool that applies. Only reads reach the portal.
 */
import * as vscode from 'vscode';
import type { DesiredMemberRow, PlanProposals } from '../contracts';
import { quoted } from './answers';
import { TargetError, type TargetInput } from './target';
import { defineTool, objectOf, targetInput, type ToolEnv } from './toolKit';

/** The members file's columns a row may give (plus `group:<name>`); read-only and export-only columns are not. */
const COLUMNS = ['username', 'name', 'email', 'jobTitle', 'enabled', 'locked', 'accountPermission', 'tags'] as const;
const MAX_ROWS = 1000;

interface ProposeInput extends TargetInput {
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

export function proposeTool(env: ToolEnv, proposals: PlanProposals): vscode.LanguageModelTool<object> {
  return defineTool<ProposeInput>(env, {
    name: 'portal_proposeMemberChanges',
    input: (raw) => {
      const o = objectOf(raw);
      const rows = Array.isArray(o.rows) ? o.rows : [];
      if (rows.length === 0) throw new TargetError('The input needs "rows": at least one desired member row.', []);
      if (rows.length > MAX_ROWS) throw new TargetError(`At most ${MAX_ROWS} rows at a time.`, []);
      return { ...targetInput(o), rows: rows.map(rowOf) };
    },
    prepare: (input, target) =>
      Promise.resolve({
        invocationMessage: vscode.l10n.t(
          'Planning changes to {0} members of {1}…',
          input.rows.length,
          target.accountName,
        ),
      }),
    run: async (input, target, signal) => {
      const { changes, problems } = await proposals.propose(target.account, input.rows, signal);
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
        },
      };
    },
  });
}
