/**
 * Permission masks in the portal's words, for every view, document and form. Made on each call, so the words
 * are in the language VS Code runs in. A mask that is not one of the documented levels is named after the highest
 * level it contains, with the number, so nothing reads "unknown". These are the words of the members file and its plan
 * too, so a permission reads the same in the matrix, its CSV, the forms, the tree and the file.
 */
import * as l10n from '@vscode/l10n';
import { AccountPermission, ContentPermission, GroupPermission } from '../api/permissions';

/** The organisation permissions a member can hold, as filters and forms offer them: the portal's masks. */
export const ACCOUNT_LEVELS = [
  AccountPermission.Member,
  AccountPermission.GroupCreator,
  AccountPermission.SuperAdministrator,
] as const;
export type AccountLevel = (typeof ACCOUNT_LEVELS)[number];

/** The documented organisation level a mask reaches (1, 4 or 16; 0 when none): the highest level it holds. */
export function accountLevelOf(mask: number): AccountLevel | 0 {
  return mask >= 16 ? 16 : mask >= 4 ? 4 : mask >= 1 ? 1 : 0;
}

// The words below are stable English, whatever language VS Code runs in: the members file, a saved import mapping
// and chat's answers carry them, and a person, a spreadsheet or a language model writes them back. What people read
// in the UI is the same words through l10n (accountPermissionWords, groupPermissionWords below).

/** A group permission level in the members file's words. */
export const LEVEL_WORDS = ['Basic', 'Standard', 'Administrator'] as const;
export type LevelWord = (typeof LEVEL_WORDS)[number];
/** Each level word's group permission mask. */
export const LEVEL_PERMISSION = {
  Basic: GroupPermission.Basic,
  Standard: GroupPermission.Standard,
  Administrator: GroupPermission.Administrator,
} as const satisfies Record<LevelWord, GroupPermission>;

/** The word of a documented group permission mask; undefined for any other number (0: not in the group). */
export function levelWordOf(mask: number | null | undefined): LevelWord | undefined {
  return LEVEL_WORDS.find((w) => LEVEL_PERMISSION[w] === mask);
}

/**
 * An organisation permission in the members file's words. "Super administrator" is the portal's own word for an
 * organisation's administrators, and the one every message uses for them.
 */
export const ACCOUNT_PERMISSION_WORDS = ['Member', 'Group creator', 'Super administrator'] as const;
export type AccountPermissionWord = (typeof ACCOUNT_PERMISSION_WORDS)[number];
/** Each account permission word's mask. */
export const ACCOUNT_PERMISSION = {
  Member: AccountPermission.Member,
  'Group creator': AccountPermission.GroupCreator,
  'Super administrator': AccountPermission.SuperAdministrator,
} as const satisfies Record<AccountPermissionWord, AccountLevel>;

/** The word of a documented organisation permission mask; undefined for any other number. */
export function accountPermissionWordOf(mask: number | null | undefined): AccountPermissionWord | undefined {
  return ACCOUNT_PERMISSION_WORDS.find((w) => ACCOUNT_PERMISSION[w] === mask);
}

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
