/**
 * Reads HR's spreadsheet (`.xlsx` through exceljs's streaming reader, `.csv` through csv-parse's stream) as a header
 * and rows of plain text. Every cell is text as a person sees it: a formula's cached result (never the formula), a
 * date cell as `yyyy-mm-dd`, rich text joined. Bounded: at most MAX_ROWS rows and MAX_CELL characters a cell, so a
 * hostile sheet cannot fill the extension host's memory.
 */
import * as fs from 'node:fs';
import { parse } from 'csv-parse';
import type ExcelJS from 'exceljs';

export interface Sheet {
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Rows past MAX_ROWS, left out. */
  readonly skipped: number;
}

export const MAX_ROWS = 50_000;
export const MAX_COLUMNS = 200;
const MAX_CELL = 2_000;

export class SheetError extends Error {}

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

function bounded(cells: readonly string[]): string[] {
  return cells.slice(0, MAX_COLUMNS).map((c) => (c.length > MAX_CELL ? c.slice(0, MAX_CELL) : c).trim());
}

class Collector {
  headers: string[] | undefined;
  readonly rows: string[][] = [];
  skipped = 0;

  add(cells: readonly string[]): void {
    const row = bounded(cells);
    if (row.every((c) => c === '')) return;
    if (this.headers === undefined) this.headers = row;
    else if (this.rows.length < MAX_ROWS) this.rows.push(row);
    else this.skipped++;
  }

  sheet(): Sheet {
    if (!this.headers) throw new SheetError('The sheet is empty: it has no header row.');
    return { headers: this.headers, rows: this.rows, skipped: this.skipped };
  }
}

async function readXlsx(file: string): Promise<Sheet> {
  const out = new Collector();
  // Loaded here, not at start: the extension's bundle requires exceljs's own bundle only now (esbuild.js).
  const { default: excel } = await import('exceljs');
  const reader = new excel.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Date cells are told from numbers by their format: styles are needed for that, hyperlinks are not.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  for await (const worksheet of reader) {
    for await (const row of worksheet) {
      const values = (row as ExcelJS.Row).values;
      const cells = Array.isArray(values) ? Array.from(values.slice(1), cellText) : [];
      out.add(cells);
    }
    // The first worksheet only: HR's list is the first tab.
    break;
  }
  return out.sheet();
}

async function readCsv(file: string): Promise<Sheet> {
  const out = new Collector();
  const handle = await fs.promises.open(file, 'r');
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0).finally(() => handle.close());
  const head = buffer.toString('utf8', 0, bytesRead);
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const parser = fs
    .createReadStream(file)
    .pipe(parse({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }));
  for await (const record of parser) out.add(record as string[]);
  return out.sheet();
}

/** The sheet's header and rows; rejects with a SheetError a person can act on. */
export async function readSheet(file: string): Promise<Sheet> {
  try {
    if (/\.xlsx$/i.test(file)) return await readXlsx(file);
    if (/\.csv$/i.test(file)) return await readCsv(file);
  } catch (error) {
    if (error instanceof SheetError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new SheetError(`The sheet could not be read: ${reason}`);
  }
  throw new SheetError('Only .xlsx and .csv sheets can be imported.');
}
