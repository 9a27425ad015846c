/**
 * A CSV that looks like a sheet of people (a column the mapping would read as an e-mail or a name) and is not a
 * members file gets one CodeLens on its first line offering the import, and nothing else: no diagnostics, since it
 * was never meant to be a members file. Any other CSV (a data export, a log, an action report of ours) gets nothing.
 * Which files are members files is decided by the members file's own detector, so the two never disagree.
 */
import * as vscode from 'vscode';
import { isMembersDocument, isOwnFile } from '../plan/editor/membersDocument';
import { proposeColumns, type Meaning } from './mapping';

export const IMPORT_COMMAND = 'portal.members.importSheet';

export class ImportLens implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (doc.uri.scheme !== 'file' || !/\.csv$/i.test(doc.uri.path) || isOwnFile(doc) || isMembersDocument(doc))
      return [];
    if (doc.lineCount === 0 || doc.lineAt(0).text.trim() === '' || !looksLikePeople(doc)) return [];
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: vscode.l10n.t('Import as Portal Members…'),
        tooltip: vscode.l10n.t('Make a members file from this sheet: map its columns, then plan the changes.'),
        command: IMPORT_COMMAND,
      }),
    ];
  }
}

/** Lines read to tell: the header and a few rows, whatever the file's length. */
const SAMPLE_LINES = 20;
const PEOPLE: ReadonlySet<Meaning> = new Set(['email', 'name', 'firstName', 'lastName']);

function cellsOf(line: string, delimiter: string): string[] {
  return line.split(delimiter).map((c) => c.trim().replace(/^"|"$/g, ''));
}

/** Whether the mapping would find an e-mail or a name among the first lines' columns. */
export function looksLikePeople(doc: vscode.TextDocument): boolean {
  const lines: string[] = [];
  for (let i = 0; i < Math.min(doc.lineCount, SAMPLE_LINES); i++) lines.push(doc.lineAt(i).text);
  const first = (lines[0] ?? '').replace(/^\uFEFF/, '');
  const delimiter = (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ',';
  const [headers = [], ...rows] = lines.filter((l) => l.trim() !== '').map((l) => cellsOf(l, delimiter));
  const meanings = Object.values(proposeColumns({ headers, rows, truncated: false }));
  return meanings.some((m) => PEOPLE.has(m));
}
