/**
 * Reads a portal members file: the CSV the members export writes (or one written by hand with its header), with
 * the cells' places kept for diagnostics. csv-parse does the parsing: a UTF-8 byte order mark, `;`-separated files
 * from European Excel (the delimiter is taken from the header line), quoted line breaks. Places come from
 * csv-parse's byte count after each record; within a record the cells are found again by a quote-aware walk that
 * only counts characters (the values are csv-parse's).
 */
import { Parser } from 'csv-parse';
import { parse, type CsvError } from 'csv-parse/sync';
export { groupDigest } from '../../../../../node/groupDigest';
import {
  ACCOUNT_PERMISSION,
  ACCOUNT_PERMISSION_WORDS,
  accountPermissionWords,
  LEVEL_PERMISSION,
  LEVEL_WORDS,
  levelWordOf,
} from '../../../../../shared/permissions';
import { liveText } from '../../../csv/csv';
import { DEFAULT_MEMBER_HEADERS, MEMBER_COLUMNS, type MemberColumn } from '../../../csv/memberColumns';
import {
  EXTRA_COLUMNS,
  GROUP_COLUMN_PREFIX,
  type ColumnKey,
  type FileCell,
  type FileWithoutRows,
  type MembersFileRow,
  type GroupLevel,
  type HeaderCell,
  type MembersFile,
  type Problem,
  type Span,
} from '../model';

export interface ParseOptions {
  /**
   * Header labels besides the column keys and the English labels of the export (`Username`, `E-mail`, …): the
   * translated labels the export wrote in the user's language.
   */
  readonly headers?: Partial<Record<MemberColumn, string>>;
}

const BOM = '\uFEFF';

function fold(text: string): string {
  return text.trim().toLowerCase();
}

/** English labels besides the export's defaults: the extension's export writes the UI's word for the permission. */
const ALIASES: ReadonlyArray<readonly [string, ColumnKey]> = [
  ['Organisation permission', 'accountPermission'],
  ['Organization permission', 'accountPermission'],
];

function labelIndex(options: ParseOptions): Map<string, ColumnKey> {
  const index = new Map<string, ColumnKey>();
  for (const key of [...MEMBER_COLUMNS, ...EXTRA_COLUMNS]) index.set(fold(key), key);
  for (const [label, key] of ALIASES) index.set(fold(label), key);
  for (const c of MEMBER_COLUMNS) {
    index.set(fold(DEFAULT_MEMBER_HEADERS[c]), c);
    const own = options.headers?.[c];
    if (own) index.set(fold(own), c);
  }
  return index;
}

/** The column a header cell names, or undefined. Case and surrounding spaces do not matter. */
export function columnOf(header: string, options: ParseOptions = {}): ColumnKey | undefined {
  return columnIn(labelIndex(options), header);
}

function columnIn(index: ReadonlyMap<string, ColumnKey>, header: string): ColumnKey | undefined {
  const trimmed = header.trim();
  if (trimmed.toLowerCase().startsWith(GROUP_COLUMN_PREFIX)) {
    const name = trimmed.slice(GROUP_COLUMN_PREFIX.length).trim();
    return name ? `${GROUP_COLUMN_PREFIX}${name}` : undefined;
  }
  return index.get(fold(trimmed));
}

/** The group name of a `group:<name>` column, or undefined for any other column. */
export function groupNameOf(key: ColumnKey): string | undefined {
  return key.startsWith(GROUP_COLUMN_PREFIX) ? key.slice(GROUP_COLUMN_PREFIX.length) : undefined;
}

