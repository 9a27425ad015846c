/** Import Members from a Spreadsheet…, New Members File…, and the import's CodeLens on CSV files that are not members files. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { AccountRef } from '../../../shared/refs';
import { registerCommand, type CommandEnv } from '../../../ui/commands';
import { importSheet } from './importCommand';
import { IMPORT_COMMAND, ImportLens } from './importLens';
import { newMembersFile } from './newMembersFile';

export function registerImport(
  env: CommandEnv,
  registry: PortalRegistry,
  rememberAccount: (file: vscode.Uri, account: AccountRef) => Promise<void>,
): vscode.Disposable[] {
  return [
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/*.csv' }, new ImportLens()),
    registerCommand(env, IMPORT_COMMAND, (run) => importSheet(run, { registry, rememberAccount })),
    registerCommand(env, 'portal.members.newMembersFile', (run) => newMembersFile(run, registry, rememberAccount)),
  ];
}
