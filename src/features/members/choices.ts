// The permission drop-downs' choices (spec 2.9), in the portal's words.
import type { AccountLevel, GroupLevel } from './assignments.protocol';
import type { Choice } from '../../forms/page/fields';

export const ACCOUNT_CHOICES: readonly Choice<AccountLevel>[] = [
  { value: 1, label: 'Member' },
  { value: 4, label: 'Group creator' },
  { value: 16, label: 'Super administrator' },
];

export const GROUP_CHOICES: readonly Choice<GroupLevel>[] = [
  { value: 0, label: 'None' },
  { value: 1, label: 'Basic (read only)' },
  { value: 4, label: 'Standard (read and write)' },
  { value: 16, label: 'Group administrator' },
];

/** The permission a member gets in groups created from now on; 0 = none. */
export const NEW_GROUP_CHOICES: readonly Choice<GroupLevel>[] = [
  { value: 0, label: 'Not assigned to new groups' },
  ...GROUP_CHOICES.slice(1),
];
