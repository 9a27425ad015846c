/** What commands may ask of the views after they change something on the portal. Implemented in src/tree. */
import type { MemberRow } from '../shared/members';

export interface MembersTargetRef {
  readonly portalId: string;
  readonly accountId: number;
  readonly accountLabel: string;
}

export interface ViewsHandle {
  /** An account's groups changed (duplicate, trash): reload its list. */
  refreshAccount(portalId: string, accountId: number): void;
  /** The account the Members view shows, if any. */
  membersTarget(): MembersTargetRef | undefined;
  memberChanged(portalId: string, accountId: number, row: MemberRow): void;
  memberRemoved(portalId: string, accountId: number, username: string): void;
  refreshApplications(portalId?: string): void;
}
