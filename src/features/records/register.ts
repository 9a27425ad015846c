/** The `portal:` file system and the file record commands that open its URIs. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { registerFileCommands } from './commands';
import { PortalFileSystem } from './fileSystem';
import type { Ui } from '../../ui/ui';

export { PortalFileSystem, uriOf } from './fileSystem';
export type { PortalTarget } from './uri';

export interface RecordsApi {
  readonly fileSystem: PortalFileSystem;
}

export function registerRecords(context: vscode.ExtensionContext, deps: { registry: PortalRegistry; log: vscode.LogOutputChannel; ui: () => Ui }): RecordsApi {
  const fileSystem = new PortalFileSystem(deps.registry);
  context.subscriptions.push(
    fileSystem,
    vscode.workspace.registerFileSystemProvider('portal', fileSystem, { isReadonly: true, isCaseSensitive: true }),
    ...registerFileCommands(deps.registry, fileSystem, deps),
  );
  return { fileSystem };
}
