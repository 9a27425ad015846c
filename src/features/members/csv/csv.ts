/**
 * CSV as RFC 4180 writes it (comma-separated, CRLF line ends, fields with a quote, comma, CR or LF in double
 * quotes, quotes doubled), with spreadsheet formula injection neutralised: a cell that starts with `=`, `+`, `-`,
 * `@`, tab or CR would run as a formula in Excel, LibreOffice or Sheets, so it gets a leading `'` and shows as text.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const inert = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
}

/** One record, with its CRLF. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Spreadsheet programs read a UTF-8 file as UTF-8 only when it starts with this mark. */
export const UTF8_BOM = '\uFEFF';
