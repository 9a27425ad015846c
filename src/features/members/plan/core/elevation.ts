/**
 * Elevations: changes that give someone more power over the organisation than a Member has. Granting Super
 * administrator, Group creator or a group's Administrator level is named wherever a plan is shown, so a file from
 * someone else cannot hand out power unseen. So is a change that hands over an administrator's sign-in: their
 * e-mail changed (a password reset then goes to the new address), two-factor authentication turned off, or the
 * member enabled or unlocked. An administrator is a member with more power than a Member: Super administrator,
 * Group creator, or Administrator of any group, as the portal holds them or as the same plan makes them.
 */
import type { GroupLevel, Plan, PlanChange } from './model';

const SUPER_ADMINISTRATOR = 16;
const GROUP_CREATOR = 4;
const GROUP_ADMINISTRATOR: GroupLevel = 16;

export type ElevationKind = 'super-administrator' | 'group-creator' | 'group-administrator' | 'administrator-sign-in';

/** The fields whose change can hand an administrator's sign-in to someone else. */
export type SignInField = 'email' | 'twoFactor' | 'enabled' | 'locked';

export interface Elevation {
  readonly kind: ElevationKind;
  /** The group's name, for a group's Administrator level. */
  readonly group?: string;
  /** The field changed, for an administrator's sign-in. */
  readonly field?: SignInField;
}

/** Whether an organisation permission and group levels give more power than a Member has. */
export function holdsPower(accountPermission: number | null | undefined, levels: Iterable<GroupLevel>): boolean {
  if (accountPermission === SUPER_ADMINISTRATOR || accountPermission === GROUP_CREATOR) return true;
  for (const level of levels) if (level === GROUP_ADMINISTRATOR) return true;
  return false;
}

/**
 * The elevation a field change of an administrator is, if any: a new e-mail, two-factor authentication off, enabled
 * again, unlocked. Other fields, and the other way round, hand nothing over.
 */
export function signInElevation(field: string, before: unknown, after: unknown): Elevation | undefined {
  switch (field) {
    case 'email':
      return before !== after ? { kind: 'administrator-sign-in', field } : undefined;
    case 'twoFactor':
      return before === true && after === false ? { kind: 'administrator-sign-in', field } : undefined;
    case 'enabled':
      return before === false && after === true ? { kind: 'administrator-sign-in', field } : undefined;
    case 'locked':
      return before === true && after === false ? { kind: 'administrator-sign-in', field } : undefined;
    default:
      return undefined;
  }
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
      const e =
        change.field === 'accountPermission'
          ? permissionElevation(change.before, change.after)
          : change.ofAdministrator
            ? signInElevation(change.field, change.before, change.after)
            : undefined;
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
