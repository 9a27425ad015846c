import * as vscode from 'vscode';
import type { SavedChange } from '../forms/formPanel';

/**
 * The view that shows each kind of change; its reload command (registered by src/tree) asks the portal again
 * while the view keeps its rows, so a context-menu entry used meanwhile still gets its row.
 * Calling the commands by name keeps the forms free of the tree's internals.
 */
const RELOAD: Record<SavedChange['kind'], string[]> = {
  member: ['portal.members.reload'],
  group: ['portal.explorer.reload'],
  account: ['portal.explorer.reload'],
  application: ['portal.applications.reload'],
};

/** After a save, the views showing the change reload (a view that is not there is no error). */
export function refreshViews(change: SavedChange): void {
  for (const command of RELOAD[change.kind]) void vscode.commands.executeCommand(command).then(undefined, () => undefined);
}
