/**
 * The types of a members file as read and of its problems. The portal, the plan, the journal, the report rows and
 * the snapshots are the write engine's (src/engine/members/model.ts), re-exported here for the file side.
 *
 * Pure types and constants: no I/O, no `vscode`. Every text that came from the file or the portal is carried as
 * it was; whoever shows it makes it plain.
 */
import type { MemberColumn } from '../../csv/memberColumns';

import type { Plan } from '../../../../engine/members/model';

export * from '../../../../engine/members/model';

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
 * One data row, kept compact (a file of a million rows keeps a million of these): values by header index, and where
 * the row starts in the text. A cell's place is found again from there only when a problem needs it, rather than
 * kept for every cell. Read a cell with `cellOf(file, row, key)` (membersFile.ts).
 */
export interface MembersFileRow {
  /** 1-based data row number (the header is not counted), as the report names rows. */
  readonly row: number;
  /** Zero-based line where the row starts. */
  readonly line: number;
  /** Char offset in the file's text (without its byte order mark) where the row starts. */
  readonly start: number;
  /**
   * Cell values as read (see FileCell.value), by header index; a row shorter than the header has fewer, and a row
   * given as data (membersFileOfRows) has none where it left a column out.
   */
  readonly values: readonly (string | undefined)[];
}

export interface MembersFile {
  /** The text read, without its byte order mark: cells' places are found in it again when asked for. */
  readonly text: string;
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

/**
 * A file read without keeping its rows: each was handed on as it was read (see streamMembersFile), to be read again
 * when needed. Cells' places are found in its text as in a file read whole.
 */
export type FileWithoutRows = Omit<MembersFile, 'rows'>;

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
// A plan made from a file
// ---------------------------------------------------------------------------------------------------------------

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
 * How a plan's change is named in the history, once the user has chosen what it applies: from a file (its name, or
 * the sheet it was imported from), or an offboarding (and the tag it gives, if any).
 */
export type PlanNaming =
  | { readonly kind: 'file'; readonly source: string }
  | { readonly kind: 'offboard'; readonly tag?: string }
  | { readonly kind: 'allGroups' };

/**
 * The engine's plan as the Plan view holds it: one made from a members file also carries the file's skipped rows and
 * what it read, and any plan how its change will be named. The engine runs changes and needs none of it.
 */
export interface FilePlan extends Plan {
  /** How the change will be named when applied; a plan with a fixed `title` keeps it. */
  readonly naming?: PlanNaming;
  /** Rows of the file not planned (errors, repeated usernames), each with its problems. Plans from a file only. */
  readonly skipped?: readonly SkippedRow[];
  /** What a plan from a file read. */
  readonly source?: PlanSource;
}
