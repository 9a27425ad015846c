/** What is left of a member's target once part of it may have landed: the resume's comparison. Pure. */
import type { GroupLevel } from '../../shared/groupLevel';
import type { MemberBefore, MemberTarget } from './model';

type Fields = MemberTarget['fields'];

export function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return (a ?? '') === (b ?? '');
}

/**
 * What is left of a target: the fields and groups the portal does not show yet. `changedElsewhere` lists those
 * that show neither the target nor the value before (someone else changed them meanwhile).
 */
export function remaining(
  target: MemberTarget,
  now: MemberBefore,
  before: MemberBefore | null,
): { target: MemberTarget; changedElsewhere: string[] } {
  const fields: Record<string, unknown> = {};
  const groups: Record<string, GroupLevel> = {};
  const changedElsewhere: string[] = [];
  for (const [field, want] of Object.entries(target.fields)) {
    const have = now[field as keyof Fields];
    if (sameValue(want, have)) continue;
    if (field === 'twoFactor' && want === false && !now.twoFactor) continue;
    if (before && !sameValue(before[field as keyof Fields], have)) changedElsewhere.push(field);
    else fields[field] = want;
  }
  for (const [id, want] of Object.entries(target.groups)) {
    const have = now.groups[id] ?? 0;
    if (have === want) continue;
    if (before && id in before.groups && (before.groups[id] ?? 0) !== have) changedElsewhere.push(`group ${id}`);
    else groups[id] = want;
  }
  return { target: { fields: fields as Fields, groups }, changedElsewhere };
}
