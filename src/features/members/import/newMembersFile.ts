/** New Members File…: an untitled members file with the header an organisation's file needs, one column per group. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { AccountRef } from '../../../shared/refs';
import { accountFor } from '../../../targets/resolve';
import type { Run } from '../../../ui/commands';
import { readGroups } from '../plan/core/portalState';
import { emptyMembersFile } from './convert';

export async function newMembersFile(
  run: Run,
  registry: PortalRegistry,
  rememberAccount: (file: vscode.Uri, account: AccountRef) => Promise<void>,
): Promise<vscode.TextDocument> {
  const account = await accountFor(run, registry);
  const groups = await readGroups(registry.client(account.portalId), account.accountId);
  const doc = await vscode.workspace.openTextDocument({
    language: 'csv',
    content: emptyMembersFile(groups.map((g) => g.name)),
  });
  await rememberAccount(doc.uri, account);
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}
