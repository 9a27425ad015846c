/** How a plan's changes read in the Plan view, the confirmation and the report: field names and values, in words. */
import * as vscode from 'vscode';
import { accountPermissionLabel } from '../../../api/index';
import { fullDate, yesNo } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import { groupWord } from './core/membersFile';
import { groupChangeKind, type Conflict, type FieldValues, type MemberField, type PlanChange } from './core/model';

export function fieldLabel(field: MemberField): string {
  const t = vscode.l10n.t;
  switch (field) {
    case 'name':
      return t('Name');
    case 'email':
      return t('E-mail');
    case 'jobTitle':
      return t('Job title');
    case 'enabled':
      return t('Enabled');
    case 'locked':
      return t('Locked');
    case 'twoFactor':
      return t('Two-factor');
    case 'accountPermission':
      return t('Account permission');
    case 'tags':
      return t('Tags');
  }
}

const empty = () => vscode.l10n.t('(empty)');

function fieldValue(v: FieldValues, which: 'before' | 'after'): string {
  switch (v.field) {
    case 'name':
    case 'email':
    case 'jobTitle': {
      const s = which === 'before' ? v.before : v.after;
      return s ? `"${plain(s, { maxLength: 80 })}"` : empty();
    }
    case 'enabled':
    case 'locked':
    case 'twoFactor':
      return yesNo(which === 'before' ? v.before : v.after);
    case 'accountPermission':
      return accountPermissionLabel(which === 'before' ? v.before : v.after);
    case 'tags': {
      const tags = which === 'before' ? v.before : v.after;
      return tags.length ? plain(tags.join(', '), { maxLength: 200 }) : empty();
    }
  }
}

const level = (l: number): string => (l === 0 ? vscode.l10n.t('not in the group') : groupWord(l as 0 | 1 | 4 | 16));

/** One line for a change, without the username (the tree shows it as the label). Plain text. */
export function changeText(c: PlanChange): string {
  const t = vscode.l10n.t;
  switch (c.kind) {
    case 'create': {
      const groups = c.member.groups.size;
      const when =
        c.member.activationDate === undefined
          ? t('activation e-mail now')
          : t('activation e-mail on {0}', fullDate(c.member.activationDate));
      return groups
        ? t('new member {0} <{1}>, {2} groups, {3}', plain(c.member.name), plain(c.member.email), groups, when)
        : t('new member {0} <{1}>, {2}', plain(c.member.name), plain(c.member.email), when);
    }
    case 'restore':
      return t('re-created as {0} <{1}> (everything but the password)', plain(c.member.name), plain(c.member.email));
    case 'field':
      return `${fieldLabel(c.field)}: ${fieldValue(c, 'before')} → ${fieldValue(c, 'after')}`;
    case 'group': {
      const kind = groupChangeKind(c);
      const what = kind === 'added' ? t('added') : kind === 'removed' ? t('removed') : t('changed');
      return t('{0} ({1}): {2} → {3}', plain(c.groupName), what, level(c.before), level(c.after));
    }
    case 'absent':
      return c.action === 'disable'
        ? t('not in the file: disabled')
        : c.permanent
          ? t('not in the file: removed, and DELETED FOR GOOD (a member of no other organisation)')
          : t('not in the file: removed from the organisation');
    case 'uncreate':
      return c.permanent
        ? t('created by the apply: removed again, and deleted for good')
        : t('created by the apply: removed again');
  }
}

export function conflictText(c: Conflict): string {
  return c.portal === null
    ? vscode.l10n.t(
        'row {0}: left the portal after the export ({1}); its changes are left out unless chosen',
        c.row,
        fullDate(c.exported),
      )
    : vscode.l10n.t(
        'row {0}: changed on the portal {1}, after the export ({2}); its changes are left out unless chosen',
        c.row,
        fullDate(c.portal),
        fullDate(c.exported),
      );
}
