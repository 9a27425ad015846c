/**
 * The member form's fields beyond the profile: the groups a new member joins and when their activation e-mail goes
 * out (New Member), and switching two-factor authentication off (Edit Member).
 */
import { ACCOUNT_LEVELS } from '../../../shared/permissions';
import { GROUP_LEVELS } from './assignments/assignments.protocol';
import { MAX_LIST } from '../../../forms/protocol/common';
import { arrayOf, bool, int, object, oneOf, str } from '../../../forms/protocol/validate';

/** none: no group yet; all: every group of the organisation at one level; chosen: a level per group. */
const GROUP_MODES = ['none', 'all', 'chosen'] as const;
export type GroupMode = (typeof GROUP_MODES)[number];
/** now: the activation e-mail goes out as the member is added; date: at a later time. */
const ACTIVATION_MODES = ['now', 'date'] as const;
export type ActivationChoice = (typeof ACTIVATION_MODES)[number];
/** The portal states no limit; this one stops a runaway page. */
const MAX_ACTIVATION_MESSAGE = 5000;

export const memberExtraFields = {
  /** Create only. */
  groupsMode: oneOf(GROUP_MODES),
  /** With 'all': the permission in every group. */
  allGroupsLevel: oneOf(ACCOUNT_LEVELS),
  /** With 'chosen': a permission per group, 0 = not in it. */
  groups: arrayOf(object({ id: int({ min: 1 }), permission: oneOf(GROUP_LEVELS) }), { max: MAX_LIST }),
  /** Create only. */
  activation: oneOf(ACTIVATION_MODES),
  /** With 'date': when the activation e-mail goes out, in ms since 1970 (UTC); 0 = none chosen yet. */
  activationDate: int({ min: 0 }),
  activationMessage: str({ max: MAX_ACTIVATION_MESSAGE }),
  /** Edit only: switch the member's two-factor authentication off (the host asks once more before it does). */
  disableTwoFactor: bool,
};

export interface MemberExtraValues {
  groupsMode: GroupMode;
  allGroupsLevel: (typeof ACCOUNT_LEVELS)[number];
  groups: Array<{ id: number; permission: (typeof GROUP_LEVELS)[number] }>;
  activation: ActivationChoice;
  activationDate: number;
  activationMessage: string;
  disableTwoFactor: boolean;
}

export const NO_EXTRAS: MemberExtraValues = {
  groupsMode: 'none',
  allGroupsLevel: 1,
  groups: [],
  activation: 'now',
  activationDate: 0,
  activationMessage: '',
  disableTwoFactor: false,
};

export interface MemberExtraState {
  /** Create: the organisation's groups, by name. */
  groups: Array<{ id: number; name: string; friendlyName: string }>;
  /** Create: the organisation has more groups than the form lists. */
  groupsTruncated: boolean;
  /** Edit: the member signs in with a second factor. */
  twoFactor: boolean;
}
