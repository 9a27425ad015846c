/**
 * Reads HR's spreadsheet (`.xlsx` through exceljs's streaming reader, `.csv` through csv-parse's stream) as a header
 * and rows of plain text, inside the sheet's worker (sheetWorker.ts). Every cell is text as a person sees it: a
 * formula's cached result (never the formula), a date cell as `yyyy-mm-dd`, rich text joined.
 *
 * A sheet is untrusted, so what reading it costs is bounded before and while it is read: the file's size; an
 * `.xlsx`'s zip directory (entries, declared sizes, ratio) before exceljs sees a byte, and then only the entries it
 * needs, stored, in an order that needs no spooling (zipEntries.ts); a CSV record's length; MAX_ROWS rows (reading
 * stops there), MAX_COLUMNS columns, MAX_CELL characters a cell and MAX_TEXT characters in all. The worker's heap
 * limit catches the rest.
 */
import { parse } from 'csv-parse';
import type ExcelJS from 'exceljs';
import { readHead, readStreamOf } from '../../../node/disk';
import { storedZip, zipEntries, type ZipLimits } from '../../../node/zipEntries';
import { MAX_COLUMNS, MAX_ROWS, SheetError, type Sheet } from './sheet';

const MAX_CELL = 2_000;
/** Characters of all kept cells together (a 50,000-row sheet of people holds a fraction of it). */
export const MAX_TEXT = 32 * 1024 * 1024;
/** A CSV record longer than this is no row of people: refused, so one giant cell is never held whole. */
export const MAX_RECORD = MAX_COLUMNS * MAX_CELL;
/** A sheet file larger than this is not read at all. */
export const MAX_SHEET_BYTES = 200 * 1024 * 1024;

const XLSX_LIMITS: ZipLimits = {
  maxEntries: 2_000,
  maxEntryBytes: 128 * 1024 * 1024,
  maxTotalBytes: 192 * 1024 * 1024,
  maxRatio: 100,
};

function isoDay(d: Date): string {
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
}

/** One exceljs cell value as text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return isoDay(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText))
      return v.richText
        .map((r: unknown) => (typeof r === 'object' && r ? String((r as { text?: unknown }).text ?? '') : ''))
        .join('');
    // A formula's cached result, a hyperlink's shown text: what the person sees, never the formula or the target.
    if ('result' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
  }
  return '';
}

class Collector {
  headers: string[] | undefined;
  readonly rows: string[][] = [];
  truncated = false;
  private text = 0;

  /** Takes a row; false once MAX_ROWS rows are held and another came, so the reader stops. */
  add(cells: readonly string[]): boolean {
    const row = cells.slice(0, MAX_COLUMNS).map((c) => (c.length > MAX_CELL ? c.slice(0, MAX_CELL) : c).trim());
    if (row.every((c) => c === '')) return true;
    if (this.headers !== undefined && this.rows.length >= MAX_ROWS) {
      this.truncated = true;
      return false;
    }
    for (const c of row) this.text += c.length;
    if (this.text > MAX_TEXT)
      throw new SheetError('The sheet holds more text than a sheet of people would; it was not read.');
    if (this.headers === undefined) this.headers = row;
    else this.rows.push(row);
    return true;
  }

  sheet(): Sheet {
    if (!this.headers) throw new SheetError('The sheet is empty: it has no header row.');
    return { headers: this.headers, rows: this.rows, truncated: this.truncated };
  }
}

const FIRST_SHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;
const RELS = 'xl/_rels/workbook.xml.rels';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const NEEDED = new Set([RELS, 'xl/workbook.xml', SHARED_STRINGS, 'xl/styles.xml']);
const NO_STRINGS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
);

/**
 * The entries exceljs is given, in the order it reads without spooling: relations, workbook, shared strings (an
 * empty list made here when the workbook has none), styles, then the first worksheet (HR's list is the first tab).
 */
async function workbookStream(file: string) {
  const entries = await zipEntries(file, XLSX_LIMITS, (name) => NEEDED.has(name) || FIRST_SHEET.test(name));
  const sheets = entries
    .map((e) => ({ name: e.name, n: Number(FIRST_SHEET.exec(e.name)?.[1] ?? NaN) }))
    .filter((s) => !Number.isNaN(s.n))
    .sort((a, b) => a.n - b.n);
  const first = sheets[0]?.name;
  if (!first || !entries.some((e) => e.name === RELS))
    throw new SheetError('The file is not a workbook: it has no worksheet.');
  const made = new Map<string, Buffer>();
  if (!entries.some((e) => e.name === SHARED_STRINGS)) made.set(SHARED_STRINGS, NO_STRINGS);
  return storedZip(file, entries, [RELS, 'xl/workbook.xml', SHARED_STRINGS, 'xl/styles.xml', first], made);
}

async function readXlsx(file: string): Promise<Sheet> {
  const out = new Collector();
  const input = await workbookStream(file);
  // Loaded here, not at start: the worker's bundle requires exceljs's own bundle only now (esbuild.js).
  const { default: excel } = await import('exceljs');
  const reader = new excel.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Date cells are told from numbers by their format: styles are needed for that, hyperlinks are not.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  try {
    sheets: for await (const worksheet of reader) {
      for await (const row of worksheet) {
        const values = (row as ExcelJS.Row).values;
        if (!out.add(Array.isArray(values) ? Array.from(values.slice(1), cellText) : [])) break sheets;
      }
      break;
    }
  } finally {
    input.destroy();
  }
  return out.sheet();
}

async function readCsv(file: string): Promise<Sheet> {
  const out = new Collector();
  const head = (await readHead(file, 4096)).toString('utf8');
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const input = await readStreamOf(file, { maxBytes: MAX_SHEET_BYTES });
  const parser = input.pipe(
    parse({
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD,
    }),
  );
  try {
    for await (const record of parser) if (!out.add(record as string[])) break;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'CSV_MAX_RECORD_SIZE')
      throw new SheetError(
        `A row of the sheet is longer than ${MAX_RECORD} characters: no sheet of people has one. It was not read.`,
      );
    throw error;
  } finally {
    input.destroy();
  }
  return out.sheet();
}

/** The sheet's header and rows, read in this thread (the worker's); rejects with a SheetError a person can act on. */
export async function readSheetHere(file: string): Promise<Sheet> {
  if (/\.xlsx$/i.test(file)) return readXlsx(file);
  if (/\.csv$/i.test(file)) return readCsv(file);
  throw new SheetError('Only .xlsx and .csv sheets can be imported.');
}
