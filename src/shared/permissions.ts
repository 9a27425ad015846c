/**
 * Permission masks in the portal's words, for every view, document and form. Made on each call, so the words
 * are in the language VS Code runs in. A mask that is not one of the documented levels is named after the highest
 * level it contains, with the number, so nothing reads "unknown".
 */
import * as l10n from '@vscode/l10n';
import { AccountPermission, ContentPermission, GroupPermission } from '../api/permissions';

function named(words: ReadonlyArray<readonly [number, string]>, value: number | null | undefined): string {
  if (value === null || value === undefined) return l10n.t('None');
  const exact = words.find(([mask]) => mask === value);
  if (exact) return exact[1];
  const highest = [...words].sort((a, b) => b[0] - a[0]).find(([mask]) => (value & mask) === mask);
  return highest ? l10n.t('{0} ({1})', highest[1], value) : l10n.t('Unknown ({0})', value);
}

export function accountPermissionWords(value: number | null | undefined): string {
  return named(
    [
      [AccountPermission.Member, l10n.t('Member')],
      [AccountPermission.GroupCreator, l10n.t('Group creator')],
      [AccountPermission.SuperAdministrator, l10n.t('Super administrator')],
    ],
    value,
  );
}

export function groupPermissionWords(value: number | null | undefined): string {
  return named(
    [
      [GroupPermission.Basic, l10n.t('Basic (read only)')],
      [GroupPermission.Standard, l10n.t('Standard (read and write)')],
      [GroupPermission.Administrator, l10n.t('Group administrator')],
    ],
    value,
  );
}

export function contentPermissionWords(value: number | null | undefined): string {
  return named(
    [
      [ContentPermission.View, l10n.t('View only')],
      [ContentPermission.ViewDownloadShare, l10n.t('View, download and share')],
      [ContentPermission.Edit, l10n.t('View and edit')],
      [ContentPermission.EditDelete, l10n.t('View, edit and delete')],
      [ContentPermission.Administer, l10n.t('Administer')],
    ],
    value,
  );
}
