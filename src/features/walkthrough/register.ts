/**
 * The Get Started walkthrough: opened by itself on the first start in a profile when the user asks for that (the demo
 * does), and its steps tick from what is already true when it opens. The steps complete on context keys the features
 * set from their state at activation (portal.signedIn, portal.explorerShown, portal.assignmentsOpened), not only on the
 * events of this session.
 */
import * as vscode from 'vscode';
import { userValue } from '../../auth/settings';

const WALKTHROUGH = 'portal.gettingStarted';
const OPENED_KEY = 'portal.walkthrough.opened';

/** Opens the walkthrough once per profile, when the setting asks for it; later starts leave it closed. */
export async function openWalkthroughOnFirstRun(context: vscode.ExtensionContext): Promise<void> {
  if (userValue<boolean>('portal', 'walkthrough.openOnFirstRun') !== true) return;
  if (context.globalState.get<boolean>(OPENED_KEY) === true) return;
  await context.globalState.update(OPENED_KEY, true);
  await vscode.commands.executeCommand(
    'workbench.action.openWalkthrough',
    `${context.extension.id}#${WALKTHROUGH}`,
    false,
  );
}
