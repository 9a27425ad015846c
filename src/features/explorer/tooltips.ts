/**
 * Tooltips of organisation and group rows. They show what the expand did not fetch (the subscription, the
 * organisation's own word for files), so they are built on hover only, from AccountExtras.
 */
import { accountPermissionLabel } from '../../api';
import { errorMessage } from '../../shared/errors';
import { count, filesWord, fullDate, humanSize, shortDate } from '../../shared/format';
import type { AccountExtras } from './accountExtras';
import type { AccountRow, GroupRow } from './loaders';

export async function accountTooltip(r: AccountRow, extras: AccountExtras | undefined, cancelled: () => boolean): Promise<string> {
  const lines = [
    `${r.friendlyName} (${r.name})`,
    `Plan: ${r.planCode || 'unknown'}${r.trialExpires !== null ? `, trial until ${shortDate(r.trialExpires)}` : ''}${r.paused ? ', paused' : ''}`,
    `Your permission: ${accountPermissionLabel(r.permission)}`,
    `Member of ${r.memberOfSpaces} ${r.memberOfSpaces === 1 ? 'group' : 'groups'}`,
  ];
  if (!extras) return lines.join('\n');
  void extras.customNames(r.accountId).catch(() => undefined); // warms the file-area labels of this account
  try {
    const s = await extras.subscription(r.accountId);
    if (cancelled()) return lines.join('\n');
    if ('forbidden' in s) {
      lines.push('Storage and member figures need administrator rights in this organisation.');
    } else {
      const p = s.accountPackage;
      lines.push(`Subscription: ${s.plan || p.code}${p.suspended ? ' (suspended)' : ''}`);
      lines.push(`Storage: ${humanSize(s.storageUsed)} of ${p.storage !== null ? humanSize(p.storage) : 'unlimited'}`);
      lines.push(`Members: ${count(s.membersUsed)} of ${p.members !== null ? count(p.members) : 'unlimited'}`);
      if (p.paused && p.datePausedAt !== null) lines.push(`Paused since ${fullDate(p.datePausedAt)}`);
    }
  } catch (error) {
    lines.push(`Plan details could not be loaded: ${errorMessage(error)}`);
  }
  return lines.join('\n');
}

export async function groupTooltip(r: GroupRow, extras: AccountExtras | undefined): Promise<string> {
  const lines = [
    `${r.friendlyName} (${r.name})`,
    `${count(r.members)} ${r.members === 1 ? 'member' : 'members'}`,
    `Storage used: ${humanSize(r.storageConsumed)}`,
  ];
  if (r.lastModified) lines.push(`Modified ${shortDate(r.lastModified)}`);
  try {
    const words = filesWord(await extras?.customNames(r.accountId));
    if (words.many !== 'Files') lines.push(`Files are called "${words.many}" here.`);
  } catch {
    // Custom names only decorate the tooltip.
  }
  return lines.join('\n');
}
