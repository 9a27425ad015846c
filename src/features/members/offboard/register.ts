/** Offboard Members…, Remove from All Groups… and the CodeLens on lists of leavers. */
import * as vscode from 'vscode';
import { registerCommand, type CommandEnv } from '../../../ui/commands';
import { LeaversLens, OFFBOARD_COMMAND } from './leaversLens';
import { offboardMembers, removeFromAllGroups, type OffboardDeps } from './offboard';

export function registerOffboard(env: CommandEnv, deps: OffboardDeps): vscode.Disposable[] {
  return [
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/*.csv' }, new LeaversLens()),
    registerCommand(env, OFFBOARD_COMMAND, (run) => offboardMembers(run, deps)),
    registerCommand(env, 'portal.members.removeFromAllGroups', (run) => removeFromAllGroups(run, deps)),
  ];
}
