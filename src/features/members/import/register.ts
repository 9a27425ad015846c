/** Import Members from a Spreadsheet…, New Members File…, and the import's CodeLens on CSV files that are not members files. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { AccountRef } from '../../../shared/refs';
import { registerCommand, type CommandEnv } from '../../../ui/commands';
import { importSheet, importTemp } from './importCommand';
import { sweepSheetTemp } from './sheet';
import { IMPORT_COMMAND, ImportLens } from './importLens';
import { newMembersFile } from './newMembersFile';

export function registerImport(
  env: CommandEnv,
  registry: PortalRegistry,
  rememberAccount: (file: vscode.Uri, account: AccountRef) => Promise<void>,
  storage: string,
): vscode.Disposable[] {
  const deps = { registry, rememberAccount, storage, invite: { registry, storage, log: env.log } };
  // What a sheet's reader left when the host did not live to remove it.
  void sweepSheetTemp(importTemp(storage)).catch((error: unknown) => env.log.warn(`import: ${String(error)}`));
  return [
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/*.csv' }, new ImportLens()),
    registerCommand(env, IMPORT_COMMAND, (run) => importSheet(run, deps)),
    registerCommand(env, 'portal.members.importSheetInvite', (run) => importSheet(run, { ...deps, inviteNew: true })),
    registerCommand(env, 'portal.members.newMembersFile', (run) => newMembersFile(run, registry, rememberAccount)),
  ];
}
