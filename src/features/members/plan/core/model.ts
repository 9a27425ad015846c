/**
 * The types of "membership as code": a members file as read, its problems, the portal as read, the plan that
 * turns one into the other, the journal that makes an apply resumable and undoable, and the report rows.
 *
 * Pure types and constants: no I/O, no `vscode`. Every text that came from the file or the portal is carried as
 * it was; whoever shows it makes it plain.
 */
import type { MemberBodyV2, MemberCreate, MemberUpdate } from '../../../../api/index';
import type { MemberColumn } from '../../csv/membersCsv';

// ---------------------------------------------------------------------------------------------------------------
// The file
// ---------------------------------------------------------------------------------------------------------------

/**
 * A group column's header is this prefix and the group's `name` (the portal's unique name, not its friendly name),
 * e.g. `group:engineering`. No member column starts with it, so a group can be called anything.
 */
export const GROUP_COLUMN_PREFIX = 'group:';

/**
 * Columns the file may carry beyond the export's member columns:
 * - `lastModified`: the member's portal `lastModified` when the file was exported (ISO 8601). A row whose member
 *   was changed on the portal since is a conflict. Read-only.
 * - `groupDigest`: a digest of the row's group cells as exported; a row whose group cells still match it has no
 *   group change, so planning needs no group read for it. Read-only.
 * - `activationDate`: for a new member, when the activation e-mail goes out (ISO 8601 date or date-time; empty =
 *   now). Ignored for members already on the portal.
 */
export const EXTRA_COLUMNS = ['lastModified', 'groupDigest', 'activationDate'] as const;
export type ExtraColumn = (typeof EXTRA_COLUMNS)[number];

/** A column a file may hold: a member column of the export, an extra column, or `group:<name>`. */
export type ColumnKey = MemberColumn | ExtraColumn | `group:${string}`;

/** Member columns a file can change. The rest (`created`, `lastActive`, `lastModified`, …) are read-only. */
export const EDITABLE_COLUMNS = [
  'name',
  'email',
  'enabled',
  'locked',
  'accountPermission',
  'tags',
  'twoFactor',
  'jobTitle',
] as const satisfies readonly MemberColumn[];
export type EditableColumn = (typeof EDITABLE_COLUMNS)[number];

/** Group permission words of a group cell; an empty cell means "not in the group". */
export const GROUP_WORDS = { Basic: 1, Standard: 4, Administrator: 16 } as const;
export type GroupWord = keyof typeof GROUP_WORDS;
export type { GroupLevel } from './file/digest';
import type { GroupLevel } from './file/digest';

/**
 * A place in the text, zero-based like VS Code's Position (lines and UTF-16 columns), in the text WITHOUT its
 * byte order mark (VS Code's document text has none). A cell with a quoted line break spans lines.
 */
