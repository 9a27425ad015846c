/**
 * "Export Members to CSV": every member the view's query matches (its search or tag filter, in its order), not just
 * the rows loaded, written through a temporary file so a cancelled or failed export leaves nothing behind.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { isCancellation } from '../../../shared/errors';
import { count } from '../../../shared/format';
import { describeQuery, type MemberQuery } from '../../../shared/members';
import type { AccountRef } from '../../../shared/refs';
import type { Ui } from '../../../ui/ui';

import { writeMembersCsv, type MemberColumn } from './membersCsv';

function headers(): Record<MemberColumn, string> {
  return {
    username: vscode.l10n.t('Username'),
    name: vscode.l10n.t('Name'),
    email: vscode.l10n.t('E-mail'),
    enabled: vscode.l10n.t('Enabled'),
    locked: vscode.l10n.t('Locked'),
    accountPermission: vscode.l10n.t('Account permission'),
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

/** Writes the CSV; returns the number of members written, or undefined when the user cancelled. */
export async function exportMembers(
  registry: PortalRegistry,
  ui: Ui,
  account: AccountRef,
  query: MemberQuery,
): Promise<number | undefined> {
  const file = await ui.saveFile({
    id: 'members.export.file',
    title: vscode.l10n.t('Export the members of {0}', account.label),
    defaultName: defaultName(account),
    filters: { [vscode.l10n.t('CSV files')]: ['csv'] },
  });
  if (!file) return undefined;
  const filter = describeQuery(query);
  const title = filter
    ? vscode.l10n.t('Exporting members of {0} ({1})…', account.label, filter)
    : vscode.l10n.t('Exporting members of {0}…', account.label);
  const client = registry.client(account.portalId);
  try {
    const { rows } = await ui.progress(
      { id: 'members.export.progress', title, where: 'notification', cancellable: true },
      (progress, signal) => {
        let reported = 0;
        return writeMembersCsv(client, account.accountId, query, file, {
          signal,
          headers: headers(),
          onProgress: (written, total) => {
            const share = total ? (100 * written) / total : 0;
            progress.report({
              increment: share - reported,
              message: total ? vscode.l10n.t('{0} of {1}', count(written), count(total)) : count(written),
            });
            reported = share;
          },
        });
      },
    );
    ui.notify('info', vscode.l10n.t('Exported {0} members to {1}.', count(rows), file));
    return rows;
  } catch (error) {
    if (!isCancellation(error)) throw error;
    ui.notify('info', vscode.l10n.t('The export was cancelled; no file was written.'));
    return undefined;
  }
}
