/**
 * The digest of a row's group cells, written by the export in the `groupDigest` column: a plan compares it with the
 * row's cells to know, without reading the member's groups, that a row's groups were not edited.
 */
import { createHash } from 'node:crypto';

import type { GroupLevel } from '../shared/groupLevel';

export type { GroupLevel } from '../shared/groupLevel';

/** The `groupDigest` of a row's group cells: group name → level, order-free, case-free names, 0 = not in it. */
export function groupDigest(levels: ReadonlyMap<string, GroupLevel>): string {
  const canonical = [...levels]
    .filter(([, level]) => level !== 0)
    .map(([name, level]) => `${name.toLowerCase()}=${level}`)
    .sort()
    .join('\n');
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}
