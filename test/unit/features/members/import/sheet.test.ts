// HR's spreadsheet read as text: the first worksheet of an `.xlsx` (formulas as their results, dates as ISO days,
// rich text joined) or a CSV (comma or semicolon, with or without a byte order mark).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ExcelJS from 'exceljs';
import { readSheet, SheetError } from '../../../../../src/features/members/import/sheet';
import { SIX_STARTERS, writeHrSheet } from './hrSheet';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-sheet-'));
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
});
