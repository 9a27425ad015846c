/** Edit member assignments: the member's groups, account permission, tags and flags in one form. */
import * as l10n from '@vscode/l10n';
import { COMMON_COMMANDS, MAX_LIST, type Choice, type FormStateBase } from '../../../../forms/protocol/common';
import { arrayOf, bool, int, messages, object, oneOf, str, type Infer } from '../../../../forms/protocol/validate';

import { GroupPermission } from '../../../../api/permissions';
import { GROUP_LEVELS, type GroupLevel } from '../../../../shared/groupLevel';
import {
  ACCOUNT_LEVELS,
  accountPermissionWords,
  groupPermissionDetail,
  groupPermissionWords,
  type AccountLevel,
} from '../../../../shared/permissions';

// 0 = not in the group; 1, 4, 16 = the portal's group permission masks.
export { GROUP_LEVELS, type GroupLevel } from '../../../../shared/groupLevel';
/**
 * A member's permission in a group when the portal did not say (it did not answer the member's v2 read, the only
 * one with the group map): the group is left as it is unless the user picks a level for it.
 */
export const UNKNOWN_LEVEL = -1;
const ASSIGNMENT_LEVELS = [UNKNOWN_LEVEL, ...GROUP_LEVELS] as const;
export type AssignmentLevel = (typeof ASSIGNMENT_LEVELS)[number];

/** The group levels a member can hold, highest last. */
const HELD_LEVELS = [GroupPermission.Basic, GroupPermission.Standard, GroupPermission.Administrator] as const;

/** What each level is called, in the portal's words: the forms' drop-downs and the quick pick use these. */
export function groupLevelChoices(): ReadonlyArray<{
  readonly value: GroupLevel;
  readonly label: string;
  readonly detail: string;
}> {
  return [
    ...HELD_LEVELS.map((value) => ({
      value,
      label: groupPermissionWords(value),
      detail: groupPermissionDetail(value),
    })),
    { value: 0, label: l10n.t('None'), detail: l10n.t('Remove the member from the group') },
  ];
}

export function accountChoices(): ReadonlyArray<Choice<AccountLevel>> {
  return ACCOUNT_LEVELS.map((value) => ({ value, label: accountPermissionWords(value) }));
}

/** A member's permission in one group, as a drop-down offers it. */
export function groupChoices(): ReadonlyArray<Choice<GroupLevel>> {
  return [
    { value: 0, label: l10n.t('None') },
    ...HELD_LEVELS.map((value) => ({ value, label: groupPermissionWords(value) })),
  ];
}

/** A group's drop-down when the member's permission in it is unknown: "unknown" first, then every level. */
export function assignmentChoices(known: boolean): ReadonlyArray<Choice<AssignmentLevel>> {
  return known
    ? groupChoices()
    : [{ value: UNKNOWN_LEVEL, label: l10n.t('Unknown (left as it is)') }, ...groupChoices()];
}

/** The permission a member gets in groups created from now on; 0 = none. */
export function newGroupChoices(): ReadonlyArray<Choice<GroupLevel>> {
  return [{ value: 0, label: l10n.t('Not assigned to new groups') }, ...groupChoices().slice(1)];
}

const values = object({
  /** Echo of the account and member the form was opened for; the host refuses any other. */
  accountId: int({ min: 1 }),
  username: str({ min: 1, max: 200 }),
  groups: arrayOf(object({ id: int({ min: 1 }), permission: oneOf(ASSIGNMENT_LEVELS) }), { max: MAX_LIST }),
  accountPermission: oneOf(ACCOUNT_LEVELS),
  // Only a runaway page's bounds: the portal's own limits (memberRules.ts) are checked where a message can say what
  // is wrong, and a message past them here would be dropped without a word.
  tags: arrayOf(str({ min: 1 }), { max: MAX_LIST }),
  enabled: bool,
  locked: bool,
  /** Permission in groups created from now on; 0 = not assigned to new groups. */
  assignToNewGroups: oneOf(GROUP_LEVELS),
  /** Tell the member by e-mail about new group assignments. */
  notify: bool,
});
export type AssignmentsValues = Infer<typeof values>;

export const assignmentsCommands = messages({ ...COMMON_COMMANDS, save: { values } });
export type AssignmentsCommand = Infer<typeof assignmentsCommands>;

interface AssignmentsGroup {
  id: number;
  name: string;
  friendlyName: string;
}

export interface AssignmentsState extends FormStateBase {
  accountId: number;
  /** '' when the portal did not answer the organisation read. */
  accountName: string;
  username: string;
  memberName: string;
  email: string;
  /** Every group of the account, in display order. */
  groups: AssignmentsGroup[];
  /** True when the account has more groups than the form loads. */
  groupsTruncated: boolean;
  /** False when the member's permission in each group is unknown (every group then starts at UNKNOWN_LEVEL). */
  groupsKnown: boolean;
  /** The account's tag list, offered as suggestions. */
  tagSuggestions: string[];
  /** The member's current values (the form's starting point and the baseline of the diff). */
  values: AssignmentsValues;
}
