/**
 * The write engine's member types: the portal as read, the plan that changes it, the journal that makes a run
 * resumable and undoable, the report rows and the snapshots of members deleted for good.
 *
 * Pure types: no I/O, no `vscode`. Every text that came from a file or the portal is carried as it was; whoever
 * shows it makes it plain.
 */
import type { MemberBodyV2, MemberCreate, MemberUpdate } from '../../api/index';
import type { GroupLevel } from '../../shared/groupLevel';
import type { JournalEntryOf, JournalRecordOf, ReportResult } from '../job';

export type { GroupLevel } from '../../shared/groupLevel';

// ---------------------------------------------------------------------------------------------------------------
// The portal
// ---------------------------------------------------------------------------------------------------------------

export interface PortalGroup {
  readonly id: number;
  /** Unique name: what a `group:<name>` column names. */
  readonly name: string;
  readonly friendlyName: string;
}

/** A member as the portal holds them, in the file's terms. */
export interface PortalMember {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly jobTitle: string | null;
  readonly enabled: boolean;
  readonly locked: boolean;
  readonly pendingUnlock: boolean;
  readonly accountPermission: number | null;
  readonly tags: readonly string[];
  readonly twoFactor: boolean;
  readonly lastModified: number | null;
  readonly created: number | null;
  readonly lastActive: number | null;
  /** The user belongs to another organisation too: removing them here does not delete the user. */
  readonly memberOfMultipleAccounts: boolean;
  /** Group id → level, only when read (a v2 member read); undefined = not read. */
  readonly groups?: ReadonlyMap<number, GroupLevel>;
}

