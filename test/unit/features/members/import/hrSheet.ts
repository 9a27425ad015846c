// HR's starters sheet as HR sends it: First name, Last name, Email, Department, Start date as dd/mm/yyyy text.
// Written with exceljs, so the import reads a real `.xlsx`. Shared by the unit tests, the bench and the flow.
import ExcelJS from 'exceljs';

export const HR_HEADERS = ['First name', 'Last name', 'Email', 'Department', 'Start date'] as const;

export type HrRow = readonly [first: string, last: string, email: string, department: string, start: string];

/** Six starters; their start dates (dd/mm/yyyy) all read both ways, so the format is asked. */
export const SIX_STARTERS: readonly HrRow[] = [
  ['Ana', 'López', 'ana.lopez@acme.example', 'Engineering', '05/01/2099'],
  ['Ben', 'Okafor', 'ben.okafor@acme.example', 'Engineering', '05/01/2099'],
  ['Chloé', 'Martin', 'chloe.martin@acme.example', 'Marketing', '06/02/2099'],
  ['Dev', 'Patel', 'dev.patel@acme.example', 'Employee Handbook', '06/02/2099'],
  ['Eva', 'Novak', 'eva.novak@acme.example', 'Engineering', '07/03/2099'],
  ['Finn', "O'Brien", 'finn.obrien@acme.example', 'Marketing', '07/03/2099'],
];

/** Writes the rows to an `.xlsx` at `file`, through exceljs's streaming writer (5,000 rows stay small). */
export async function writeHrSheet(file: string, rows: Iterable<HrRow>): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Starters');
  sheet.addRow([...HR_HEADERS]).commit();
  for (const row of rows) sheet.addRow([...row]).commit();
  sheet.commit();
  await workbook.commit();
}

/** `n` starters with distinct names, in four departments, starting in 2099. */
export function* manyStarters(n: number): Generator<HrRow> {
  const departments = ['Engineering', 'Marketing', 'Employee Handbook', 'Social Club'];
  for (let i = 0; i < n; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    yield [
      `First${i}`,
      `Last${i}`,
      `first${i}.last${i}@acme.example`,
      departments[i % 4] ?? '',
      `${day}/0${(i % 9) + 1}/2099`,
    ];
  }
}
