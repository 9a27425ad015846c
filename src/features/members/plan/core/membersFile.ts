/**
 * Reads a portal members file: the CSV the members export writes (or one written by hand with its header), with
 * the cells' places kept for diagnostics. csv-parse does the parsing: a UTF-8 byte order mark, `;`-separated files
 * from European Excel (the delimiter is taken from the header line), quoted line breaks.
 */
import type { MemberColumn } from '../../csv/membersCsv';
import type { ColumnKey, GroupLevel, MembersFile } from './model';

export interface ParseOptions {
  /**
   * Header labels besides the column keys and the English labels of the export (`Username`, `E-mail`, …): the
   * translated labels the export wrote in the user's language.
   */
  readonly headers?: Partial<Record<MemberColumn, string>>;
}

/** Reads `text` (with or without its byte order mark). Never throws: malformed CSV is a problem in the result. */
export function parseMembersFile(text: string, options: ParseOptions = {}): MembersFile {
  void text;
  void options;
  throw new Error('not yet');
}

/** The column a header cell names, or undefined. Case and surrounding spaces do not matter. */
export function columnOf(header: string, options: ParseOptions = {}): ColumnKey | undefined {
  void header;
  void options;
  throw new Error('not yet');
}

/** Whether the first line of a CSV looks like a members file (it has a username column): for the UI's "is this one of ours". */
export function looksLikeMembersFile(firstLine: string, options: ParseOptions = {}): boolean {
  void firstLine;
  void options;
  throw new Error('not yet');
}

/** `true`/`false` (also yes/no, 1/0, any case); undefined for anything else. */
export function readBoolean(text: string): boolean | undefined {
  void text;
  throw new Error('not yet');
}

/** Basic, Standard, Administrator (any case) or empty (0); undefined for anything else. */
export function readGroupWord(text: string): GroupLevel | undefined {
  void text;
  throw new Error('not yet');
}

/** The export's words (Member, Group creator, Super administrator), any case; undefined for anything else. */
export function readAccountPermission(text: string): number | undefined {
  void text;
  throw new Error('not yet');
}

/** The export's `a, b` tag list: trimmed, empty ones dropped, duplicates once. */
export function readTags(text: string): string[] {
  void text;
  throw new Error('not yet');
}

/** The word a group cell holds for a level (empty for 0). */
export function groupWord(level: GroupLevel): string {
  void level;
  throw new Error('not yet');
}

/** The `groupDigest` of a row's group cells: group name → level, order-free. */
export function groupDigest(levels: ReadonlyMap<string, GroupLevel>): string {
  void levels;
  throw new Error('not yet');
}
