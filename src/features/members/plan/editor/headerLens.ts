/** A "Plan Changes…" CodeLens on the header line of a members file. */
import * as vscode from 'vscode';
import { isMembersDocument } from './membersDocument';

export class HeaderLens implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!isMembersDocument(doc)) return [];
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: vscode.l10n.t('Plan Changes…'),
        tooltip: vscode.l10n.t('Compare this file with the portal and show what would change; nothing is sent yet.'),
        command: 'portal.plan.planChanges',
      }),
    ];
  }
}
