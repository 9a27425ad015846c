/** Import Members from a Spreadsheet…, New Members File…, and the import's CodeLens on CSV files that are not members files. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { AccountRef } from '../../../shared/refs';
import { registerCommand, type CommandEnv } from '../../../ui/commands';
import { forgetMapping, importSheet, importTemp } from './importCommand';
import { sweepSheetTemp } from './sheet';
import { IMPORT_COMMAND, ImportLens } from './importLens';
import { newMembersFile } from './newMembersFile';

export function registerImport(
  env: CommandEnv,
  registry: PortalRegistry,
  files: { rememberAccount(file: vscode.Uri, account: AccountRef, made: boolean): Promise<void> },
  storage: string,
  shownAccount: () => AccountRef | undefined,
): vscode.Disposable[] {
  // What a sheet's reader left when the host did not live to remove it.
  void sweepSheetTemp(importTemp(storage)).catch((error: unknown) => env.log.warn(`import: ${String(error)}`));
  // What the import and New Members File… write is made here, not exported: no "export again" for it.
  const rememberAccount = (file: vscode.Uri, account: AccountRef) => files.rememberAccount(file, account, true);
  const deps = { registry, rememberAccount, storage, shownAccount, invite: { registry, storage, log: env.log } };
  return [
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/*.csv' }, new ImportLens()),
    registerCommand(env, IMPORT_COMMAND, (run) => importSheet(run, deps)),
    registerCommand(env, 'portal.members.importSheetInvite', (run) => importSheet(run, { ...deps, inviteNew: true })),
    registerCommand(env, 'portal.members.forgetMapping', (run) => forgetMapping(run, deps)),
    registerCommand(env, 'portal.members.newMembersFile', (run) => newMembersFile(run, registry, rememberAccount)),
  ];
}
