// Shared setup for the plan-and-apply tests: a real emulator, the demo organisation acme, its export with group
// columns as text, and edits to that text the way a person makes them in an editor or a spreadsheet.
import { rm } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { csvLine, UTF8_BOM } from '../../../../../../src/features/members/csv/csv';
import { membersCsvLines } from '../../../../../../src/features/members/csv/membersCsv';
import { readGroups } from '../../../../../../src/features/members/plan/core/portalState';
import type { AcmePortal as Portal } from '../../../helpers';
import { tempDir } from '../../../../../support/tempDir';

export { apiRequests } from '../../../helpers';

export { withAcme as withPortal, type AcmePortal as Portal } from '../../../helpers';

/** acme's export with every group as a column (and the lastModified baseline), as the file's text. */
export async function exportText(p: Portal, withGroups = true): Promise<string> {
  const groups = withGroups ? await readGroups(p.client, p.acme) : undefined;
  let text = UTF8_BOM;
  for await (const line of membersCsvLines(p.client, p.acme, {}, groups ? { groups } : { baseline: true }))
    text += line;
  return text;
}

/** A CSV as a table (header first) to edit, and back. */
export class Table {
  readonly rows: string[][];
  constructor(text: string) {
    this.rows = parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][];
  }
  get header(): string[] {
    return this.rows[0] ?? [];
  }
  column(name: string): number {
    const i = this.header.indexOf(name);
    if (i < 0) throw new Error(`no column ${name}`);
    return i;
  }
  row(username: string): string[] {
    const r = this.rows.find((x) => x[0] === username);
    if (!r) throw new Error(`no row ${username}`);
    return r;
  }
  set(username: string, column: string, value: string): this {
    this.row(username)[this.column(column)] = value;
    return this;
  }
  get(username: string, column: string): string {
    return this.row(username)[this.column(column)] ?? '';
  }
  add(cells: Record<string, string>): this {
    this.rows.push(this.header.map((h) => cells[h] ?? ''));
    return this;
  }
  remove(username: string): this {
    this.rows.splice(this.rows.indexOf(this.row(username)), 1);
    return this;
  }
  text(): string {
    return UTF8_BOM + this.rows.map((r) => csvLine(r)).join('');
  }
}

/** A fresh storage folder (journal, snapshots) for the run, removed after. */
export async function withStorage(run: (folder: string) => Promise<void>): Promise<void> {
  const folder = tempDir('portal-plan-');
  try {
    await run(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
