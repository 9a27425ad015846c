/**
 * CSV as RFC 4180 writes it (comma-separated, CRLF line ends, fields with a quote, comma, CR or LF in double
 * quotes, quotes doubled), with spreadsheet formula injection neutralised: text that starts with `=`, `+`, `-`,
 * `@`, tab or CR would run as a formula in Excel, LibreOffice or Sheets, so it gets a leading `'` and shows as text.
 *
 * Not only at a cell's start: Excel in a locale whose list separator is `;` (de, fr, nl, it, es, ru, …) splits this
 * comma-separated file on `;` (and ignores quotes that do not open a field there), and imports split on tab or `|`.
 * So a formula start after any of those separators, or a line break, is neutralised too, also behind spaces or
 * quotes that such a split leaves in front of it.
 */

const FORMULA_START = '=+-@\t\r';
/** Where some spreadsheet may begin a new cell inside this cell's text. */
const SEPARATORS = ',;\t|\r\n';
/** What a split may leave in front of a formula start without making it text. */
const TRANSPARENT = ' "';
const NEEDS_QUOTES = /[",\r\n]/;

/** Whether `text` at `i` is a run of `'` followed by a formula start: a `'` the reader would take out. */
function quoteBeforeFormula(text: string, i: number): boolean {
  let j = i;
  while (text[j] === "'") j++;
  const next = text[j];
  return j > i && next !== undefined && FORMULA_START.includes(next);
}

/**
 * The text with a `'` before every formula start a spreadsheet could see as a cell's start, however it splits; and
 * before a `'` that itself comes before a formula start there, so that liveText gives back the `'` the value had.
 */
export function inertText(value: string): string {
  let out = '';
  let atCellStart = true;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    if (atCellStart && (FORMULA_START.includes(ch) || quoteBeforeFormula(value, i))) out += "'";
    out += ch;
    if (SEPARATORS.includes(ch)) atCellStart = true;
    else if (!TRANSPARENT.includes(ch)) atCellStart = false;
  }
  return out;
}

/**
 * inertText undone: the text a cell held before the export neutralised it, each `'` that inertText put before a
 * formula start taken out again (a members file is read back as the values it was written from). A `'` a person
 * typed before a formula start at such a place reads as neutralising too: there is no telling the two apart.
 */
export function liveText(inert: string): string {
  let out = '';
  let atCellStart = true;
  for (let i = 0; i < inert.length; i++) {
    const ch = inert[i] as string;
    if (atCellStart && quoteBeforeFormula(inert, i)) {
      // One `'` per cell start is the export's; what follows is the value's own, read as it was written.
      atCellStart = false;
      continue;
    }
    out += ch;
    if (SEPARATORS.includes(ch)) atCellStart = true;
    else if (!TRANSPARENT.includes(ch)) atCellStart = false;
  }
  return out;
}

export function csvCell(value: string): string {
  const inert = inertText(value);
  return NEEDS_QUOTES.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
}

/** One record, with its CRLF. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Spreadsheet programs read a UTF-8 file as UTF-8 only when it starts with this mark. */
export const UTF8_BOM = '\uFEFF';
