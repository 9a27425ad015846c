/**
 * What a bulk change is called at each step (the question, its button, the progress title, the summary), and the
 * summary of a run in words. Whole sentences per change, so every language can order its words its own way.
 */
import * as vscode from 'vscode';
import { count } from '../../../shared/format';
import { groupPermissionWords } from '../../../shared/permissions';
import type { BulkSummary } from './bulkRun';
import type { BulkChange, GroupLevel, SkipReason } from './bulkChange';
import type { Unusual } from './unusual';

export interface ChangeWords {
  /** "Disable 25 members of Acme?" */
  readonly question: string;
  /** The confirmation's button. */
  readonly action: string;
  /** The change in the history and on Undo: "Disable 25 members". */
  readonly title: string;
  readonly progress: string;
  /** "Disabled 20 of 25 members." */
  readonly done: (done: number, total: number) => string;
}

/** `group` names the group of a permission change. */
export function changeWords(change: BulkChange, n: number, account: string, group = ''): ChangeWords {
  const c = count(n);
  // The title names the change in the history for good, so it says "1 member", never "1 members".
  const one = n === 1;
  switch (change.kind) {
    case 'enable':
      return {
        question: vscode.l10n.t('Enable {0} members of {1}?', c, account),
        action: vscode.l10n.t('Enable {0} Members', c),
        title: one ? vscode.l10n.t('Enable 1 member') : vscode.l10n.t('Enable {0} members', c),
        progress: vscode.l10n.t('Enabling {0} members…', c),
        done: (d, all) => vscode.l10n.t('Enabled {0} of {1} members.', count(d), count(all)),
      };
    case 'disable':
      return {
        question: vscode.l10n.t('Disable {0} members of {1}? They cannot sign in until enabled again.', c, account),
        action: vscode.l10n.t('Disable {0} Members', c),
        title: one ? vscode.l10n.t('Disable 1 member') : vscode.l10n.t('Disable {0} members', c),
        progress: vscode.l10n.t('Disabling {0} members…', c),
        done: (d, all) => vscode.l10n.t('Disabled {0} of {1} members.', count(d), count(all)),
      };
    case 'lock':
      return {
        question: vscode.l10n.t('Lock {0} members of {1}?', c, account),
        action: vscode.l10n.t('Lock {0} Members', c),
        title: one ? vscode.l10n.t('Lock 1 member') : vscode.l10n.t('Lock {0} members', c),
        progress: vscode.l10n.t('Locking {0} members…', c),
        done: (d, all) => vscode.l10n.t('Locked {0} of {1} members.', count(d), count(all)),
      };
    case 'unlock':
      return {
        question: vscode.l10n.t('Unlock {0} members of {1}?', c, account),
        action: vscode.l10n.t('Unlock {0} Members', c),
        title: one ? vscode.l10n.t('Unlock 1 member') : vscode.l10n.t('Unlock {0} members', c),
        progress: vscode.l10n.t('Unlocking {0} members…', c),
        done: (d, all) => vscode.l10n.t('Unlocked {0} of {1} members.', count(d), count(all)),
      };
    case 'delete':
      return removalWords(c, one, account);
    case 'addTag':
    case 'removeTag':
      return tagWords(change.kind, change.tag, c, one, account);
    case 'setGroupPermission':
      return groupChangeWords(change.permission, c, one, group);
  }
}

/** A tag's words: added to or removed from the members. */
function tagWords(kind: 'addTag' | 'removeTag', tag: string, c: string, one: boolean, account: string): ChangeWords {
  if (kind === 'addTag')
    return {
      question: vscode.l10n.t('Add the tag "{0}" to {1} members of {2}?', tag, c, account),
      action: vscode.l10n.t('Add to {0} Members', c),
      title: one ? vscode.l10n.t('Tag 1 member "{0}"', tag) : vscode.l10n.t('Tag {0} members "{1}"', c, tag),
      progress: vscode.l10n.t('Adding the tag "{0}" to {1} members…', tag, c),
      done: (d, all) => vscode.l10n.t('Tagged {0} of {1} members "{2}".', count(d), count(all), tag),
    };
  return {
    question: vscode.l10n.t('Remove the tag "{0}" from {1} members of {2}?', tag, c, account),
    action: vscode.l10n.t('Remove from {0} Members', c),
    title: one
      ? vscode.l10n.t('Remove the tag "{0}" from 1 member', tag)
      : vscode.l10n.t('Remove the tag "{0}" from {1} members', tag, c),
    progress: vscode.l10n.t('Removing the tag "{0}" from {1} members…', tag, c),
    done: (d, all) => vscode.l10n.t('Removed the tag "{0}" from {1} of {2} members.', tag, count(d), count(all)),
  };
}

