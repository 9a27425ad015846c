/** How a plan's changes read in the Plan view, the confirmation and the report: field names and values, in words. */
import * as vscode from 'vscode';
import { AccountPermission } from '../../../api/permissions';
import { accountPermissionWords } from '../../../shared/permissions';
import { fullDate, yesNo } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import { groupWord } from './core/file/membersFile';
import { memberHeaders } from '../csv/exportCsv';
import { count } from '../../../shared/format';
import { planElevations, type Elevation, type SignInField } from './core/elevation';
import {
  groupChangeKind,
  type Conflict,
  type FieldValues,
  type MemberField,
  type NewMemberSpec,
  type FilePlan,
  type PlanChange,
  type ReportRow,
} from './core/model';

/** A changed field is named as the members file's column that holds it. */
function fieldLabel(field: MemberField): string {
  return memberHeaders()[field];
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

/** A new member's whole grant: permission, each group with its level, tags, when the activation e-mail goes. */
function newMemberText(m: NewMemberSpec, groupName: (id: number) => string): string {
  const groups = [...m.groups]
    .filter(([, l]) => l !== 0)
    .map(([id, l]) => vscode.l10n.t('{0} ({1})', plain(groupName(id), { maxLength: 80 }), groupWord(l)));
  const when =
    m.activationDate === undefined
      ? vscode.l10n.t('activation e-mail now')
      : vscode.l10n.t('activation e-mail on {0}', fullDate(m.activationDate));
  return [
    vscode.l10n.t('new member {0} <{1}>', plain(m.name), plain(m.email)),
    accountPermissionWords(m.accountPermission),
    groups.length ? vscode.l10n.t('groups: {0}', groups.join(', ')) : vscode.l10n.t('no groups'),
    m.tags.length ? vscode.l10n.t('tags: {0}', plain(m.tags.join(', '), { maxLength: 200 })) : '',
    m.enabled ? '' : vscode.l10n.t('disabled'),
    m.locked ? vscode.l10n.t('locked') : '',
    when,
  ]
    .filter((x) => x !== '')
    .join('; ');
}

/**
 * One line for a change, without the username (the tree shows it as the label). Plain text. Group ids are named
 * by `groupName` (the plan's groups; friendly names).
 */
export function changeText(c: PlanChange, groupName: (id: number) => string = (id) => `#${id}`): string {
  switch (c.kind) {
    case 'create':
      return newMemberText(c.member, groupName);
    case 'restore':
      return vscode.l10n.t('re-created, everything but the password: {0}', newMemberText(c.member, groupName));
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
          : vscode.l10n.t(
              'not in the file: removed from the organisation; CANNOT BE UNDONE (their user belongs to another organisation, and the portal cannot add an existing user back)',
            );
    case 'uncreate':
      return c.permanent
        ? vscode.l10n.t('created by the apply: removed again, and deleted for good')
        : vscode.l10n.t('created by the apply: removed again');
  }
}

export function conflictText(c: Conflict): string {
  if (c.reason === 'groups')
    return vscode.l10n.t(
      "row {0}: the member's groups changed on the portal after the export; its changes are left out unless chosen",
      c.row,
    );
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
      return accountPermissionWords(AccountPermission.SuperAdministrator);
    case 'group-creator':
      return accountPermissionWords(AccountPermission.GroupCreator);
    case 'group-administrator':
      return vscode.l10n.t('Administrator of the group {0}', plain(e.group ?? '', { maxLength: 80 }));
    case 'administrator-sign-in':
      return signInText(e.field);
  }
}

/** What handing over an administrator's sign-in is, by the field that does it. */
function signInText(field: SignInField | undefined): string {
  switch (field) {
    case 'twoFactor':
      return vscode.l10n.t("an administrator's sign-in: two-factor authentication turned off");
    case 'enabled':
      return vscode.l10n.t("an administrator's sign-in: enabled again");
    case 'locked':
      return vscode.l10n.t("an administrator's sign-in: unlocked");
    default:
      return vscode.l10n.t("an administrator's sign-in: their e-mail changes, and a password reset goes there");
  }
}

/** What a list of elevations grants, in words, joined. */
export function elevationsText(elevations: readonly Elevation[]): string {
  return elevations.map(elevationText).join(', ');
}

const NAMED_AT_MOST = 10;

/**
 * The lines an Apply confirmation adds for what a plan from a file must not hide: the rows it did not plan, and
 * every chosen change that grants more power, by member and grant.
 */
export function confirmTruth(plan: FilePlan, chosen: readonly PlanChange[]): string[] {
  const lines: string[] = [];
  const skipped = plan.skipped?.length ?? 0;
  if (skipped)
    lines.push(
      vscode.l10n.t('Rows of the file NOT planned (see the Plan view): {0}. They are not applied.', count(skipped)),
    );
  const elevations = planElevations(plan, chosen);
  if (elevations.length) {
    lines.push(vscode.l10n.t('Changes that grant more power: {0}', count(elevations.length)));
    for (const e of elevations.slice(0, NAMED_AT_MOST))
      lines.push(`  ${plain(e.change.username)}: ${elevationsText(e.elevations)}`);
    if (elevations.length > NAMED_AT_MOST)
      lines.push(`  ${vscode.l10n.t('and {0} more', count(elevations.length - NAMED_AT_MOST))}`);
  }
  return lines;
}

/**
 * What an apply's Undo can and cannot put back, for its confirmation: a removal whose user lives on in another
 * organisation cannot be undone (the portal has no way to add an existing user to an organisation again).
 */
export function undoText(removed: number, permanent: number): string[] {
  const lasting = removed - permanent;
  if (lasting <= 0) return [vscode.l10n.t('Each member is journaled before it is sent: Undo puts them back.')];
  return [
    lasting === 1
      ? vscode.l10n.t(
          "CANNOT BE UNDONE: 1 removal. That member's user belongs to another organisation too, and the portal cannot add an existing user back.",
        )
      : vscode.l10n.t(
          "CANNOT BE UNDONE: {0} removals. Those members' users belong to another organisation too, and the portal cannot add an existing user back.",
          count(lasting),
        ),
    vscode.l10n.t('Each member is journaled before it is sent: Undo puts the other changes back.'),
  ];
}

/** The question that confirms deleting users for good by typing how many, and its answer when mistyped. */
export function typeCountWords(n: number): { readonly prompt: string; readonly mistyped: string } {
  return n === 1
    ? {
        prompt: vscode.l10n.t('1 user will be deleted for good. Type 1 to confirm.'),
        mistyped: vscode.l10n.t('Type the number 1.'),
      }
    : {
        prompt: vscode.l10n.t('{0} users will be deleted for good. Type {0} to confirm.', n),
        mistyped: vscode.l10n.t('Type the number {0}.', n),
      };
}

/**
 * Whether an apply's summary offers Undo: something was done that an undo can put back. A removal whose user lives
 * on in another organisation cannot be (known from the plan; a resume, which has none, offers it for what it did).
 */
export function undoableRows(plan: FilePlan | undefined, rows: readonly ReportRow[]): boolean {
  const lasting = new Set(
    (plan?.absent ?? []).filter((c) => c.kind === 'absent' && c.action === 'remove' && !c.permanent).map((c) => c.id),
  );
  return rows.some((r) => r.result === 'done' && !r.changeIds.every((id) => lasting.has(id)));
}
