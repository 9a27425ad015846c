/**
 * Offboarding as a plan: for each person leaving, disabled and taken out of every group; optionally locked, tagged
 * (`left-YYYY-MM` by default), or removed from the organisation instead (which takes every group with it). A plan
 * like any other: shown in the Plan view, confirmed, journaled with each member's values before (every group's
 * level, so Undo puts each person back where they were), and undone person by person. Pure.
 */
import {
  derivedPlan,
  type FieldChange,
  type GroupChange,
  type FilePlan,
  type PortalGroup,
  type PortalMember,
} from '../plan/core/model';
import { memberBefore } from '../../../engine/members/portal';

export interface OffboardChoices {
  readonly lock: boolean;
  /** The tag to give, when chosen. */
  readonly tag?: string;
  /** Remove them from the organisation (a member of no other organisation is deleted for good, after a snapshot). */
  readonly remove: boolean;
}

/** The default tag of people leaving this month: `left-2027-01`, from the clock given (local time). */
export function leaverTag(now: Date): string {
  return `left-${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

type Sections = {
  disabled: FieldChange[];
  fieldChanges: FieldChange[];
  groupChanges: GroupChange[];
  absent: FilePlan['absent'][number][];
};

/** One person's changes: removed from the organisation, or disabled, out of every group, locked and tagged. */
function addMember(
  into: Sections,
  p: PortalMember,
  choices: OffboardChoices,
  names: ReadonlyMap<number, string>,
): void {
  const key = p.username.toLowerCase();
  const base = { username: p.username, row: undefined };
  if (choices.remove) {
    const permanent = !p.memberOfMultipleAccounts;
    into.absent.push({ kind: 'absent', id: `${key}#absent`, ...base, action: 'remove', permanent });
    return;
  }
  const field = (f: 'enabled' | 'locked', before: boolean): FieldChange => ({
    kind: 'field',
    id: `${key}#field:${f}`,
    ...base,
    field: f,
    before,
    after: !before,
  });
  if (p.enabled) into.disabled.push(field('enabled', true));
  for (const [groupId, level] of p.groups ?? [])
    if (level !== 0) {
      const groupName = names.get(groupId) ?? String(groupId);
      into.groupChanges.push({
        kind: 'group',
        id: `${key}#group:${groupId}`,
        ...base,
        groupId,
        groupName,
        before: level,
        after: 0,
      });
    }
  if (choices.lock && !p.locked) into.fieldChanges.push(field('locked', false));
  const tag = choices.tag;
  if (tag !== undefined && !p.tags.includes(tag))
    into.fieldChanges.push({
      kind: 'field',
      id: `${key}#field:tags`,
      ...base,
      field: 'tags',
      before: p.tags,
      after: [...p.tags, tag],
    });
}

/** The plan that offboards `members`, each read with every group (`groups` set). */
export function offboardPlan(
  accountId: number,
  groups: readonly PortalGroup[],
  members: readonly PortalMember[],
  choices: OffboardChoices,
  now: number,
): FilePlan {
  const into: Sections = { disabled: [], fieldChanges: [], groupChanges: [], absent: [] };
  const before = new Map<string, ReturnType<typeof memberBefore>>();
  const names = new Map(groups.map((g) => [g.id, g.name]));
  for (const p of members) {
    before.set(p.username.toLowerCase(), memberBefore(p));
    addMember(into, p, choices, names);
  }
  const plan = derivedPlan({ accountId, groups, origin: 'bulk', createdAt: now }, { ...into, before });
  const tag = choices.tag !== undefined && !choices.remove ? { tag: choices.tag } : {};
  return { ...plan, naming: { kind: 'offboard', ...tag } };
}

/** "Remove from All Groups": the same plan, groups only. */
export function removeFromGroupsPlan(
  accountId: number,
  groups: readonly PortalGroup[],
  members: readonly PortalMember[],
  now: number,
): FilePlan {
  const plan = offboardPlan(accountId, groups, members, { lock: false, remove: false }, now);
  return { ...plan, disabled: [], naming: { kind: 'allGroups' } };
}
