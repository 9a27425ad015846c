/**
 * The member columns of an export and of a members file, and their English header words: what both the export and
 * the file's reader know, kept apart from the export's portal reads so the reader needs no client.
 */
export const MEMBER_COLUMNS = [
  'username',
  'name',
  'email',
  'enabled',
  'locked',
  'accountPermission',
  'tags',
  'twoFactor',
  'created',
  'lastActive',
  'jobTitle',
] as const;
export type MemberColumn = (typeof MEMBER_COLUMNS)[number];

/** Header cells; a caller with translated labels passes its own. */
export const DEFAULT_MEMBER_HEADERS: Readonly<Record<MemberColumn, string>> = {
  username: 'Username',
  name: 'Name',
  email: 'E-mail',
  enabled: 'Enabled',
  locked: 'Locked',
  accountPermission: 'Account permission',
  tags: 'Tags',
  twoFactor: 'Two-factor',
  created: 'Member since',
  lastActive: 'Last active',
  jobTitle: 'Job title',
};
