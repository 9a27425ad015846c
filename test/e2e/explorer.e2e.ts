// The Explorer through the real workbench: a portal listed in settings, signed in through the real input
// boxes, expanded portal → account → group → folder → file, the file record opened by a click.
// Screenshots go to docs/images/explorer-*.png (the README shows them).
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startEmulator } from '../emulator';
import { openViewContainer, openWorkbench, quickInput, type E2EWorkbench } from './fixture';
import type { FlowContext } from './run';

const PORTAL_LABEL = 'Demo portal';
const UI_TIMEOUT_MS = 20_000;

/** A row of one of our tree views, by its label (exact). */
function treeRow(page: Page, viewTitle: string, label: string): Locator {
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: viewTitle }) });
  return pane.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) }).first();
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Drags the sidebar's edge so labels and descriptions fit. */
async function widenSidebar(page: Page, width: number): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
}

async function setPaneExpanded(page: Page, title: string, expanded: boolean): Promise<void> {
  const header = page.locator('.pane-header', { hasText: title }).first();
  await header.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  if (((await header.getAttribute('aria-expanded')) === 'true') !== expanded) await header.click({ position: { x: 30, y: 10 } });
}

/** Clicks a row (expanding it) and waits for a child to appear. */
async function expand(page: Page, label: string, child: string): Promise<void> {
  const row = treeRow(page, 'Explorer', label);
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  await treeRow(page, 'Explorer', child).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

async function answer(page: Page, value: string, titlePart: string): Promise<void> {
  const q = await quickInput(page, UI_TIMEOUT_MS);
  await q.widget.locator('.quick-input-title', { hasText: titlePart }).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await q.input.fill(value);
  await q.input.press('Enter');
}

export async function run(ctx: FlowContext): Promise<void> {
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true });
  let wb: E2EWorkbench | undefined;
  try {
    wb = await openWorkbench({
      settings: {
        'portal.portals': [{ id: 'demo-portal', label: PORTAL_LABEL, baseUrl: emu.url, service: 'portal' }],
      },
    });
    const page = wb.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    await openViewContainer(page, 'Portal');
    await widenSidebar(page, 420);
    // The Explorer gets the whole sidebar for the walk down the tree.
    await setPaneExpanded(page, 'Members', false);
    await setPaneExpanded(page, 'Applications', false);

    // Signed out: the portal's only child says so and signs in when clicked.
    await expand(page, PORTAL_LABEL, 'Sign in again…');
    await treeRow(page, 'Explorer', 'Sign in again…').click();
    await answer(page, 'demo', '(3/4)');
    await answer(page, 'demo', '(4/4)');
    ctx.log('signed in through the input boxes');

    await treeRow(page, 'Explorer', 'Acme Corporation').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await expand(page, 'Acme Corporation', 'Engineering');
    await expand(page, 'Engineering', 'src');
    await expand(page, 'src', 'utils');
    await expand(page, 'utils', 'format.ts');
    await expand(page, 'docs', 'architecture.md');
    ctx.log('expanded portal → account → group → folders');
    await wb.screenshot(path.join(ctx.imagesDir, 'explorer-tree.png'));

    // A click on a file opens its record in a read-only editor.
    await treeRow(page, 'Explorer', 'architecture.md').click();
    const editor = page.locator('.editor-instance .view-lines');
    await editor.locator('text=Path:').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    for (const text of ['# architecture.md', 'Engineering / docs / architecture.md', 'Uploaded by:', 'Dana Demo', 'Last modified:']) {
      await editor.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    }
    const tab = page.locator('.tabs-container .tab', { hasText: 'architecture.md (record).md' }).first();
    await tab.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    ctx.log('the record opened with its details');
    await wb.screenshot(path.join(ctx.imagesDir, 'explorer-record.png'));

    // Selecting the account shows its members in the Members view.
    await setPaneExpanded(page, 'Members', true);
    await treeRow(page, 'Explorer', 'Acme Corporation').click();
    await treeRow(page, 'Members', 'Dana Demo').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await page.locator('.pane-header', { hasText: 'Members' }).locator('.description', { hasText: 'Acme Corporation' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    ctx.log('the Members view follows the selected account');
    await wb.screenshot(path.join(ctx.imagesDir, 'explorer-members.png'));
  } catch (err) {
    await wb?.screenshot(path.join(ctx.resultsDir, 'e2e-explorer-failure.png')).catch(() => undefined);
    const tail = wb?.recentLog().slice(-30).join('\n') ?? '';
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- workbench log (last lines) ---\n${tail}`);
  } finally {
    await wb?.dispose();
    await emu.stop();
  }
}
