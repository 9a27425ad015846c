// Checks that what package.json promises is really there in the running VS Code. Shared by the
// suites (extension under development) and the .vsix probe (extension installed from the package).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  contributedCommands,
  contributedViewContainers,
  contributedViews,
  extensionId,
  type Manifest,
} from './manifest';

/** Commands from contributes.commands that the running extension host does not know. */
export async function missingCommands(manifest: Manifest): Promise<string[]> {
  const registered = new Set(await vscode.commands.getCommands(true));
  return contributedCommands(manifest).filter((c) => !registered.has(c));
}

/** Every contributed view can be focused (VS Code registers `<viewId>.focus` for each view it knows). */
export async function assertViewsOpen(manifest: Manifest): Promise<void> {
  const registered = new Set(await vscode.commands.getCommands(true));
  const problems: string[] = [];
  for (const container of contributedViewContainers(manifest)) {
    const open = `workbench.view.extension.${container}`;
    if (!registered.has(open)) {
      problems.push(`view container ${container}: no ${open} command`);
      continue;
    }
    try {
      await vscode.commands.executeCommand(open);
    } catch (err) {
      problems.push(`view container ${container}: ${open} failed: ${String(err)}`);
    }
  }
  for (const view of contributedViews(manifest)) {
    const focus = `${view.id}.focus`;
    if (!registered.has(focus)) {
      problems.push(`view ${view.id} (in ${view.container}): no ${focus} command, so VS Code does not know the view`);
      continue;
    }
    try {
      await vscode.commands.executeCommand(focus);
    } catch (err) {
      problems.push(`view ${view.id} (in ${view.container}): ${focus} failed: ${String(err)}`);
    }
  }
  assert.deepEqual(problems, [], 'every contributed view and view container opens');
}

/**
 * The tests both loaders of the extension (development copy, installed .vsix) must pass, so the two cannot
 * drift apart: it activates, and every command and view its package.json contributes is there.
 */
export function itActivatesWithEveryContribution(manifest: Manifest): void {
  const id = extensionId(manifest);

  it('activates', async () => {
    const ext = vscode.extensions.getExtension(id);
    assert.ok(ext);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command in contributes.commands', async () => {
    await vscode.extensions.getExtension(id)?.activate();
    assert.deepEqual(await missingCommands(manifest), []);
  });

  it('opens every view in contributes.views', async () => {
    await vscode.extensions.getExtension(id)?.activate();
    await assertViewsOpen(manifest);
  });
}
