/**
 * Permission masks in the portal's words, for every view, document and form. Made on each call, so the words
 * are in the language VS Code runs in. A mask that is not one of the documented levels is named after the highest
 * level it contains, with the number, so nothing reads "unknown". These are the words of the members file and its plan
 * too, so a permission reads the same in the matrix, its CSV, the forms, the tree and the file.
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
      [GroupPermission.Basic, l10n.t('Basic')],
      [GroupPermission.Standard, l10n.t('Standard')],
      [GroupPermission.Administrator, l10n.t('Administrator')],
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

/** What a group permission allows, for a detail or tooltip beside its one word. */
export function groupPermissionDetail(value: number): string {
  if (value >= GroupPermission.Administrator) return l10n.t('Manages the group and its members');
  if (value >= GroupPermission.Standard) return l10n.t('Read and write');
  return l10n.t('Read only');
}