export interface Span {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface FileCell {
  /** The value as read: quotes undone, and an export-neutralised `'=`, `'+`, `'-`, `'@` read back without the `'`. */
  readonly value: string;
  readonly span: Span;
}

export interface HeaderCell {
  /** The column this header names; undefined when it names none (an unknown column, a problem). */
  readonly key: ColumnKey | undefined;
  readonly text: string;
  readonly span: Span;
}

/**
 * One data row, kept compact (a 20,000-row file stays small): values and places by header index. Read a cell with
 * `cellOf(file, row, key)` (membersFile.ts).
 */
export interface MembersFileRow {
  /** 1-based data row number (the header is not counted), as the report names rows. */
  readonly row: number;
  /** Zero-based line where the row starts. */
  readonly line: number;
  /** Cell values as read (see FileCell.value), by header index; a row shorter than the header has fewer. */
  readonly values: readonly string[];
  /** Cell places by header index, four numbers each: line, column, endLine, endColumn. */
  readonly places: Int32Array;
}

export interface MembersFile {
  readonly delimiter: ',' | ';';
  /** The text started with a UTF-8 byte order mark. */
  readonly bom: boolean;
  readonly header: readonly HeaderCell[];
  /** Header index by column (the first, when a column is named twice). */
  readonly columns: ReadonlyMap<ColumnKey, number>;
  readonly rows: readonly MembersFileRow[];
  /** Group names of the header's group columns, in header order. */
  readonly groupColumns: readonly string[];
  /** Problems found while reading (malformed CSV, header problems); `diagnose` adds the rest. */
  readonly problems: readonly Problem[];
}

// ---------------------------------------------------------------------------------------------------------------
// Problems (the Problems panel)
// ---------------------------------------------------------------------------------------------------------------

/**
 * What a problem is, language-neutral. The UI translates by code; `args` fill its message, in this order:
 * - `csv-malformed` [csv-parse's message]           - `no-username-column` []
 * - `unknown-column` [header text]                   - `duplicate-column` [header text]
 * - `unknown-group` [group name]                     - `read-only-column` [column]        (info: its edits are ignored)
 * - `bad-group-permission` [cell text]               - `bad-account-permission` [cell text]
 * - `bad-boolean` [column, cell text]                - `bad-date` [column, cell text]
 * - `empty-username` []                              - `bad-username` [username]
 * - `duplicate-username` [username, first row]       - `bad-email` [cell text]
 * - `too-long` [column, max length]                  - `bad-tag` [tag]
 * - `missing-for-create` [username, missing column]
 * - `cannot-enable-two-factor` []                    (a file can turn two-factor off, not on)
 * - `extra-cells` [count]                            (warning: more cells than the header)
 * - `blank-value` [column]                           (a name or e-mail a member must have)
 * - `no-lastmodified-column` []                      (info: without it, conflicts cannot be found)
 * - `future-last-modified` [cell text]               (a baseline later than the portal read: no baseline at all)
 * - `elevation` [what, group name]                   (warning: the row grants Super administrator, Group creator
 *                                                     or a group's Administrator level; what is a ElevationKind)
 */
export type ProblemCode =
  | 'csv-malformed'
  | 'no-username-column'
  | 'unknown-column'
  | 'duplicate-column'
  | 'unknown-group'
  | 'read-only-column'
  | 'bad-group-permission'
  | 'bad-account-permission'
  | 'bad-boolean'
  | 'bad-date'
  | 'empty-username'
  | 'bad-username'
  | 'duplicate-username'
  | 'bad-email'
  | 'too-long'
  | 'bad-tag'
  | 'missing-for-create'
  | 'cannot-enable-two-factor'
  | 'extra-cells'
  | 'blank-value'
  | 'no-lastmodified-column'
  | 'future-last-modified'
  | 'elevation';

export type Severity = 'error' | 'warning' | 'info';

export interface Problem extends Span {
  readonly code: ProblemCode;
  /** The data row the problem is in; undefined for header and file problems. */
  readonly row?: number;
  readonly severity: Severity;
  /** File or portal text among them is untrusted: the UI makes it plain. */
  readonly args: readonly (string | number)[];
}

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

export interface CreateChange extends ChangeBase {
  readonly kind: 'create';
  readonly member: NewMemberSpec;
}

export type FieldChange = ChangeBase & { readonly kind: 'field' } & FieldValues;

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

/** A data row of the file the plan does not plan, and why: no row of the file is left out without a word. */
export interface SkippedRow {
  /** 1-based data row number. */
  readonly row: number;
  /** Zero-based line where the row starts (the editor shows line + 1). */
  readonly line: number;
  /** The row's username as written ('' when empty). */
  readonly username: string;
  /** The row's errors, in file order (at least one). */
  readonly problems: readonly Problem[];
}

/** What a plan made from a file read: the file's text and the portal at one moment. Apply refuses it once either moved. */
export interface PlanSource {
  /** sha256 (base64url) of the file's text as planned. */
  readonly fileDigest: string;
  /** When the portal read started (ms). */
  readonly readAt: number;
  /** Data rows in the file. */
  readonly rows: number;
  /** Rows that plan no change because the portal already matches them. */
  readonly unchanged: number;
  /** Zero-based line where each data row starts, by row number - 1: a change's row is shown at its line. */
  readonly rowLines: readonly number[];
}

/**
 * A member's values before the apply, as far as the plan touches them: what the journal records and what undo
 * restores. Group levels only for the groups the plan changes (or all, when the member is removed).
 */
export interface MemberBefore {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly jobTitle: string | null;
  readonly enabled: boolean;
  readonly locked: boolean;
  readonly accountPermission: number | null;
  readonly tags: readonly string[];
  readonly twoFactor: boolean;
  readonly lastModified: number | null;
  /** Group id → level (0 = not in it) for the groups known. */
  readonly groups: Readonly<Record<string, GroupLevel>>;
}

export type AbsentChoice = 'leave' | 'disable' | 'remove';

export interface Plan {
  readonly accountId: number;
  /** The organisation's groups as read (names for group ids). */
  readonly groups: readonly PortalGroup[];
  /** Where the plan came from: a file, an undo, a retry or a re-create. */
  readonly origin: 'file' | 'undo' | 'retry' | 'recreate';
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
  /** Rows of the file not planned (errors, repeated usernames), each with its problems. Plans from a file only. */
  readonly skipped?: readonly SkippedRow[];
  /** What a plan from a file read. */
  readonly source?: PlanSource;
}

/**
 * A plan not made from a file (an undo, a retry, a re-create): no conflicts, nothing left out by default, and the
 * permanent removals named from its removals.
 */
export function derivedPlan(
  base: Pick<Plan, 'accountId' | 'groups' | 'origin' | 'createdAt'>,
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
export type ReportResult = 'done' | 'failed' | 'skipped' | 'not-started';

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
  readonly row: number | undefined;
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

/** Lines of a journal file (JSON Lines), in the order written. */
export type JournalEntry =
  | {
      readonly type: 'begin';
      readonly applyId: string;
      readonly accountId: number;
      /** Portal id (the UI's), so a resume after a reload knows which client to use. */
      readonly portalId: string;
      readonly origin: Plan['origin'] | 'bulk';
      readonly startedAt: number;
      /** The run this one undoes, when it is an undo. */
      readonly undoOf?: string;
      readonly work: readonly JournalWork[];
    }
  | {
      /** Written, and made durable, before the member's first request. */
      readonly type: 'intent';
      readonly seq: number;
      /** The member's values just before (a removal's read groups included). */
      readonly before: MemberBefore | null;
      readonly requests: readonly JournalRequest[];
      /** Where the member's snapshot was written, before a removal that deletes the user for good. */
      readonly snapshot?: string;
    }
  | {
      readonly type: 'outcome';
      readonly seq: number;
      readonly result: Exclude<ReportResult, 'not-started'>;
      readonly message: string;
    }
  | { readonly type: 'end'; readonly finishedAt: number; readonly cancelled: boolean; readonly discarded?: boolean };

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

/** A journal as read back. */
export interface JournalRecord {
  readonly applyId: string;
  readonly file: string;
  readonly begin: Extract<JournalEntry, { type: 'begin' }>;
  /** Intent by work seq. */
  readonly intents: ReadonlyMap<number, Extract<JournalEntry, { type: 'intent' }>>;
  /** Outcome by intent seq. */
  readonly outcomes: ReadonlyMap<number, Extract<JournalEntry, { type: 'outcome' }>>;
  readonly end: Extract<JournalEntry, { type: 'end' }> | undefined;
  /** An intent without an outcome, or no end: the apply stopped without finishing (a crash or a reload). */
  readonly unfinished: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Snapshots
// ---------------------------------------------------------------------------------------------------------------

/** A member kept before a removal that deletes the user for good: everything but the password. */
export interface MemberSnapshot {
  readonly version: 1;
  readonly takenAt: number;
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