export interface PortalState {
  readonly accountId: number;
  /** When the walk started (ms). */
  readonly readAt: number;
  /** By lower-case username (the portal's usernames are case-insensitive). */
  readonly members: ReadonlyMap<string, PortalMember>;
  readonly groups: readonly PortalGroup[];
  /** Requests the read took (the walk, the group list, the group reads). */
  readonly requests: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The plan
// ---------------------------------------------------------------------------------------------------------------

/** Values a field change moves between; one type per field. */
export type FieldValues =
  | { readonly field: 'name' | 'email'; readonly before: string; readonly after: string }
  | { readonly field: 'jobTitle'; readonly before: string | null; readonly after: string | null }
  | { readonly field: 'enabled' | 'locked' | 'twoFactor'; readonly before: boolean; readonly after: boolean }
  | { readonly field: 'accountPermission'; readonly before: number | null; readonly after: number }
  | { readonly field: 'tags'; readonly before: readonly string[]; readonly after: readonly string[] };
export type MemberField = FieldValues['field'];

interface ChangeBase {
  /**
   * Stable across plans of the same file and portal: `<username>` + `#create`, `#field:<field>`,
   * `#group:<groupId>`, `#absent`. The UI leaves a change out by its id.
   */
  readonly id: string;
  /** The portal's username (as the portal spells it for members on it; as the file does for new ones). */
  readonly username: string;
  /** The file's data row; undefined for changes not from a row (absent members, undo, re-create). */
  readonly row: number | undefined;
}

/** What the portal needs to create a member, from the file. Never a password. */
export interface NewMemberSpec {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly jobTitle: string | null;
  readonly enabled: boolean;
  readonly accountPermission: number;
  readonly tags: readonly string[];
  /** Group id → level (1, 4, 16). */
  readonly groups: ReadonlyMap<number, GroupLevel>;
  /** When the activation e-mail goes out (ms); undefined = now. */
  readonly activationDate: number | undefined;
  /** The member is to be locked after creation (a second request: create takes no lock). */
  readonly locked: boolean;
}

/** A new member from the fields given: a field not given is what the portal gives a new member. */
export function newMember(
  username: string,
  fields: MemberTarget['fields'],
  groups: ReadonlyMap<number, GroupLevel>,
  activationDate: number | undefined,
): NewMemberSpec {
  return {
    username,
    name: fields.name ?? '',
    email: fields.email ?? '',
    jobTitle: fields.jobTitle ?? null,
    enabled: fields.enabled ?? true,
    locked: fields.locked ?? false,
    accountPermission: fields.accountPermission ?? 1,
    tags: fields.tags ?? [],
    groups,
    activationDate,
  };
}

export interface CreateChange extends ChangeBase {
  readonly kind: 'create';
  readonly member: NewMemberSpec;
}

export type FieldChange = ChangeBase & {
  readonly kind: 'field';
  /**
   * The member is an administrator (more power than a Member, before or after the plan): a change that hands over
   * their sign-in (e-mail, two-factor off, enabled, unlocked) grants that power. Set by the plan made from a file.
   */
  readonly ofAdministrator?: boolean;
} & FieldValues;

export interface GroupChange extends ChangeBase {
  readonly kind: 'group';
  readonly groupId: number;
  readonly groupName: string;
  readonly before: GroupLevel;
  readonly after: GroupLevel;
}

/** added: 0 → level; removed: level → 0; changed: level → other level. */
export function groupChangeKind(c: Pick<GroupChange, 'before' | 'after'>): 'added' | 'changed' | 'removed' {
  return c.before === 0 ? 'added' : c.after === 0 ? 'removed' : 'changed';
}

/** A member on the portal but not in the file, disabled or removed because the caller chose so. */
export interface AbsentChange extends ChangeBase {
  readonly kind: 'absent';
  readonly action: 'disable' | 'remove';
  /** A removal that deletes the user for good (they belong to no other organisation). */
  readonly permanent: boolean;
}

/** A member the undo of a removal brings back (from the journal's or a snapshot's previous values). */
export interface RestoreChange extends ChangeBase {
  readonly kind: 'restore';
  readonly member: NewMemberSpec;
  /** Profile fields only v2 takes, from a snapshot. */
  readonly profile?: {
    readonly telephone: string | null;
    readonly address: string | null;
    readonly organisation: string | null;
  };
}

/** A member created by an apply, removed again by its undo. */
export interface UncreateChange extends ChangeBase {
  readonly kind: 'uncreate';
  readonly permanent: boolean;
}

export type PlanChange = CreateChange | FieldChange | GroupChange | AbsentChange | RestoreChange | UncreateChange;

/** A row whose member was changed on the portal after the file was exported. */
export interface Conflict {
  /** `<username>#conflict`. */
  readonly id: string;
  readonly username: string;
  readonly row: number;
  /** lastModified the file carries (ms). */
  readonly exported: number;
  /** lastModified on the portal now (ms), or null when the member has left the portal since. */
  readonly portal: number | null;
  /** The row's changes: listed in their sections, left out unless chosen. */
  readonly changeIds: readonly string[];
  /**
   * What moved: the member (`lastModified`, the default) or their groups (the groups read now no longer match the
   * export's `groupDigest`, whether or not the portal moved `lastModified`).
   */
  readonly reason?: 'modified' | 'groups';
}

/**
 * A member's values before the apply, as far as the plan touches them: what the journal records and what undo
 * restores. Group levels only for the groups the plan changes (or all, when the member is removed).
 */
export interface MemberBefore extends Pick<
  PortalMember,
  | 'username'
  | 'name'
  | 'email'
  | 'jobTitle'
  | 'enabled'
  | 'locked'
  | 'accountPermission'
  | 'tags'
  | 'twoFactor'
  | 'lastModified'
> {
  /** Group id → level (0 = not in it) for the groups known. */
  readonly groups: Readonly<Record<string, GroupLevel>>;
}

export type AbsentChoice = 'leave' | 'disable' | 'remove';

export interface Plan {
  readonly accountId: number;
  /** The organisation's groups as read (names for group ids). */
  readonly groups: readonly PortalGroup[];
  /** Where the plan came from: a file, an undo, a retry, a re-create, or a change to a selection of members. */
  readonly origin: 'file' | 'undo' | 'retry' | 'recreate' | 'bulk';
  readonly createdAt: number;
  /** New members. */
  readonly newMembers: readonly (CreateChange | RestoreChange)[];
  /** Changed fields, before → after (a member disabled by the file is in `disabled` instead). */
  readonly fieldChanges: readonly FieldChange[];
  /** Group permissions added, changed or removed. */
  readonly groupChanges: readonly GroupChange[];
  /** Members the file disables (enabled true → false). */
  readonly disabled: readonly FieldChange[];
  /** Members not in the file, disabled or removed only because the caller chose so; removals of created members. */
  readonly absent: readonly (AbsentChange | UncreateChange)[];
  readonly conflicts: readonly Conflict[];
  /** Ids of removals that delete a user for good, named so the UI can say so. */
  readonly permanentDeletions: readonly string[];
  /** Change ids left out unless the user chooses them: every conflicting row's changes. */
  readonly leftOutByDefault: readonly string[];
  /** Previous values of every member the plan changes, by lower-case username. */
  readonly before: ReadonlyMap<string, MemberBefore>;
  /** The file had a `lastModified` column, so conflicts could be found. */
  readonly conflictsChecked: boolean;
  /** An undo's plan: the run it reverses (journaled with the undo, so that run is never offered again). */
  readonly undoOf?: string;
  /** The change in the user's words, for the history and Undo ("Disable 27 members"). */
  readonly title?: string;
}

/**
 * A plan not made from a file (an undo, a retry, a re-create): no conflicts, nothing left out by default, and the
 * permanent removals named from its removals.
 */
export function derivedPlan(
  base: Pick<Plan, 'accountId' | 'groups' | 'origin' | 'createdAt' | 'undoOf' | 'title'>,
  sections: Partial<Pick<Plan, 'newMembers' | 'fieldChanges' | 'groupChanges' | 'disabled' | 'absent' | 'before'>>,
): Plan {
  const absent = sections.absent ?? [];
  return {
    ...base,
    newMembers: sections.newMembers ?? [],
    fieldChanges: sections.fieldChanges ?? [],
    groupChanges: sections.groupChanges ?? [],
    disabled: sections.disabled ?? [],
    absent,
    conflicts: [],
    permanentDeletions: absent.filter((a) => a.permanent).map((a) => a.id),
    leftOutByDefault: [],
    before: sections.before ?? new Map(),
    conflictsChecked: false,
  };
}

/** Every change of the plan, section by section. */
export function allChanges(plan: Plan): PlanChange[] {
  return [...plan.newMembers, ...plan.fieldChanges, ...plan.groupChanges, ...plan.disabled, ...plan.absent];
}

// ---------------------------------------------------------------------------------------------------------------
// Apply, report and journal
// ---------------------------------------------------------------------------------------------------------------

export type ReportAction = 'create' | 'update' | 'disable' | 'remove' | 'restore';
export type { ReportResult } from '../job';

export interface ReportRow {
  /** The file's data row, when the change came from one. */
  readonly row: number | undefined;
  readonly username: string;
  readonly action: ReportAction;
  readonly result: ReportResult;
  /** A message a person can act on (the portal's error text is untrusted). Empty when done. */
  readonly message: string;
  /** The plan changes this row carried, so a retry can take them again. */
  readonly changeIds: readonly string[];
}

/**
 * One request of an apply, as the journal records it before sending. `v2.update` changes the profile fields
 * the v3 PATCH cannot (name, e-mail, job title); `v2.create` creates a member with what only v2 takes at creation
 * (job title, a later activation date, a profile's address); everything else goes in one v3 PATCH or POST.
 */
export type JournalRequest =
  | { readonly method: 'v3.create'; readonly body: MemberCreate }
  | { readonly method: 'v2.create'; readonly body: MemberBodyV2 }
  | { readonly method: 'v3.update'; readonly body: MemberUpdate }
  | { readonly method: 'v2.update'; readonly body: MemberBodyV2 }
  | { readonly method: 'v3.delete' };

/** One member's part of a run, as planned: written whole in the journal's first line, so a resume loses nothing. */
export interface JournalWork {
  readonly seq: number;
  readonly username: string;
  /** The file's data row, when the work came from one (absent, not undefined, in a journal read back). */
  readonly row?: number;
  readonly action: ReportAction;
  readonly changeIds: readonly string[];
  /** What the member looked like before; null for a member being created. */
  readonly before: MemberBefore | null;
  /** What the member will look like after, as far as the run touches them; null for a removal. */
  readonly after: MemberTarget | null;
  /** The requests, as planned (a removal's snapshot read comes first and is not listed). */
  readonly requests: readonly JournalRequest[];
  /** Group id → name, for the groups the run touches (for an undo plan's words). */
  readonly groupNames: Readonly<Record<string, string>>;
  /** A removal that deletes the user for good. */
  readonly permanent: boolean;
}

/**
 * Where a run came from: a plan made from a file, an undo, a retry or a re-create; a bulk edit on a selection; a
 * single command on one member; a form's save; Give Same Access (the journal's schema has always let it in).
 */
export type JournalOrigin = Plan['origin'] | 'access' | 'bulk' | 'single' | 'form';

/** Lines of a members journal file (JSON Lines), in the order written. */
export type JournalEntry = JournalEntryOf<JournalWork, MemberBefore, JournalRequest, JournalOrigin>;

/** What a member's portal values must be once an intent is done, for the fields and groups it touches. */
export interface MemberTarget {
  readonly fields: Partial<{
    name: string;
    email: string;
    jobTitle: string | null;
    enabled: boolean;
    locked: boolean;
    accountPermission: number;
    tags: readonly string[];
    twoFactor: boolean;
  }>;
  /** Group id → level. */
  readonly groups: Readonly<Record<string, GroupLevel>>;
}

/** A members journal as read back. */
export type JournalRecord = JournalRecordOf<JournalWork, MemberBefore, JournalRequest, JournalOrigin>;

// ---------------------------------------------------------------------------------------------------------------
// Snapshots
// ---------------------------------------------------------------------------------------------------------------

/** A member kept before a removal that deletes the user for good: everything but the password. */
export interface MemberSnapshot {
  readonly version: 1 | 2;
  readonly takenAt: number;
  /** The portal's origin (scheme, host, port) it was taken on; absent in a version 1 snapshot. */
  readonly portal?: string;
  readonly accountId: number;
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly jobTitle: string | null;
  readonly telephone: string | null;
  readonly address: string | null;
  readonly organisation: string | null;
  readonly enabled: boolean;
  readonly accountPermission: number | null;
  readonly tags: readonly string[];
  /** Group name → level (names survive a group's id changing on a restore elsewhere; ids are kept too). */
  readonly groups: readonly { readonly id: number; readonly name: string; readonly level: GroupLevel }[];
}