/** A removal's words. */
function removalWords(c: string, one: boolean, account: string): ChangeWords {
  return {
    question: vscode.l10n.t('Remove {0} members from {1}?', c, account),
    action: vscode.l10n.t('Remove {0} Members', c),
    title: one
      ? vscode.l10n.t('Remove 1 member from {0}', account)
      : vscode.l10n.t('Remove {0} members from {1}', c, account),
    progress: vscode.l10n.t('Removing {0} members…', c),
    done: (d, all) => vscode.l10n.t('Removed {0} of {1} members.', count(d), count(all)),
  };
}

/** A group permission change's words: removal from the group, or the level given in it. */
function groupChangeWords(permission: GroupLevel, c: string, one: boolean, group: string): ChangeWords {
  if (permission === 0)
    return {
      question: vscode.l10n.t('Remove {0} members from the group {1}?', c, group),
      action: vscode.l10n.t('Remove {0} Members', c),
      title: one
        ? vscode.l10n.t('Remove 1 member from {0}', group)
        : vscode.l10n.t('Remove {0} members from {1}', c, group),
      progress: vscode.l10n.t('Removing {0} members from {1}…', c, group),
      done: (d, all) => vscode.l10n.t('Removed {0} of {1} members from {2}.', count(d), count(all), group),
    };
  const level = groupPermissionWords(permission);
  return {
    question: vscode.l10n.t('Make {0} members "{1}" in the group {2}?', c, level, group),
    action: vscode.l10n.t('Change {0} Members', c),
    title: one
      ? vscode.l10n.t('Make 1 member "{0}" in {1}', level, group)
      : vscode.l10n.t('Make {0} members "{1}" in {2}', c, level, group),
    progress: vscode.l10n.t('Changing the permission of {0} members in {1}…', c, group),
    done: (d, all) => vscode.l10n.t('{0} of {1} members are now "{2}" in {3}.', count(d), count(all), level, group),
  };
}

function skipWords(reason: SkipReason): string {
  switch (reason) {
    case 'already-enabled':
      return vscode.l10n.t('already enabled');
    case 'already-disabled':
      return vscode.l10n.t('already disabled');
    case 'already-locked':
      return vscode.l10n.t('already locked');
    case 'not-locked':
      return vscode.l10n.t('not locked');
    case 'has-tag':
      return vscode.l10n.t('already tagged');
    case 'lacks-tag':
      return vscode.l10n.t('without the tag');
    case 'same-permission':
      return vscode.l10n.t('already at that permission');
    case 'already-removed':
      return vscode.l10n.t('already removed');
    case 'now-deleted-for-good':
      return vscode.l10n.t('removing them now would delete their user for good, which was not confirmed');
  }
}

const ALREADY: Partial<Record<BulkChange['kind'], SkipReason>> = {
  enable: 'already-enabled',
  disable: 'already-disabled',
  lock: 'already-locked',
  unlock: 'not-locked',
  addTag: 'has-tag',
  removeTag: 'lacks-tag',
};

/**
 * Who is unusual in the selection, for the confirmation: a sentence after the question ("6 are still awaiting
 * activation, 1 is a Super administrator, 2 are already disabled.") and a line of names for each; empty when no one.
 */
