import * as vscode from 'vscode';
import type { SavedChange } from './formPanel';

/**
 * The view that shows each kind of change; its refresh command (registered by src/tree) reloads it.
 * Calling the commands by name keeps the forms free of the tree's internals.
 */
const REFRESH: Record<SavedChange['kind'], string[]> = {
  member: ['portal.members.refresh'],
  group: ['portal.explorer.refresh'],
  account: ['portal.explorer.refresh'],
  application: ['portal.applications.refresh'],
};

/** After a save, the views showing the change reload (a view that is not there is no error). */
export function refreshViews(change: SavedChange): void {
  for (const command of REFRESH[change.kind]) void vscode.commands.executeCommand(command).then(undefined, () => undefined);
}
