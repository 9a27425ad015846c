import * as vscode from 'vscode';
import type { ReviewPanel } from '../../../src/features/review/reviewPanel';
import { startDemoPortal, stopDemoPortal, type DemoPortal, type PortalKind } from './demoPortal';
import { features, type Testing } from './tree';

/**
 * An access-review suite's portal: the demo, signed in, before the suite; after it, every review page the suite
 * opened is closed, the plans and reads the reviews left are forgotten, and the portal stops, so the next suite
 * starts from nothing a review kept.
 */
export function useReviewPortal(
  use: (portal: DemoPortal, testing: Testing) => void,
  opened: ReviewPanel[],
  kind: PortalKind = {},
): void {
  let portal: DemoPortal | undefined;
  let testing: Testing | undefined;
  before(async () => {
    portal = await startDemoPortal(kind);
    testing = await features();
    use(portal, testing);
  });
  after(async () => {
    for (const panel of opened) panel.dispose();
    testing?.members.plan.store.clear();
    await testing?.members.access.sessions.forget();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (portal) await stopDemoPortal(portal);
  });
}