/** `;` when the header line has more semicolons than commas outside quotes, else `,`. */
function delimiterOf(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** Columns other CSV files with a username also have (the access matrix's export, a group's list). */
const SHARED_COLUMNS: ReadonlySet<ColumnKey | undefined> = new Set<ColumnKey>(['username', 'name', 'email', 'tags']);

/**
 * Whether the first line of a CSV looks like a members file: it has a username column, and either every column is
 * a members file's or one of them is only a members file's. The access matrix's export (username, name, e-mail,
 * tags, then groups by their friendly names) is not one.
 */
export function looksLikeMembersFile(firstLine: string, options: ParseOptions = {}): boolean {
  const text = firstLine.startsWith(BOM) ? firstLine.slice(1) : firstLine;
  const line = text.split(/\r?\n|\r/, 1)[0] ?? '';
  const reader = new Reader(line, delimiterOf(text));
  readAll(reader, line);
  const index = labelIndex(options);
  const keys = (reader.header ?? []).map((h) => columnIn(index, h));
  if (!keys.includes('username')) return false;
  return keys.every((k) => k !== undefined) || keys.some((k) => k !== undefined && !SHARED_COLUMNS.has(k));
}

/** `true`/`false` (also yes/no, 1/0, any case); undefined for anything else. */
export function readBoolean(text: string): boolean | undefined {
  const t = fold(text);
  if (t === 'true' || t === 'yes' || t === '1') return true;
  if (t === 'false' || t === 'no' || t === '0') return false;
  return undefined;
}

/**
 * The group cell that leaves the member's level in that group as the portal has it (any case): what the import
 * writes for an existing member in a group its sheet does not decide, since an empty cell would remove them.
 */
export const KEEP_GROUP_WORD = 'keep';

export function isKeepGroupWord(text: string): boolean {
  return fold(text) === KEEP_GROUP_WORD;
}

/** Basic, Standard, Administrator (any case) or empty (0); undefined for anything else. */
export function readGroupWord(text: string): GroupLevel | undefined {
  const t = fold(text);
  if (t === '') return 0;
  const word = LEVEL_WORDS.find((w) => w.toLowerCase() === t);
  return word && LEVEL_PERMISSION[word];
}

/**
 * The export's words (Member, Group creator, Super administrator, or the same in the language the export was
 * written in), any case; undefined for anything else.
 */
export function readAccountPermission(text: string): number | undefined {
  const t = fold(text).replace(/\s+/g, ' ');
  const word = ACCOUNT_PERMISSION_WORDS.find(
    (w) => w.toLowerCase() === t || fold(accountPermissionWords(ACCOUNT_PERMISSION[w])) === t,
  );
  return word && ACCOUNT_PERMISSION[word];
}

/** The export's `a, b` tag list: trimmed, empty ones dropped, duplicates once. */
export function readTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ];
}

/** The word a group cell holds for a level (empty for 0). */
export function groupWord(level: GroupLevel): string {
  return levelWordOf(level) ?? '';
}

/** A cell's value as the file means it: what the export neutralised (`'=`, and after a `;`, `,`, `|`…) reads back. */
function cellValue(raw: string): string {
  return raw.includes("'") ? liveText(raw) : raw;
}

interface RawRecord {
  readonly values: string[];
  /** Char offsets into the text: start and end of each cell. */
  readonly offsets: number[];
  readonly start: number;
}

/**
 * Zero-based line/column for char offsets, from the line starts of the text: scanned only as far as an offset asks,
 * so a file read in slices is scanned in slices too.
 */
class Lines {
  private readonly starts: number[] = [0];
  private scanned = 0;
  constructor(private readonly text: string) {}
  private scanTo(offset: number): void {
    const text = this.text;
    const end = Math.min(text.length, offset + 1);
    let i = this.scanned;
    for (; i < end; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      } else if (ch === 10) this.starts.push(i + 1);
    }
    this.scanned = Math.max(this.scanned, i);
  }
  at(offset: number): { line: number; column: number } {
    if (offset >= this.scanned) this.scanTo(offset);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, column: offset - (this.starts[lo] ?? 0) };
  }
}

/**
 * The cells' char ranges of one record starting at `from`: a quoted cell runs to its closing quote (doubled quotes
 * inside), an unquoted one to the next delimiter or line end.
 */
function cellOffsets(text: string, from: number, count: number, delimiter: string): number[] {
  const offsets: number[] = [];
  let i = from;
  for (let c = 0; c < count; c++) {
    const start = i;
    if (text[i] === '"') {
      i++;
      while (i < text.length) {
        if (text[i] === '"') {
          if (text[i + 1] === '"') i += 2;
          else {
            i++;
            break;
          }
        } else i++;
      }
    }
    while (i < text.length && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') i++;
    offsets.push(start, i);
    if (text[i] === delimiter) i++;
  }
  return offsets;
}

/**
 * How many UTF-16 chars of `text`, from `from`, make `bytes` bytes of UTF-8: csv-parse counts bytes, the editor
 * counts chars. A lone surrogate counts as the three bytes of the replacement character UTF-8 writes for it.
 */
function charsOfBytes(text: string, from: number, bytes: number): number {
  let i = from;
  let left = bytes;
  while (left > 0 && i < text.length) {
    const c = text.charCodeAt(i);
    if (c < 0x80) left -= 1;
    else if (c < 0x800) left -= 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      left -= 4;
      i++;
    } else left -= 3;
    i++;
  }
  return i - from;
}

