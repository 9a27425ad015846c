/**
 * File + portal → plan. Pure: the same file and portal always give the same plan, with the same change ids.
 *
 * A row's empty cell is a value (an empty job title, no tags, not in a group), but a column the file leaves out
 * is not touched. A row whose member changed on the portal after the export (its `lastModified` is older than the
 * portal's) is a conflict: its changes are listed and left out unless the user chooses them. A member on the
 * portal but not in the file is left alone unless `absent` says otherwise.
 */
import type { AbsentChoice, MembersFile, Plan, PortalState } from './model';

export interface PlanOptions {
  /** Members on the portal but not in the file: left alone (default), disabled, or removed. */
  readonly absent?: AbsentChoice;
  /** Usernames the absent choice never touches (the signed-in user, say). Lower-case. */
  readonly keep?: ReadonlySet<string>;
  /** For `createdAt`; default Date.now(). */
  readonly now?: number;
}

/**
 * The plan for `file` against `state`. Rows with errors (see diagnose) are skipped, not guessed at: the caller
 * shows the problems. A file without a username column plans nothing.
 */
export function makePlan(file: MembersFile, state: PortalState, options: PlanOptions = {}): Plan {
  void file;
  void state;
  void options;
  throw new Error('not yet');
}
