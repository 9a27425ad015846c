/** Create member (v3) and edit member (v3 where it has the field, v2 for the profile fields it lacks). */
import { ACCOUNT_LEVELS } from '../../../shared/permissions';
import { GROUP_LEVELS } from './assignments/assignments.protocol';
import { COMMON_COMMANDS, MAX_LIST, type FormStateBase } from '../../../forms/protocol/common';
import { memberExtraFields, type MemberExtraState } from './memberExtras.protocol';
import { arrayOf, bool, int, messages, object, oneOf, str, type Infer } from '../../../forms/protocol/validate';

const line = str({ max: 254 });
const values = object({
  /** Echo of the account (and, when editing, the member) the panel was opened for. */
  accountId: int({ min: 1 }),
  /** The new username when creating; the member's own when editing. */
  username: str({ max: 64 }),
  name: str({ max: 200 }),
  email: line,
  phone: str({ max: 50 }),
  /** Write-only: never part of the state the host sends, never kept in the webview's saved state. */
  password: str({ max: 200 }),
  /** Create only (v3 has it on create; neither version can change it later). */
  realName: str({ max: 200 }),
  /** Edit only (v2 profile fields). */
  jobTitle: line,
  organisation: line,
  address: str({ max: 1000 }),
  enabled: bool,
  /** Create only; an existing member's permission, tags and groups are edited in "Edit Assignments". */
  accountPermission: oneOf(ACCOUNT_LEVELS),
  assignToNewGroups: oneOf(GROUP_LEVELS),
  // A runaway page's bounds only: memberChecks.ts checks the portal's limits and says what is wrong.
  tags: arrayOf(str({ min: 1 }), { max: MAX_LIST }),
  ...memberExtraFields,
});
export type MemberValues = Infer<typeof values>;

export const memberCommands = messages({ ...COMMON_COMMANDS, save: { values } });
export type MemberCommand = Infer<typeof memberCommands>;

export interface MemberFormState extends FormStateBase, MemberExtraState {
  mode: 'create' | 'edit';
  accountId: number;
  /** '' when the portal did not answer the organisation read. */
  accountName: string;
  /** False when the portal did not answer the v2 read: job title, organisation and address start empty. */
  profileKnown: boolean;
  tagSuggestions: string[];
  /** The password is always '' here. */
  values: MemberValues;
}
