import { accountLevelOf, type AccountLevel } from '../../../shared/permissions';
import type { GroupLevel } from './assignments/assignments.protocol';

/**
 * Permission masks as the forms offer them. A value the portal sends that is not one of the
 * documented levels counts as the highest documented level it reaches, so a form never shows "unknown".
 */
export function accountLevel(mask: number | null | undefined): AccountLevel {
  return accountLevelOf(mask ?? 0) || 1;
}

/** 0 = not a member of the group (or not assigned to new groups). */
export function groupLevel(mask: number | null | undefined): GroupLevel {
  if (typeof mask !== 'number' || mask <= 0) return 0;
  return mask >= 16 ? 16 : mask >= 4 ? 4 : 1;
}
