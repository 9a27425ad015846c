// A portal whose every string is an attack, through the real workbench: the tree, a quick pick, a failing
// command's notification and a form. No notification carries a link, no label renders an icon from server text,
// no dialog fires, and no command that a server string names runs (the payloads open a terminal or settings).
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  answer,
  expand,
  openViewContainer,
  quickInput,
  treeRow,
  UI_TIMEOUT_MS,
  viewPane,
  webviewFrame,
  demoFlow,
} from './fixture';
import type { FlowContext } from './run';
import { acceptRow, check, contextMenu, palette } from './ui';

const PORTAL_LABEL = 'Hostile portal';

/** Icons rendered inside the text of labels and descriptions (a row's own icon sits outside them). */
function iconsInText(scope: Locator): Locator {
  return scope.locator('.label-name .codicon, .label-description .codicon, .monaco-highlighted-label .codicon');
}

/** Expands the first collapsed row at a tree level and waits for its children (server labels are all payloads). */
async function expandFirstAt(page: Page, view: string, level: number): Promise<void> {
  const row = viewPane(page, view).locator(`.monaco-list-row[aria-level="${level}"][aria-expanded="false"]`).first();
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await row.click();
  await viewPane(page, view)
    .locator(`.monaco-list-row[aria-level="${level + 1}"]`)
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(
    ctx,
    'hostile',
    {
      seed: 'hostile',
      settings: (url) => ({
        'portal.portals': [{ id: 'hostile', label: PORTAL_LABEL, baseUrl: url, service: 'portal' }],
      }),
    },
    async ({ wb, page }) => {
      const dialogs: string[] = [];
      // A script that a payload managed to run would show itself here first (alert(1), alert(2)).
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.setViewportSize({ width: 1280, height: 900 });
      await openViewContainer(page, 'Portal');
      await expand(page, 'Explorer', PORTAL_LABEL, 'Sign in…');
      await treeRow(page, 'Explorer', 'Sign in…').click();
      await answer(page, 'demo', '(1/2)');
      await answer(page, 'demo', '(2/2)');
      ctx.log('signed in to the hostile portal');

      // The tree: organisation → group → folder, every label a payload.
      await expandFirstAt(page, 'Explorer', 2);
      const explorer = viewPane(page, 'Explorer');
      // Groups until one holds a folder (bounded), then that folder.
      for (
        let i = 0;
        i < 6 && (await explorer.locator('.monaco-list-row[aria-level="4"][aria-expanded="false"]').count()) === 0;
        i++
      ) {
        await expandFirstAt(page, 'Explorer', 3);
      }
      await expandFirstAt(page, 'Explorer', 4);
      // What a person reads: the invisible breaks that defuse links and icons are not part of it.
      const shown = (await explorer.locator('.monaco-list-row').allInnerTexts()).map((t) => t.replace(/\u200b/g, ''));
      check(
        shown.some((t) => t.includes('$(alert)')) && shown.some((t) => t.includes('](command:')),
        `the payloads are shown as text: ${shown.join(' | ')}`,
      );
      check((await iconsInText(explorer).count()) === 0, 'no icon is rendered from a name in the Explorer');
      ctx.log(`the Explorer shows ${shown.length} hostile rows as text`);
      await wb.screenshot(path.join(ctx.resultsDir, 'e2e-hostile-explorer.png'));

      // A quick pick of server names: "Edit Group…" from the palette lists the groups.
      await palette(page, 'Portal: Edit Group…');
      let q = await quickInput(page);
      // The hostile portal has two organisations: the question comes first, its rows are payloads too.
      await q.rows.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      if ((await q.input.getAttribute('placeholder')) === 'Which organisation?') {
        check(
          (await iconsInText(q.widget).count()) === 0,
          'no icon is rendered from an organisation name in the quick pick',
        );
        await acceptRow(
          page,
          q.rows.filter({ has: page.locator('.label-description', { hasText: /^constructor$/ }) }).first(),
        );
        q = await quickInput(page);
      }
      await q.rows.filter({ hasText: '$(alert)' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      check((await iconsInText(q.widget).count()) === 0, 'no icon is rendered from a group name in the quick pick');
      await page.keyboard.press('Escape');
      ctx.log('the group quick pick shows "$(alert)" as text');

      // A command that fails with a server message carrying a command link: removing the trap member.
      await treeRow(page, 'Explorer', PORTAL_LABEL).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await explorer.locator('.monaco-list-row[aria-level="2"]').first().click();
      await palette(page, 'Portal: Search Members…');
      await (await quickInput(page)).input.fill('trap.member');
      await page.keyboard.press('Enter');
      const trap = viewPane(page, 'Members').locator('.monaco-list-row', { hasText: 'trap.member' }).first();
      await contextMenu(page, trap, 'Remove Members from Organisation…');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      check(
        (await dialog.locator('.dialog-message-text a, .dialog-message-detail a').count()) === 0,
        'the confirmation carries no link',
      );
      await dialog.locator('.monaco-button', { hasText: 'Continue…' }).click();
      await answer(page, 'trap.member', 'Remove');
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Denied' }).first();
      await toast.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const message = await toast.locator('.notification-list-item-message').innerText();
      check(
        message.replace(/\u200b/g, '').includes('[Fix](command:workbench.action.openSettings)'),
        `the server's words are shown: ${message}`,
      );
      check(
        (await toast.locator('.notification-list-item-message a').count()) === 0,
        `the notification carries no link: ${message}`,
      );
      const toasts = page.locator('.notifications-toasts .notification-list-item-message');
      check((await toasts.locator('a').count()) === 0, 'no notification on screen carries a link');
      ctx.log('the error notification shows the command link as text');
      await wb.screenshot(path.join(ctx.resultsDir, 'e2e-hostile-notification.png'));

      // A form: the member's name, job title and tags are markup; they stay text.
      await palette(page, 'Portal: Search Members…');
      await (await quickInput(page)).input.fill('payload.htmlimg');
      await page.keyboard.press('Enter');
      const html = viewPane(page, 'Members').locator('.monaco-list-row', { hasText: 'payload.htmlimg' }).first();
      await contextMenu(page, html, 'Edit Assignments…');
      const frame = await webviewFrame(page, 'h1');
      await frame
        .getByText('<img src=x onerror=alert(1)>', { exact: false })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const subtitle = (await frame.locator('.subtitle').textContent()) ?? '';
      check(subtitle.includes('htmlImg <img src=x onerror=alert(1)>'), `the name is not shown literally: ${subtitle}`);
      const formText = await frame.locator('body').innerText();
      check(!/[\u202a-\u202e\u2066-\u2069]/.test(formText), 'no bidi control reorders text in the form');
      const made = await frame
        .locator('img, #app script')
        .evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 120)));
      check(made.length === 0, `no element was made from server text in the form: ${made.join(' | ')}`);
      ctx.log('the form shows the markup as text');
      await wb.screenshot(path.join(ctx.resultsDir, 'e2e-hostile-form.png'));

      check(dialogs.length === 0, `no dialog fired: ${dialogs.join(', ')}`);
      check(
        (await page.locator('.terminal-outer-container, .integrated-terminal').count()) === 0,
        'no terminal was opened by a payload',
      );
    },
  );
}
