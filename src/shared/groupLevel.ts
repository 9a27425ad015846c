/**
 * A member's permission in a group, as the API writes it (0 = not in the group), and the one rule (spec 4.3) that
 * turns group levels into the fields of a v3 member PATCH. Pure: the webview pages, the features and the write
 * engine all read it.
 */
import type { MemberUpdate } from '../api/index';

export const GROUP_LEVELS = [0, 1, 4, 16] as const;
export type GroupLevel = (typeof GROUP_LEVELS)[number];

/** The level a number stands for, or 0 (not in the group) when it stands for none. */
export function groupLevelOf(value: number | null | undefined): GroupLevel {
  return (GROUP_LEVELS as readonly number[]).includes(value ?? -1) ? (value as GroupLevel) : 0;
}

export type GroupLevelPatch = Pick<MemberUpdate, 'assignGroupsRights' | 'assignGroupsAdmin' | 'removeGroups'>;

/**
 * Spec 4.3: a group administrator goes in assignGroupsAdmin, basic and standard in assignGroupsRights (group id →
 * level), and "not in the group" in removeGroups. Fields with nothing in them are left out.
 */
export function groupLevelPatch(levels: Iterable<readonly [number, GroupLevel]>): GroupLevelPatch {
  const rights: Record<string, number> = {};
  const admin: number[] = [];
  const remove: number[] = [];
  for (const [id, level] of levels) {
    if (level === 0) remove.push(id);
    else if (level === 16) admin.push(id);
    else rights[String(id)] = level;
  }
  return {
    ...(Object.keys(rights).length > 0 ? { assignGroupsRights: rights } : {}),
    ...(admin.length > 0 ? { assignGroupsAdmin: admin } : {}),
    ...(remove.length > 0 ? { removeGroups: remove } : {}),
  };
}

/** The reverse of groupLevelPatch: the levels a PATCH sets, by group id. */
export function levelsOfPatch(patch: GroupLevelPatch): Map<number, GroupLevel> {
  const levels = new Map<number, GroupLevel>();
  for (const [id, level] of Object.entries(patch.assignGroupsRights ?? {})) levels.set(Number(id), groupLevelOf(level));
  for (const id of patch.assignGroupsAdmin ?? []) levels.set(id, 16);
  for (const id of patch.removeGroups ?? []) levels.set(id, 0);
  return levels;
}
