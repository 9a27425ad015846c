/**
 * New Members File…: a members file with the header an organisation's file needs (one column per group), saved
 * where the user says (0600: it will hold people's names and e-mails) and opened. A saved `.csv` rather than an
 * untitled editor: VS Code knows no CSV language, so only a `.csv` name makes it a members file (Problems panel,
 * Plan Changes…), and the organisation it is planned against is remembered by its path.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';
import { accountFor } from '../../../targets/resolve';
import type { Run } from '../../../ui/commands';
import { answered } from '../../../ui/ui';
import { readGroups } from '../plan/core/portalState';
import { emptyMembersFile } from './convert';
import { writePrivate } from './savedMapping';

export async function newMembersFile(
  run: Run,
  registry: PortalRegistry,
  rememberAccount: (file: vscode.Uri, account: AccountRef) => Promise<void>,
): Promise<vscode.Uri> {
  const account = await accountFor(run, registry);
  const groups = await readGroups(registry.client(account.portalId), account.accountId);
  const file = answered(
    await run.ui.saveFile({
      id: 'members.newFile',
      title: vscode.l10n.t('New members file for {0}', plain(account.label)),
      defaultName: 'members.csv',
      filters: { [vscode.l10n.t('CSV files')]: ['csv'] },
    }),
  );
  const uri = vscode.Uri.file(file);
  await writePrivate(uri.fsPath, emptyMembersFile(groups.map((g) => g.name)));
  await rememberAccount(uri, account);
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}