export function unusualWords(change: BulkChange, u: Unusual): { readonly sentence: string; readonly lines: string[] } {
  const parts: string[] = [];
  const lines: string[] = [];
  const n = (list: readonly string[], one: string, many: string) => {
    if (list.length === 0) return;
    parts.push(list.length === 1 ? one : many);
  };
  n(
    u.pending,
    vscode.l10n.t('1 is still awaiting activation'),
    vscode.l10n.t('{0} are still awaiting activation', count(u.pending.length)),
  );
  n(
    u.superAdministrators,
    vscode.l10n.t('1 is a Super administrator'),
    vscode.l10n.t('{0} are Super administrators', count(u.superAdministrators.length)),
  );
  const reason = ALREADY[change.kind];
  if (reason)
    n(
      u.already,
      vscode.l10n.t('1 is {0}', skipWords(reason)),
      vscode.l10n.t('{0} are {1}', count(u.already.length), skipWords(reason)),
    );
  if (u.pending.length) lines.push(vscode.l10n.t('Awaiting activation: {0}', someNames(u.pending, 20)));
  if (u.superAdministrators.length)
    lines.push(vscode.l10n.t('Super administrators: {0}', someNames(u.superAdministrators, 20)));
  if (reason && u.already.length)
    lines.push(vscode.l10n.t('Left as they are, {0}: {1}', skipWords(reason), someNames(u.already, 20)));
  return { sentence: parts.length ? vscode.l10n.t('{0}.', parts.join(', ')) : '', lines };
}

/** Failures listed one by one in the summary; the rest are counted (and every one is in the log). */
const LISTED = 15;

/** "bob (Bob B)"-style names, a few of them, then "and 3 more". */
export function someNames(usernames: readonly string[], max = 8): string {
  const shown = usernames.slice(0, max).join(', ');
  return usernames.length > max ? vscode.l10n.t('{0} and {1} more', shown, count(usernames.length - max)) : shown;
}

interface SummaryWords {
  readonly message: string;
  /** One line per failure, with the portal's reason. */
  readonly detail: string;
}

/** The end of a run: done, skipped (by reason), failed (each with its reason), and what was not started. */
export function summaryWords(summary: BulkSummary, words: ChangeWords): SummaryWords {
  const parts = [words.done(summary.done.length, summary.total)];
  const byReason = new Map<SkipReason, string[]>();
  for (const s of summary.skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s.member.username]);
  for (const [reason, names] of byReason)
    parts.push(vscode.l10n.t('Skipped {0}: {1}.', count(names.length), skipWords(reason)));
  if (summary.failed.length) parts.push(vscode.l10n.t('Failed: {0}.', count(summary.failed.length)));
  if (summary.notStarted.length) {
    parts.push(
      summary.cancelled
        ? vscode.l10n.t('Cancelled: {0} not started, left as they were.', count(summary.notStarted.length))
        : vscode.l10n.t('Stopped: {0} not started, left as they were.', count(summary.notStarted.length)),
    );
  }
  const lines = summary.failed.slice(0, LISTED).map((f) => vscode.l10n.t('{0}: {1}', f.member.username, f.message));
  if (summary.failed.length > LISTED)
    lines.push(
      vscode.l10n.t('… and {0} more (all of them are in the Portal log).', count(summary.failed.length - LISTED)),
    );
  if (byReason.size)
    lines.push(
      '',
      ...[...byReason].map(([reason, names]) =>
        vscode.l10n.t('Skipped, {0}: {1}', skipWords(reason), someNames(names)),
      ),
    );
  return { message: parts.join(' '), detail: lines.join('\n').trim() };
}

/**
 * What a removal's confirmation says of the members whose users live on in another organisation: their removal
 * cannot be undone, as the portal cannot add an existing user to an organisation again. Empty when there are none.
 */
export function lastingRemovalWords(n: number): string {
  if (n <= 0) return '';
  return n === 1
    ? vscode.l10n.t(
        "1 removal CANNOT BE UNDONE: that member's user belongs to another organisation too, and the portal cannot add an existing user back.",
      )
    : vscode.l10n.t(
        "{0} removals CANNOT BE UNDONE: those members' users belong to another organisation too, and the portal cannot add an existing user back.",
        count(n),
      );
}
