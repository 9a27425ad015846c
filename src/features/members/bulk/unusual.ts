/**
 * Who in a bulk selection is not like the rest, from the members' own data: those still awaiting activation (a
 * disable of "inactive" members sweeps up starters who never had the chance to sign in), those already in the
 * change's target state, and Super administrators. The confirmation names them, so a sweep is never blind. Pure.
 */
import { AccountPermission } from '../../../api/index';
import type { MemberRow } from '../../../shared/members';
import type { BulkChange } from './bulkChange';

export interface Unusual {
  /** An activation e-mail is still to go out: they have never signed in. */
  readonly pending: readonly string[];
  /** Already what the change would make them (the change skips them). */
  readonly already: readonly string[];
  readonly superAdministrators: readonly string[];
}

/** Whether the change would leave the member as they are; undefined when the row cannot tell (a group's level). */
function alreadyThere(change: BulkChange, row: MemberRow): boolean | undefined {
  switch (change.kind) {
    case 'enable':
      return row.enabled;
    case 'disable':
      return !row.enabled;
    case 'lock':
      return row.locked;
    case 'unlock':
      return !row.locked && !row.pendingUnlock;
    case 'addTag':
      return row.tags.includes(change.tag);
    case 'removeTag':
      return !row.tags.includes(change.tag);
    case 'delete':
    case 'setGroupPermission':
      return undefined;
  }
}

/**
 * Still awaiting activation: an activation e-mail is set for them and they have never signed in, or it is set for a
 * later date. (Every member carries an activation mode, so the mode alone does not tell.)
 */
export function awaitingActivation(row: MemberRow, now: number): boolean {
  if (row.activation === null) return false;
  if (row.lastActive === null) return true;
  return row.activation === 'custom' && row.activationDate !== null && row.activationDate > now;
}

export function unusualIn(change: BulkChange, rows: readonly MemberRow[], now: number = Date.now()): Unusual {
  return {
    pending: rows.filter((r) => awaitingActivation(r, now)).map((r) => r.username),
    already: rows.filter((r) => alreadyThere(change, r) === true).map((r) => r.username),
    superAdministrators: rows
      .filter((r) => r.permission !== null && (r.permission & AccountPermission.SuperAdministrator) !== 0)
      .map((r) => r.username),
  };
}
