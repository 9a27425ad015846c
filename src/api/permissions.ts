/** Permission masks of spec section 2.9, as named constants, plus labels for the UI. */

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

const accountLabels: Record<number, string> = {
  1: 'Member',
  4: 'Group creator',
  16: 'Super administrator',
};
const groupLabels: Record<number, string> = {
  1: 'Basic (read only)',
  4: 'Standard (read and write)',
  16: 'Group administrator',
};
const contentLabels: Record<number, string> = {
  1: 'View only',
  2: 'View, download and share',
  4: 'View and edit',
  8: 'View, edit and delete',
  16: 'Administer',
};

function label(table: Record<number, string>, value: number | null | undefined): string {
  if (value === null || value === undefined) return 'None';
  const exact = table[value];
  if (exact) return exact;
  // Treat an unknown value as a mask: name the highest known level it contains.
  const levels = Object.keys(table)
    .map(Number)
    .sort((a, b) => b - a);
  for (const level of levels) {
    if ((value & level) === level) return `${table[level] ?? ''} (${value})`;
  }
  return `Unknown (${value})`;
}

export function accountPermissionLabel(value: number | null | undefined): string {
  return label(accountLabels, value);
}

export function groupPermissionLabel(value: number | null | undefined): string {
  return label(groupLabels, value);
}

export function contentPermissionLabel(value: number | null | undefined): string {
  return label(contentLabels, value);
}

/** True when `mask` includes at least the given level (masks are ordered powers of two). */
export function hasAtLeast(mask: number | null | undefined, level: number): boolean {
  return typeof mask === 'number' && mask >= level;
}