/** The line index of each file read, kept to find cells' places again (see placeOf). */
const linesOf = new WeakMap<FileWithoutRows, Lines>();

/** Takes each row as it is read, instead of the file keeping it, with its username (trimmed, as usernameOf reads it). */
export type RowSink = (row: MembersFileRow, username: string) => void;

/** A reader that hands its rows on: to whom, and where the header puts the username. */
interface Stream {
  readonly onRow: RowSink;
  readonly usernameColumn: (header: readonly string[]) => number | undefined;
  /** The line index of the text, when it was read before. */
  readonly lines?: Lines;
}

/**
 * Turns csv-parse's records into the file as they come: the header from the first, a row (values and where it
 * starts) from each next one, so the same reader serves a parse of the whole text and one fed in slices. Nothing
 * of the text is copied: a file of a million rows keeps only the rows' values, or none of them when a sink takes
 * each row as it comes.
 */
class Reader {
  private readonly lines: Lines;
  private endByte = 0;
  private endChar = 0;
  private head: RawRecord | undefined;
  private readonly rows: MembersFileRow[] = [];
  private count = 0;
  private usernameColumn: number | undefined;
  private readonly errors: Array<{ message: string; offset: number }> = [];

  constructor(
    private readonly text: string,
    readonly delimiter: ',' | ';',
    private readonly stream?: Stream,
  ) {
    this.lines = stream?.lines ?? new Lines(text);
  }

  /** csv-parse's options: the records are taken by on_record (csvOptions) or as the parser pushes them (RecordStream). */
  parserOptions() {
    return {
      delimiter: this.delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        if (error) this.errors.push({ message: error.message, offset: this.endChar });
        return undefined;
      },
    };
  }

  csvOptions() {
    return {
      ...this.parserOptions(),
      // The record's place is taken as it is read: csv-parse's byte count after it.
      on_record: (record: string[], context: { bytes: number }) => {
        this.place(record, context.bytes);
        return null;
      },
    };
  }

  /** An error csv-parse cannot skip (an unclosed quote at the end): what came before stands. */
  fail(error: unknown): void {
    this.errors.push({ message: error instanceof Error ? error.message : String(error), offset: this.endChar });
  }

  get header(): readonly string[] | undefined {
    return this.head?.values;
  }

  /** A record read, and csv-parse's byte count after it. */
  place(values: string[], bytesAfter: number): void {
    const text = this.text;
    const chars = charsOfBytes(text, this.endChar, bytesAfter - this.endByte);
    let start = this.endChar;
    // Empty lines before the record belong to its byte count; the record starts after them.
    while (start < text.length && (text[start] === '\n' || text[start] === '\r')) start++;
    if (this.head === undefined) {
      this.head = { values, offsets: cellOffsets(text, start, values.length, this.delimiter), start };
      this.usernameColumn = this.stream?.usernameColumn(values);
    } else {
      const row = { row: ++this.count, line: this.lines.at(start).line, start, values: values.map(cellValue) };
      const stream = this.stream;
      if (!stream) this.rows.push(row);
      else {
        const at = this.usernameColumn;
        stream.onRow(row, ((at === undefined ? undefined : row.values[at]) ?? '').trim());
      }
    }
    this.endByte = bytesAfter;
    this.endChar += chars;
  }

  spanOf(start: number, end: number): Span {
    return spanIn(this.lines, start, end);
  }

  file(bom: boolean, options: ParseOptions): MembersFile {
    const file = { ...this.withoutRows(bom, options), rows: this.rows };
    linesOf.set(file, this.lines);
    return file;
  }

  withoutRows(bom: boolean, options: ParseOptions): FileWithoutRows {
    const problems: Problem[] = this.errors.map((e) => ({
      ...this.spanOf(e.offset, e.offset),
      code: 'csv-malformed',
      severity: 'error',
      args: [e.message],
    }));
    const index = labelIndex(options);
    const head = this.head;
    const header: HeaderCell[] = (head?.values ?? []).map((h, i) => ({
      key: columnIn(index, h),
      text: h,
      span: this.spanOf(head?.offsets[2 * i] ?? 0, head?.offsets[2 * i + 1] ?? 0),
    }));
    const file = { text: this.text, delimiter: this.delimiter, bom, header, ...columnsOf(header), problems };
    linesOf.set(file, this.lines);
    return file;
  }
}

