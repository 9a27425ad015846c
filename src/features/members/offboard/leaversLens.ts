/**
 * A CSV of people (an e-mail or username column) that is not a members file gets "Offboard These People…" on its
 * first line. An .xlsx has no text to put a lens on: Offboard Members… from the palette offers the workspace's lists.
 */
import * as vscode from 'vscode';
import { isMembersDocument, isOwnFile } from '../plan/editor/membersDocument';
import { leaverColumn } from './leavers';
import { LeaversList } from './offboard';

export const OFFBOARD_COMMAND = 'portal.members.offboard';

export class LeaversLens implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (doc.uri.scheme !== 'file' || !/\.csv$/i.test(doc.uri.path) || doc.lineCount === 0) return [];
    if (isOwnFile(doc) || isMembersDocument(doc)) return [];
    const first = doc.lineAt(0).text.replace(/^\uFEFF/, '');
    const delimiter = (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ',';
    const headers = first.split(delimiter).map((c) => c.trim().replace(/^"|"$/g, ''));
    if (!leaverColumn(headers)) return [];
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: vscode.l10n.t('Offboard These People…'),
        tooltip: vscode.l10n.t(
          'Plan to disable the members this list names and remove them from every group; nothing is sent before Apply.',
        ),
        command: OFFBOARD_COMMAND,
        arguments: [new LeaversList(doc.uri)],
      }),
    ];
  }
}
