/**
 * The problems of a members file, at their line and column: what the Problems panel shows while the file is open.
 * Codes and arguments only (see ProblemCode); the UI words them.
 */
import type { MembersFile, PortalGroup, PortalMember, Problem } from './model';

/** What is known of the portal; without it, group names and "new member" checks are skipped. */
export interface DiagnoseContext {
  readonly groups?: readonly PortalGroup[];
  /** By lower-case username. A row whose username is not here is a new member. */
  readonly members?: ReadonlyMap<string, PortalMember>;
}

/** Every problem of the file, the parse problems included, in file order. */
export function diagnose(file: MembersFile, context: DiagnoseContext = {}): Problem[] {
  void file;
  void context;
  throw new Error('not yet');
}
