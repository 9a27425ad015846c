/** How a plan's changes read in the Plan view, the confirmation and the report: field names and values, in words. */
import * as vscode from 'vscode';
import { accountPermissionWords } from '../../../shared/permissions';
import { fullDate, yesNo } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import { groupWord } from './core/file/membersFile';
import type { Elevation } from './core/elevation';
import { groupChangeKind, type Conflict, type FieldValues, type MemberField, type PlanChange } from './core/model';

export function fieldLabel(field: MemberField): string {
  switch (field) {
    case 'name':
      return vscode.l10n.t('Name');
    case 'email':
      return vscode.l10n.t('E-mail');
    case 'jobTitle':
      return vscode.l10n.t('Job title');
    case 'enabled':
      return vscode.l10n.t('Enabled');
    case 'locked':
      return vscode.l10n.t('Locked');
    case 'twoFactor':
      return vscode.l10n.t('Two-factor');
    case 'accountPermission':
      return vscode.l10n.t('Organisation permission');
    case 'tags':
      return vscode.l10n.t('Tags');
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
      return accountPermissionWords(which === 'before' ? v.before : v.after);
    case 'tags': {
      const tags = which === 'before' ? v.before : v.after;
      return tags.length ? plain(tags.join(', '), { maxLength: 200 }) : empty();
    }
  }
}

const level = (l: number): string => (l === 0 ? vscode.l10n.t('not in the group') : groupWord(l as 0 | 1 | 4 | 16));

/** One line for a change, without the username (the tree shows it as the label). Plain text. */
export function changeText(c: PlanChange): string {
  switch (c.kind) {
    case 'create': {
      const groups = c.member.groups.size;
      const when =
        c.member.activationDate === undefined
          ? vscode.l10n.t('activation e-mail now')
          : vscode.l10n.t('activation e-mail on {0}', fullDate(c.member.activationDate));
      return groups
        ? vscode.l10n.t(
            'new member {0} <{1}>, {2} groups, {3}',
            plain(c.member.name),
            plain(c.member.email),
            groups,
            when,
          )
        : vscode.l10n.t('new member {0} <{1}>, {2}', plain(c.member.name), plain(c.member.email), when);
    }
    case 'restore':
      return vscode.l10n.t(
        're-created as {0} <{1}> (everything but the password)',
        plain(c.member.name),
        plain(c.member.email),
      );
    case 'field':
      return `${fieldLabel(c.field)}: ${fieldValue(c, 'before')} → ${fieldValue(c, 'after')}`;
    case 'group': {
      const kind = groupChangeKind(c);
      const what =
        kind === 'added'
          ? vscode.l10n.t('added')
          : kind === 'removed'
            ? vscode.l10n.t('removed')
            : vscode.l10n.t('changed');
      return vscode.l10n.t('{0} ({1}): {2} → {3}', plain(c.groupName), what, level(c.before), level(c.after));
    }
    case 'absent':
      return c.action === 'disable'
        ? vscode.l10n.t('not in the file: disabled')
        : c.permanent
          ? vscode.l10n.t('not in the file: removed, and DELETED FOR GOOD (a member of no other organisation)')
          : vscode.l10n.t('not in the file: removed from the organisation');
    case 'uncreate':
      return c.permanent
        ? vscode.l10n.t('created by the apply: removed again, and deleted for good')
        : vscode.l10n.t('created by the apply: removed again');
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

/** What an elevation grants, in words: "Super administrator", "Administrator of the group Payroll". */
export function elevationText(e: Elevation): string {
  switch (e.kind) {
    case 'super-administrator':
      return vscode.l10n.t('Super administrator');
    case 'group-creator':
      return vscode.l10n.t('Group creator');
    case 'group-administrator':
      return vscode.l10n.t('Administrator of the group {0}', plain(e.group ?? '', { maxLength: 80 }));
  }
}
