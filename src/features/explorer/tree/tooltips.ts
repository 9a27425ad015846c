/**
 * Tooltips of organisation and group rows. They show what the expand did not fetch (the subscription, the
 * organisation's own word for files), so they are built on hover only, from AccountExtras.
 */
import * as vscode from 'vscode';
import { contentRightsWords, sharingWords } from '../../../shared/contentRights';
import { errorMessage } from '../../../shared/errors';
import { count, filesWord, fullDate, humanSize, shortDate } from '../../../shared/format';
import { accountPermissionWords } from '../../../shared/permissions';
import type { AccountExtras } from './accountExtras';
import {
  describeFileView,
  isDefaultView,
  unappliedWords,
  type FileListView,
  type Unapplied,
} from '../files/fileListView';
import type { AccountRow, GroupRow } from './loaders';

export async function accountTooltip(
  r: AccountRow,
  extras: AccountExtras | undefined,
  cancelled: () => boolean,
): Promise<string> {
  const lines = [
    `${r.friendlyName} (${r.name})`,
    r.planCode ? vscode.l10n.t('Plan: {0}', r.planCode) : vscode.l10n.t('Plan: not reported'),
    ...(r.trialExpires !== null ? [vscode.l10n.t('Trial until {0}', shortDate(r.trialExpires))] : []),
    ...(r.paused ? [vscode.l10n.t('Paused')] : []),
    vscode.l10n.t('Your permission: {0}', accountPermissionWords(r.permission)),
    r.memberOfSpaces === 1
      ? vscode.l10n.t('Member of 1 group')
      : vscode.l10n.t('Member of {0} groups', r.memberOfSpaces),
  ];
  if (!extras) return lines.join('\n');
  void extras.customNames(r.accountId).catch(() => undefined); // warms the file-area labels of this account
  try {
    const s = await extras.subscription(r.accountId);
    if (cancelled()) return lines.join('\n');
    if ('forbidden' in s) {
      lines.push(vscode.l10n.t('Storage and member figures need a Super administrator of this organisation.'));
    } else {
      const p = s.accountPackage;
      lines.push(
        p.suspended
          ? vscode.l10n.t('Subscription: {0} (suspended)', s.plan || p.code)
          : vscode.l10n.t('Subscription: {0}', s.plan || p.code),
      );
      lines.push(
        p.storage !== null
          ? vscode.l10n.t('Storage: {0} of {1}', humanSize(s.storageUsed), humanSize(p.storage))
          : vscode.l10n.t('Storage: {0} used, limit not reported', humanSize(s.storageUsed)),
      );
      lines.push(
        p.members !== null
          ? vscode.l10n.t('Members: {0} of {1}', count(s.membersUsed), count(p.members))
          : vscode.l10n.t('Members: {0}, limit not reported', count(s.membersUsed)),
      );
      if (p.paused && p.datePausedAt !== null) lines.push(vscode.l10n.t('Paused since {0}', fullDate(p.datePausedAt)));
    }
  } catch (error) {
    lines.push(vscode.l10n.t('Plan details could not be loaded: {0}', errorMessage(error)));
  }
  return lines.join('\n');
}

export async function groupTooltip(r: GroupRow, extras: AccountExtras | undefined): Promise<string> {
  const lines = [
    `${r.friendlyName} (${r.name})`,
    r.members === 1 ? vscode.l10n.t('1 member') : vscode.l10n.t('{0} members', count(r.members)),
    vscode.l10n.t('Storage used: {0}', humanSize(r.storageConsumed)),
  ];
  if (r.lastModified) lines.push(vscode.l10n.t('Modified {0}', shortDate(r.lastModified)));
  try {
    const words = filesWord(await extras?.customNames(r.accountId));
    if (words.own) lines.push(vscode.l10n.t('Files are called "{0}" here.', words.many));
  } catch {
    // Custom names only decorate the tooltip.
  }
  return lines.join('\n');
}

/** The group's order and filters of its file records, and what the portal was seen to ignore of them. */
export function fileViewTooltip(view: FileListView, ignored: ReadonlySet<Unapplied>): string[] {
  if (isDefaultView(view)) return [];
  const lines = [vscode.l10n.t('Files listed: {0}', describeFileView(view, new Set()).join(' · '))];
  const words = unappliedWords(view, ignored);
  if (words) lines.push(vscode.l10n.t('This portal ignored {0}: the rows are as it listed them.', words));
  return lines;
}

/** A file record's content rights as its listing gave them: who it is shared with and what members may do. */
export function fileRightsTooltip(r: { sharing: string | null; memberPermission: number | null }): string[] {
  return [
    vscode.l10n.t('Shared with: {0}', sharingWords(r.sharing)),
    vscode.l10n.t('Member permission: {0}', contentRightsWords(r.memberPermission)),
  ];
}
