/**
 * "Export Members to CSV": every member the view's query matches (its search, tag, activity and state filter, in its
 * order), not just the rows loaded, written through a temporary file so a cancelled or failed export leaves nothing
 * behind. The save dialog, the progress and the summary name the filter, so the file is never taken for everyone.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { isCancellation } from '../../../shared/errors';
import { count } from '../../../shared/format';
import { describeQuery, type MemberQuery } from '../../../shared/members';
import type { GroupsReader, NeverSignedInReader } from '../../../shared/activityScan';
import type { AccountRef } from '../../../shared/refs';
import { answered, type Ui } from '../../../ui/ui';

import { aboutDuration } from '../../../shared/duration';
import { estimateExportCost, writeMembersCsv, type ExportGroup, type MemberColumn } from './membersCsv';
import { announceFileWritten } from '../../../ui/fileWritten';
import { cancellableProgress } from '../../../ui/cancellableProgress';

/** The export's header labels in the user's language (a members file is read back with them too). */
export function memberHeaders(): Record<MemberColumn, string> {
  return {
    username: vscode.l10n.t('Username'),
    name: vscode.l10n.t('Name'),
    email: vscode.l10n.t('E-mail'),
    enabled: vscode.l10n.t('Enabled'),
    locked: vscode.l10n.t('Locked'),
    accountPermission: vscode.l10n.t('Organisation permission'),
    tags: vscode.l10n.t('Tags'),
    twoFactor: vscode.l10n.t('Two-factor'),
    created: vscode.l10n.t('Member since'),
    lastActive: vscode.l10n.t('Last active'),
    jobTitle: vscode.l10n.t('Job title'),
  };
}

/** A file name from the organisation's name: letters, digits, dots and dashes only. */
function defaultName(account: AccountRef): string {
  const base =
    account.label
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || `account-${account.accountId}`;
  return `${base}-members.csv`;
}

/** What the group columns cost, in words: one read per member, the requests and the time within the budget. */
function groupsCost(total: number | undefined, budget: { readonly limit: number; readonly windowMs: number }): string {
  if (total === undefined) return vscode.l10n.t('One more request per member, within the request budget.');
  const cost = estimateExportCost(total, { groups: true, budget });
  const time = aboutDuration(cost.seconds * 1000);
  return cost.budgetBound
    ? vscode.l10n.t(
        'One more request per member: {0} requests in all, {1}, paced by the request budget ({2} requests per {3}).',
        count(cost.requests),
        time,
        count(budget.limit),
        aboutDuration(budget.windowMs),
      )
    : vscode.l10n.t('One more request per member: {0} requests in all, {1}.', count(cost.requests), time);
}

/** With group columns: the organisation's groups; without: undefined. */
async function askGroups(
  registry: PortalRegistry,
  ui: Ui,
  account: AccountRef,
  total: number | undefined,
): Promise<ExportGroup[] | undefined> {
  const client = registry.client(account.portalId);
  const withGroups = answered(
    await ui.pick(
      [
        {
          label: vscode.l10n.t('Members only'),
          detail: vscode.l10n.t('One request per 100 members.'),
          value: false,
        },
        {
          label: vscode.l10n.t('Members and their group permissions'),
          description: vscode.l10n.t('one column per group'),
          detail: groupsCost(total, client.budget),
          value: true,
        },
      ],
      { id: 'members.export.groups', placeHolder: vscode.l10n.t("Include each member's group permissions?") },
    ),
  );
  if (!withGroups) return undefined;
  const groups = await client.v2.groups.list(account.accountId);
  return groups.map((g) => ({ id: g.id, name: g.name }));
}

/** "Exported 12 members (tag: x) to …": plural-correct. */
function exportedWords(rows: number, filter: string | undefined, file: string): string {
  if (rows === 1)
    return filter
      ? vscode.l10n.t('Exported 1 member ({0}) to {1}.', filter, file)
      : vscode.l10n.t('Exported 1 member to {0}.', file);
  return filter
    ? vscode.l10n.t('Exported {0} members ({1}) to {2}.', count(rows), filter, file)
    : vscode.l10n.t('Exported {0} members to {1}.', count(rows), file);
}

export interface ExportOptions {
  /** Members the query matches, when the view knows: the cost of group columns is stated with it. */
  readonly total?: number;
  /** After a file was written (the plan feature remembers which organisation it came from). */
  readonly onExported?: (file: string, account: AccountRef) => void | Promise<void>;
  /** Where a filter scoped to a group learns members' groups: the one the view uses, so the file holds its rows. */
  readonly memberGroups?: GroupsReader;
  /** Who never signed in: the one the view uses, so the file holds its rows. */
  readonly neverSignedIn?: NeverSignedInReader;
}

/** Writes the CSV; returns the number of members written, or undefined when the user cancelled. */
export async function exportMembers(
  registry: PortalRegistry,
  ui: Ui,
  account: AccountRef,
  query: MemberQuery,
  options: ExportOptions = {},
): Promise<number | undefined> {
  const filter = describeQuery(query);
  // What to export first: where to save it is the last thing asked, once the user knows what the file holds.
  const groups = await askGroups(registry, ui, account, options.total);
  const file = await ui.saveFile({
    id: 'members.export.file',
    title: filter
      ? vscode.l10n.t('Export the members of {0} ({1})', account.label, filter)
      : vscode.l10n.t('Export the members of {0}', account.label),
    defaultName: defaultName(account),
    filters: { [vscode.l10n.t('CSV files')]: ['csv'] },
  });
  if (!file) return undefined;
  const title = filter
    ? vscode.l10n.t('Exporting members of {0} ({1})…', account.label, filter)
    : vscode.l10n.t('Exporting members of {0}…', account.label);
  const client = registry.client(account.portalId);
  try {
    const { rows } = await cancellableProgress(ui, 'members.export.progress', title, (progress, signal) => {
      let reported = 0;
      return writeMembersCsv(client, account.accountId, query, file, {
        signal,
        headers: memberHeaders(),
        ...(groups ? { groups } : {}),
        ...(options.memberGroups ? { memberGroups: options.memberGroups } : {}),
        ...(options.neverSignedIn ? { neverSignedIn: options.neverSignedIn } : {}),
        onProgress: (written, total) => {
          const share = total ? (100 * written) / total : 0;
          progress.report({
            increment: share - reported,
            message: total ? vscode.l10n.t('{0} of {1}', count(written), count(total)) : count(written),
          });
          reported = share;
        },
      });
    });
    await options.onExported?.(file, account);
    announceFileWritten(ui, 'members.export.done', exportedWords(rows, filter, file), file);
    return rows;
  } catch (error) {
    if (!isCancellation(error)) throw error;
    ui.notify('info', vscode.l10n.t('The export was cancelled; no file was written.'));
    return undefined;
  }
}
