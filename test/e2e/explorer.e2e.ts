// The Explorer through the real workbench: a portal listed in settings, signed in through the real input
// boxes, expanded portal → account → group → folder → file, the file record's page opened by a click and its content
// opened from the page.
// Screenshots: explorer-*.png in the run's images folder (docs/images/ with --update-docs; the README shows them).
import * as path from 'node:path';
import { answer, expand, treeRow, UI_TIMEOUT_MS, demoFlow } from './fixture';
import type { FlowContext } from './run';
import { check, formFrame, portalSidebar, setPaneExpanded } from './ui';

const PORTAL_LABEL = 'Demo portal';

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(ctx, 'explorer', {}, async ({ wb, page }) => {
    // The Explorer gets the whole sidebar for the walk down the tree.
    await portalSidebar(page, { width: 420 });

    // Signed out: the portal's only child says so and signs in when clicked.
    await expand(page, 'Explorer', PORTAL_LABEL, 'Sign in…');
    await treeRow(page, 'Explorer', 'Sign in…').click();
    await answer(page, 'demo', '(1/2)');
    await answer(page, 'demo', '(2/2)');
    ctx.log('signed in through the input boxes');

    await treeRow(page, 'Explorer', 'Acme Corporation').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await expand(page, 'Explorer', 'Acme Corporation', 'Engineering');
    await expand(page, 'Explorer', 'Engineering', 'src');
    await expand(page, 'Explorer', 'src', 'utils');
    await expand(page, 'Explorer', 'utils', 'format.ts');
    await expand(page, 'Explorer', 'docs', 'architecture.md');
    ctx.log('expanded portal → account → group → folders');
    await wb.screenshot(path.join(ctx.imagesDir, 'explorer-tree.png'));

    // A click on a file opens its record as a page titled by its name, its content one click away.
    await treeRow(page, 'Explorer', 'architecture.md').click();
    const record = await formFrame(page, 'architecture.md');
    for (const text of ['Engineering / docs / architecture.md', 'Dana Demo', 'Last modified']) {
      await record.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    }
    await record.locator('#download').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    const tab = page.locator('.tabs-container .tab', { hasText: 'architecture.md' }).first();
    await tab.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    const tabText = (await tab.innerText()).trim();
    check(!tabText.includes('(record)'), `the page's tab reads "${tabText}"`);
    ctx.log('the record opened as a page with its details');
    await wb.screenshot(path.join(ctx.imagesDir, 'explorer-record.png'));
    await record.locator('#openContent').click();
    await page
      .locator('.editor-instance .view-lines')
      .getByText('# Architecture', { exact: false })
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    ctx.log('"Open Content" on the page opened the file');

    // Selecting the account shows its members in the Members view.
    await setPaneExpanded(page, 'Members', true);
    await treeRow(page, 'Explorer', 'Acme Corporation').click();
    await treeRow(page, 'Members', 'Dana Demo').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await page
      .locator('.pane-header', { hasText: 'Members' })
      .locator('.description', { hasText: 'Acme Corporation' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    ctx.log('the Members view follows the selected account');
    await wb.screenshot(path.join(ctx.imagesDir, 'explorer-members.png'));
  });
}
