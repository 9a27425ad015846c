// HR's spreadsheet read as text: the first worksheet of an `.xlsx` (formulas as their results, dates as ISO days,
// rich text joined) or a CSV (comma or semicolon, with or without a byte order mark).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ExcelJS from 'exceljs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MAX_ROWS, readSheet, SheetError } from '../../../../../src/features/members/import/sheet';
import { bytesUnder, writeLyingWorkbook, writeSharedStringsBomb } from './bombSheet';
import { SIX_STARTERS, writeHrSheet } from './hrSheet';
import { tempDir } from '../../../../support/tempDir';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** What `read` adds to this thread's heap at its highest, above the heap after a GC before it, in MB. */
async function heapGrowth<T>(read: () => Promise<T>): Promise<{ mb: number; result: PromiseSettledResult<T> }> {
  gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const [result] = await Promise.allSettled([read()]);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { mb: (peak - before) / 1024 / 1024, result: result! };
}

const dir = tempDir('import-sheet-');
const tempParent = path.join(dir, 'storage');

void describe('readSheet', () => {
  void test('reads HR’s .xlsx: header and six rows as text', async () => {
    const file = path.join(dir, 'hr.xlsx');
    await writeHrSheet(file, SIX_STARTERS);
    const sheet = await readSheet(file, tempParent);
    assert.deepEqual(sheet.headers, ['First name', 'Last name', 'Email', 'Department', 'Start date']);
    assert.equal(sheet.rows.length, 6);
    assert.deepEqual(sheet.rows[0], ['Ana', 'López', 'ana.lopez@acme.example', 'Engineering', '05/01/2099']);
  });

  void test('a formula cell reads as its result, a date cell as its day, rich text joined, a link as its text', async () => {
    const file = path.join(dir, 'cells.xlsx');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('A');
    ws.addRow(['Name', 'Start', 'Note', 'Link']);
    ws.addRow([
      { formula: 'HYPERLINK("http://evil","x")', result: 'Mallory' },
      new Date(Date.UTC(2099, 0, 5)),
      { richText: [{ text: 'a' }, { text: 'b' }] },
      { text: '[x](command:evil)', hyperlink: 'command:evil' },
    ]);
    ws.getCell('B2').numFmt = 'dd/mm/yyyy';
    await wb.xlsx.writeFile(file);
    const sheet = await readSheet(file, tempParent);
    assert.deepEqual(sheet.rows[0], ['Mallory', '2099-01-05', 'ab', '[x](command:evil)']);
  });

  void test('a semicolon CSV with a byte order mark', async () => {
    const file = path.join(dir, 'hr.csv');
    fs.writeFileSync(file, '\uFEFFFirst name;Last name;Email\r\nAna;"López; Jr";ana@x.example\r\n\r\n');
    const sheet = await readSheet(file, tempParent);
    assert.deepEqual(sheet.headers, ['First name', 'Last name', 'Email']);
    assert.deepEqual(sheet.rows, [['Ana', 'López; Jr', 'ana@x.example']]);
  });

  void test('an empty sheet and a file that is no workbook are refused with a SheetError', async () => {
    const empty = path.join(dir, 'empty.csv');
    fs.writeFileSync(empty, '\r\n');
    await assert.rejects(readSheet(empty, tempParent), SheetError);
    const broken = path.join(dir, 'broken.xlsx');
    fs.writeFileSync(broken, 'not a zip');
    await assert.rejects(readSheet(broken, tempParent), SheetError);
  });

  void test('a 3.5 MB shared-strings bomb ends with one message; the host’s heap and the disk are untouched', async () => {
    const file = path.join(dir, 'bomb.xlsx');
    writeSharedStringsBomb(file, 1600);
    const { mb, result } = await heapGrowth(() => readSheet(file, tempParent));
    assert.equal(result.status, 'rejected');
    const error = (result as PromiseRejectedResult).reason as Error;
    assert.ok(error instanceof SheetError, String(error));
    assert.match(error.message, /not read/);
    assert.ok(mb <= 50, `the heap grew ${mb.toFixed(1)} MB`);
    assert.equal(bytesUnder(tempParent), 0);
    assert.deepEqual(fs.readdirSync(tempParent), []);
  });

  void test('a workbook whose directory understates its shared strings is stopped where they outgrow it', async () => {
    const file = path.join(dir, 'lying.xlsx');
    writeLyingWorkbook(file, 50, 1000);
    await assert.rejects(
      readSheet(file, tempParent),
      (e: Error) => e instanceof SheetError && /larger than it says/.test(e.message),
    );
    assert.deepEqual(fs.readdirSync(tempParent), []);
  });

  void test('a worksheet stored before its shared strings (Excel’s order) is read with nothing spooled', async () => {
    const file = path.join(dir, 'excel-order.xlsx');
    writeSharedStringsBomb(file, 0.01);
    const sheet = await readSheet(file, tempParent);
    assert.equal(sheet.headers.length, 2);
    assert.equal(sheet.headers[0], 'x'.repeat(1000));
    assert.equal(sheet.rows.length, 1);
    assert.deepEqual(fs.readdirSync(tempParent), []);
  });

  void test('a CSV with a giant cell is refused, and the host holds none of it', async () => {
    const file = path.join(dir, 'giant.csv');
    fs.writeFileSync(file, `First name,Email\r\nAna,"${'y'.repeat(57 * 1024 * 1024)}"\r\n`);
    const { mb, result } = await heapGrowth(() => readSheet(file, tempParent));
    assert.equal(result.status, 'rejected');
    const error = (result as PromiseRejectedResult).reason as Error;
    assert.ok(error instanceof SheetError, String(error));
    assert.match(error.message, /longer than/);
    assert.ok(mb <= 50, `the heap grew ${mb.toFixed(1)} MB`);
  });

  void test('reading stops at MAX_ROWS rows, and says the rest was left out', async () => {
    const file = path.join(dir, 'long.csv');
    const lines = ['Name,Email'];
    for (let i = 0; i < MAX_ROWS + 10; i++) lines.push(`P${i},p${i}@x.example`);
    fs.writeFileSync(file, lines.join('\n'));
    const sheet = await readSheet(file, tempParent);
    assert.equal(sheet.rows.length, MAX_ROWS);
    assert.equal(sheet.truncated, true);
  });
});