/** Header index by column (the first, when a column is named twice), and the group columns' names in header order. */
function columnsOf(header: readonly HeaderCell[]): Pick<FileWithoutRows, 'columns' | 'groupColumns'> {
  const columns = new Map<ColumnKey, number>();
  const groupColumns: string[] = [];
  header.forEach((h, i) => {
    if (h.key === undefined || columns.has(h.key)) return;
    columns.set(h.key, i);
    const group = groupNameOf(h.key);
    if (group !== undefined) groupColumns.push(group);
  });
  return { columns, groupColumns };
}

function spanIn(lines: Lines, start: number, end: number): Span {
  const a = lines.at(start);
  const b = lines.at(end);
  return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
}

function readAll(reader: Reader, text: string): void {
  try {
    parse(text, reader.csvOptions());
  } catch (error) {
    reader.fail(error);
  }
}

/** Reads `text` (with or without its byte order mark). Never throws: malformed CSV is a problem in the result. */
export function parseMembersFile(text: string, options: ParseOptions = {}): MembersFile {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const reader = new Reader(body, delimiterOf(body));
  readAll(reader, body);
  return reader.file(bom, options);
}

const NOWHERE: Span = { line: 0, column: 0, endLine: 0, endColumn: 0 };

/**
 * A members file from rows given as data rather than text (chat's proposals): one column per key any row has,
 * `username` first, each key read as a header cell is (`jobTitle`, `group:<name>`). A row without a key leaves that
 * cell out (undefined, as in a row shorter than its header), so the plan leaves the member's value as it is; an empty
 * string is a value, as an empty cell is (no job title, no tags, not in the group). Writing the rows as CSV and
 * reading them back would turn every key one row has and another lacks into an empty cell of the other. Each row is
 * on its own line after the header's; there is no text to find a cell's place in, so a problem is placed at its row.
 */
export function membersFileOfRows(
  rows: readonly Readonly<Record<string, string>>[],
  options: ParseOptions = {},
): MembersFile {
  const keys = new Set(['username']);
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
  const index = labelIndex(options);
  const order = [...keys];
  const header: HeaderCell[] = order.map((text) => ({ key: columnIn(index, text), text, span: NOWHERE }));
  return {
    text: '',
    delimiter: ',',
    bom: false,
    header,
    ...columnsOf(header),
    rows: rows.map((r, i) => ({ row: i + 1, line: i + 1, start: 0, values: order.map((key) => r[key]) })),
    problems: [],
  };
}

/** Chars csv-parse reads between two pauses: a few milliseconds of work. */
const SLICE_CHARS = 64 * 1024;

/** The end of the slice from `at`: never between the two halves of a surrogate pair, which UTF-8 writes as one. */
function sliceEnd(text: string, at: number): number {
  const end = Math.min(text.length, at + SLICE_CHARS);
  return end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800 ? end + 1 : end;
}

/**
 * parseMembersFile in slices: csv-parse is fed SLICE_CHARS at a time and `pause` is awaited between slices, so a
 * large file never holds the event loop for long. The same result as parseMembersFile.
 */
export async function parseMembersFileInSlices(
  text: string,
  options: ParseOptions,
  pause: () => Promise<void>,
): Promise<MembersFile> {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const reader = new Reader(body, delimiterOf(body));
  await readInSlices(reader, body, pause);
  return reader.file(bom, options);
}

/**
 * parseMembersFileInSlices without keeping the rows: `onRow` takes each as it is read, in file order. A file of
 * hundreds of thousands of rows is read again for each step that needs its rows rather than kept, each row's
 * values costing several times its text. The same rows, in the same order, each time.
 */
