/**
 * Elevations: changes that give a member more power over the organisation than a Member has. Granting Super
 * administrator, Group creator or a group's Administrator level is named wherever a plan is shown, so a file from
 * someone else cannot hand out power unseen.
 */
import type { GroupLevel, Plan, PlanChange } from './model';

const SUPER_ADMINISTRATOR = 16;
const GROUP_CREATOR = 4;
const GROUP_ADMINISTRATOR: GroupLevel = 16;

export type ElevationKind = 'super-administrator' | 'group-creator' | 'group-administrator';

export interface Elevation {
  readonly kind: ElevationKind;
  /** The group's name, for a group's Administrator level. */
  readonly group?: string;
}

/** The elevation an organisation permission change grants, if any. */
export function permissionElevation(before: number | null | undefined, after: number): Elevation | undefined {
  if (after === SUPER_ADMINISTRATOR && before !== SUPER_ADMINISTRATOR) return { kind: 'super-administrator' };
  if (after === GROUP_CREATOR && before !== GROUP_CREATOR && before !== SUPER_ADMINISTRATOR)
    return { kind: 'group-creator' };
  return undefined;
}

/** The elevation a group level change grants, if any. */
export function groupElevation(
  group: string,
  before: GroupLevel | undefined,
  after: GroupLevel,
): Elevation | undefined {
  return after === GROUP_ADMINISTRATOR && before !== GROUP_ADMINISTRATOR
    ? { kind: 'group-administrator', group }
    : undefined;
}

/** What a change grants, in the order it would be read out: organisation permission, then groups by name. */
export function elevationsOf(change: PlanChange, groupName: (id: number) => string): Elevation[] {
  switch (change.kind) {
    case 'create':
    case 'restore': {
      const out: Elevation[] = [];
      const own = permissionElevation(undefined, change.member.accountPermission);
      if (own) out.push(own);
      for (const [id, level] of change.member.groups) {
        const e = groupElevation(groupName(id), 0, level);
        if (e) out.push(e);
      }
      return out;
    }
    case 'field': {
      const e = change.field === 'accountPermission' ? permissionElevation(change.before, change.after) : undefined;
      return e ? [e] : [];
    }
    case 'group': {
      const e = groupElevation(change.groupName, change.before, change.after);
      return e ? [e] : [];
    }
    default:
      return [];
  }
}

/** Every change of the plan that grants power, with what it grants. */
export function planElevations(
  plan: Plan,
  changes: readonly PlanChange[],
): Array<{ readonly change: PlanChange; readonly elevations: readonly Elevation[] }> {
  const names = new Map(plan.groups.map((g) => [g.id, g.friendlyName || g.name]));
  const nameOf = (id: number) => names.get(id) ?? `#${id}`;
  return changes
    .map((change) => ({ change, elevations: elevationsOf(change, nameOf) }))
    .filter((e) => e.elevations.length > 0);
}
