/**
 * A CSV that is not a members file (HR's list, a report) gets one CodeLens on its first line offering the import,
 * and nothing else: no diagnostics, since it was never meant to be a members file. Which files are members files
 * is decided by the members file's own detector, so the two never disagree.
 */
import * as vscode from 'vscode';
import { isMembersDocument } from '../plan/editor/membersDocument';

export const IMPORT_COMMAND = 'portal.members.importSheet';

export class ImportLens implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (doc.uri.scheme !== 'file' || !/\.csv$/i.test(doc.uri.path) || isMembersDocument(doc)) return [];
    if (doc.lineCount === 0 || doc.lineAt(0).text.trim() === '') return [];
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: vscode.l10n.t('Import as Portal Members…'),
        tooltip: vscode.l10n.t('Make a members file from this sheet: map its columns, then plan the changes.'),
        command: IMPORT_COMMAND,
      }),
    ];
  }
}