export async function streamMembersFile(
  text: string,
  options: ParseOptions,
  pause: () => Promise<void>,
  onRow: RowSink,
): Promise<FileWithoutRows> {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const index = labelIndex(options);
  const usernameColumn = (header: readonly string[]) => {
    const at = header.findIndex((h) => columnIn(index, h) === 'username');
    return at < 0 ? undefined : at;
  };
  const reader = new Reader(body, delimiterOf(body), { onRow, usernameColumn });
  await readInSlices(reader, body, pause);
  return reader.withoutRows(bom, options);
}

/**
 * The rows of a file read by streamMembersFile, read again from its text and handed to `onRow`: the same rows, in the
 * same order, their places in the file as it was read.
 */
export async function rereadRows(file: FileWithoutRows, pause: () => Promise<void>, onRow: RowSink): Promise<void> {
  const stream = { onRow, usernameColumn: () => file.columns.get('username'), lines: linesOf.get(file) };
  await readInSlices(new Reader(file.text, file.delimiter, stream), file.text, pause);
}

/** Feeds `body` to csv-parse in slices, awaiting `pause` between them, until its end or an error. */
/**
 * csv-parse's stream, each record handed to the reader as the parser pushes it, with the parser's byte count then:
 * the byte count on_record is given, without the context on_record is given with it. That context is copied out of
 * the parser's counters for every record, in a way that leaves each copy in the old generation of the heap for the
 * next full collection: hundreds of megabytes of them in a file of hundreds of thousands of rows.
 */
class RecordStream extends Parser {
  constructor(private readonly reader: Reader) {
    super(reader.parserOptions());
  }

  override push(record: unknown): boolean {
    if (record === null) return super.push(null);
    this.reader.place(record as string[], this.info.bytes);
    return true;
  }
}

async function readInSlices(reader: Reader, body: string, pause: () => Promise<void>): Promise<void> {
  const parser = new RecordStream(reader);
  parser.resume();
  const failed = new Promise<void>((resolve) =>
    parser.once('error', (error) => {
      reader.fail(error);
      resolve();
    }),
  );
  const ended = new Promise<void>((resolve) => parser.once('end', resolve));
  for (let at = 0, end = 0; at < body.length; at = end) {
    end = sliceEnd(body, at);
    const slice = body.slice(at, end);
    const wrote = new Promise<void>((resolve) => parser.write(slice, () => resolve()));
    if ((await Promise.race([wrote.then(() => 'ok'), failed.then(() => 'failed')])) === 'failed') break;
    await pause();
  }
  parser.end();
  await Promise.race([ended, failed]);
}

/**
 * The place of a row's cell at a header index (the row's start when the row has no such cell), found again in the
 * file's text from where the row starts.
 */
export function placeOf(file: FileWithoutRows, row: MembersFileRow, index: number | undefined): Span {
  const lines = linesOf.get(file);
  if (!lines || index === undefined || index >= row.values.length)
    return { line: row.line, column: 0, endLine: row.line, endColumn: 0 };
  const offsets = cellOffsets(file.text, row.start, index + 1, file.delimiter);
  return spanIn(lines, offsets[2 * index] ?? row.start, offsets[2 * index + 1] ?? row.start);
}

/** The place of a row's cell in a column (the row's start when the file or the row has no such cell). */
export function placeIn(file: FileWithoutRows, row: MembersFileRow, key: ColumnKey): Span {
  return placeOf(file, row, file.columns.get(key));
}

/** A row's cell in a column, or undefined when the file has no such column (or the row stops before it). */
export function cellOf(file: FileWithoutRows, row: MembersFileRow, key: ColumnKey): FileCell | undefined {
  const index = file.columns.get(key);
  if (index === undefined) return undefined;
  const value = row.values[index];
  if (value === undefined) return undefined;
  return { value, span: placeOf(file, row, index) };
}

/** A row's cell value in a column; undefined as in cellOf. */
export function valueOf(file: FileWithoutRows, row: MembersFileRow, key: ColumnKey): string | undefined {
  const index = file.columns.get(key);
  return index === undefined ? undefined : row.values[index];
}

/** A row's username, trimmed ('' when missing). */
export function usernameOf(file: FileWithoutRows, row: MembersFileRow): string {
  return (valueOf(file, row, 'username') ?? '').trim();
}
