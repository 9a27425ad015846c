/**
 * What a command or a handle works on, by id and with the name a person knows it by. Every view row carries one,
 * every picker returns one, and features name each other's things with them. Pure data: no VS Code here.
 */

export interface PortalRef {
  readonly kind: 'portal';
  readonly portalId: string;
  readonly label: string;
}
export interface AccountRef {
  readonly kind: 'account';
  readonly portalId: string;
  readonly accountId: number;
  readonly label: string;
}
export interface GroupRef {
  readonly kind: 'group';
  readonly account: AccountRef;
  readonly groupId: number;
  readonly label: string;
}
/** A folder on the way from a group's root to a file record. */
export interface FolderStep {
  readonly id: number;
  readonly name: string;
}
export interface FileRef {
  readonly kind: 'file';
  readonly group: GroupRef;
  readonly fileId: number;
  readonly name: string;
  readonly isFolder: boolean;
  /** Null when the portal did not say. */
  readonly size: number | null;
  readonly contentType: string;
  /**
   * The folders from the group's root down to the record's parent ([] at the root), as the view that made this ref
   * walked them; absent when not known (a picker's row). A portal without a single-record read needs them.
   */
  readonly folders?: readonly FolderStep[];
  /** As the listing gave it; absent when not known. */
  readonly lastModified?: number | null;
}
export interface MemberRef {
  readonly kind: 'member';
  readonly account: AccountRef;
  readonly username: string;
  readonly name: string;
}
export interface ApplicationRef {
  readonly kind: 'application';
  readonly portalId: string;
  readonly clientId: string;
  readonly label: string;
  /** This window signs in with it. */
  readonly current: boolean;
}
export type Ref = PortalRef | AccountRef | GroupRef | FileRef | MemberRef | ApplicationRef;

export function refPortalId(ref: Ref): string {
  switch (ref.kind) {
    case 'portal':
    case 'account':
    case 'application':
      return ref.portalId;
    case 'group':
    case 'member':
      return ref.account.portalId;
    case 'file':
      return ref.group.account.portalId;
  }
}

/** The account itself, or the account a group, file or member lies in. */
export function accountOf(ref: Ref | undefined): AccountRef | undefined {
  switch (ref?.kind) {
    case 'account':
      return ref;
    case 'group':
    case 'member':
      return ref.account;
    case 'file':
      return ref.group.account;
    default:
      return undefined;
  }
}

/** The group itself, or a file's group. */
export function groupOf(ref: Ref | undefined): GroupRef | undefined {
  if (ref?.kind === 'group') return ref;
  return ref?.kind === 'file' ? ref.group : undefined;
}

export function fileOf(ref: Ref | undefined): FileRef | undefined {
  return ref?.kind === 'file' ? ref : undefined;
}

export function memberOf(ref: Ref | undefined): MemberRef | undefined {
  return ref?.kind === 'member' ? ref : undefined;
}

export function applicationOf(ref: Ref | undefined): ApplicationRef | undefined {
  return ref?.kind === 'application' ? ref : undefined;
}
