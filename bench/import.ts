// Figures of Import Members from a Spreadsheet…: a 5,000-row `.xlsx` as HR sends it (first, last, e-mail,
// department, start date) read, mapped (the proposal, the dates as dd/mm/yyyy, departments to groups by name) and
// written as a members file.
//
//   import_xlsx_5k_s         seconds from the sheet on disk to the members file on disk (the sheet's writing not counted)
//   import_xlsx_5k_heap_mb   the heap's peak growth over that time, above the heap after a GC before it
//   xlsx_bomb_host_heap_growth_mb  a 3.5 MB shared-strings bomb (1.6 GB of shared strings, stored after its
//                                  worksheet as Excel stores it) read as the import reads it: this thread's heap's
//                                  peak growth until the one message that refuses it
//   xlsx_bomb_temp_bytes_left      bytes left in the import's temporary folders after that read
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { convertSheet } from '../src/features/members/import/convert';
import {
  departmentsOf,
  indexOf,
  proposeColumns,
  proposeDepartment,
  type ImportMapping,
} from '../src/features/members/import/mapping';
import { writePrivate } from '../src/features/members/import/savedMapping';
import { readSheet, SheetError } from '../src/features/members/import/sheet';
import { bytesUnder, writeSharedStringsBomb } from '../test/unit/features/members/import/bombSheet';
import { manyStarters, writeHrSheet } from '../test/unit/features/members/import/hrSheet';
import type { Benchmark, Figure } from './types';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ROWS = 5_000;
const GROUPS = [
  { name: 'engineering', friendlyName: 'Engineering' },
  { name: 'marketing', friendlyName: 'Marketing' },
  { name: 'handbook', friendlyName: 'Employee Handbook' },
  { name: 'social', friendlyName: 'Social Club' },
];

async function importOnce(sheetFile: string, target: string): Promise<number> {
  const sheet = await readSheet(sheetFile, path.join(path.dirname(target), 'storage'));
  const columns = proposeColumns(sheet);
  const departments = Object.fromEntries(
    [...departmentsOf(sheet, indexOf(sheet, columns, 'department'))].map(([k, v]) => [k, proposeDepartment(v, GROUPS)]),
  );
  const mapping: ImportMapping = {
    portalId: 'bench',
    accountId: 1,
    accountLabel: 'Bench',
    columns,
    dateFormat: 'dmy',
    usernames: 'first.last',
    departments,
  };
  const out = convertSheet(sheet, mapping, { portal: new Map(), today: '2026-01-01' });
  await writePrivate(target, out.text);
  return out.rows;
}

async function runBomb(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bomb-'));
  try {
    const file = path.join(dir, 'bomb.xlsx');
    writeSharedStringsBomb(file, 1600);
    const storage = path.join(dir, 'storage');
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
    const outcome = await readSheet(file, storage).then(
      () => 'read',
      (error: unknown) => (error instanceof SheetError ? 'refused' : `failed: ${String(error)}`),
    );
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    if (outcome !== 'refused') throw new Error(`the bomb was ${outcome}`);
    return [
      { name: 'xlsx_bomb_host_heap_growth_mb', value: (peak - before) / 1024 / 1024 },
      { name: 'xlsx_bomb_temp_bytes_left', value: bytesUnder(storage) },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function run(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  try {
    const sheetFile = path.join(dir, 'starters.xlsx');
    await writeHrSheet(sheetFile, manyStarters(ROWS));
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
    const started = performance.now();
    const rows = await importOnce(sheetFile, path.join(dir, 'starters.members.csv'));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    if (rows !== ROWS) throw new Error(`imported ${rows} rows of ${ROWS}`);
    return [
      { name: 'import_xlsx_5k_s', value: seconds },
      { name: 'import_xlsx_5k_heap_mb', value: (peak - before) / 1024 / 1024 },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const importBenchmarks: Benchmark[] = [
  { name: 'import', figures: ['import_xlsx_5k_s', 'import_xlsx_5k_heap_mb'], run },
  { name: 'xlsx-bomb', figures: ['xlsx_bomb_host_heap_growth_mb', 'xlsx_bomb_temp_bytes_left'], run: runBomb },
];
