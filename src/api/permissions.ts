/** Permission masks of spec section 2.9, as named constants. Their words for people are in shared/permissions.ts. */

export const AccountPermission = {
  Member: 1,
  GroupCreator: 4,
  SuperAdministrator: 16,
} as const;
export type AccountPermission = (typeof AccountPermission)[keyof typeof AccountPermission];

export const GroupPermission = {
  Basic: 1,
  Standard: 4,
  Administrator: 16,
} as const;
export type GroupPermission = (typeof GroupPermission)[keyof typeof GroupPermission];

export const ContentPermission = {
  View: 1,
  ViewDownloadShare: 2,
  Edit: 4,
  EditDelete: 8,
  Administer: 16,
} as const;
export type ContentPermission = (typeof ContentPermission)[keyof typeof ContentPermission];
