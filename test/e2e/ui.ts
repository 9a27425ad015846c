// UI moves the Playwright flows share: context menus, quick picks, the palette, form fields and banners,
// each done as a person would (clicks and keystrokes), each bounded by UI_TIMEOUT_MS.
import type { Frame, Locator, Page } from 'playwright-core';
import {
  answer,
  expand,
  openViewContainer,
  quickInput,
  treeRow,
  UI_TIMEOUT_MS,
  viewPane,
  webviewFrame,
} from './fixture';

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/**
 * Right-clicks a tree row and runs one entry of its menu from the keyboard. A click while the menu fades in is taken
 * as a hover, and no event says when the fade is over; the menu's keys act from the moment it shows.
 */
export async function runMenuEntry(page: Page, row: Locator, entry: string): Promise<void> {
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const entries = page.locator('.monaco-menu .action-item');
  const item = entries.filter({ hasText: entry }).first();
  // A menu can close as it opens (its row redrawn under it, the focus taken): it is opened again until the entry shows.
  await until(
    page,
    async () => {
      await went(row.click({ button: 'right', timeout: CLICK_ONCE_MS }));
      if (await went(item.waitFor({ state: 'visible', timeout: CLICK_ONCE_MS }))) return true;
      if (await entries.first().isVisible()) await page.keyboard.press('Escape');
      return undefined;
    },
    `"${entry}" in the row's context menu`,
  );
  // Each press moves one entry on (past separators and disabled ones), so the menu's length of them reaches any.
  await arrowTo(page, item, entries, `"${entry}" in the context menu`);
  await item.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/**
 * Presses the down arrow until `entry` (one of `all`, the entries of a list or menu with the keyboard's focus) has the
 * focus, at most once per entry shown, then Enter. `what` names the entry in the failure.
 */
async function arrowTo(page: Page, entry: Locator, all: Locator, what: string): Promise<void> {
  await entry.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const focused = (): Promise<boolean> => entry.evaluate((el) => el.classList.contains('focused'));
  const presses = await all.count();
  for (let i = 0; i < presses && !(await focused()); i++) await page.keyboard.press('ArrowDown');
  check(await focused(), `${what} could not be reached with the arrow keys`);
  await page.keyboard.press('Enter');
}

/** What a command asks for when it runs without a tree row, as from the palette (targets.ts). */
const ASKS_FOR_TARGET = /^Which (portal|organisation|group|application)\b|type to search (members|file records)/;

/**
 * Runs a context-menu entry that must act on its row. If the command asks for its target as it does from the palette
 * ("Which organisation?"), the row was lost: said here when the question is already up, and otherwise by the flow's
 * next step, which waits for what the entry opens and finds the question in its place.
 */
export async function contextMenu(page: Page, row: Locator, entry: string): Promise<void> {
  await runMenuEntry(page, row, entry);
  const input = page.locator('.quick-input-widget input').first();
  const asked = (await input.isVisible()) ? await input.getAttribute('placeholder') : null;
  check(!asked || !ASKS_FOR_TARGET.test(asked), `"${entry}" ran without its tree row and asked "${asked}"`);
}

/**
 * VS Code in a browser saves a second after each edit unless told otherwise (the desktop does not): a flow about what
 * a save sends saves when it means to, with these settings.
 */
export const SAVE_ONLY_WHEN_ASKED = (): Record<string, unknown> => ({ 'files.autoSave': 'off' });

/**
 * Types at the end of the active editor and waits until its tab shows the unsaved change (with SAVE_ONLY_WHEN_ASKED).
 * A flow that changes the portal's copy does so after this: an editor with nothing unsaved takes a newer copy in
 * silence, as it should, and whether that comes first is the machine's speed. No Enter in `text`: on a busy machine
 * the editor has lost one typed just after a word (its word suggestions still deciding).
 */
export async function typeAtEnd(page: Page, text: string): Promise<void> {
  await page.locator('.editor-instance .monaco-editor').first().click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  await page.locator('.tabs-container .tab.active.dirty').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** Brings a member row into view in the Members view with the tree's type-to-navigate, then returns it. */
export async function memberRow(page: Page, name: string): Promise<Locator> {
  const pane = membersPane(page);
  await pane.locator('.monaco-list-row').first().waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
  await pane.locator('.monaco-list').first().focus();
  await page.keyboard.type(name.slice(0, 6), { delay: 40 });
  const row = treeRow(page, 'Members', name);
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await page.keyboard.press('Escape');
  return row;
}

export async function pick(page: Page, label: string): Promise<void> {
  const q = await quickInput(page, UI_TIMEOUT_MS);
  await acceptRow(page, q.rows.filter({ hasText: label }).first());
}

/**
 * Accepts a row of the quick input from the keyboard: the arrow key until the row has the focus (at most once per row
 * shown), then Enter. A click there could land on a hover drawn across the list, which shows after a delay that the
 * machine's load decides; the keys go to the quick input whatever is drawn over it.
 */
export async function acceptRow(page: Page, row: Locator): Promise<void> {
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await arrowTo(page, row, rows, 'the row in the quick input');
}

/** The form's webview frame, once its host state has arrived (the heading is rendered from it). */
export async function formFrame(page: Page, heading: string): Promise<Frame> {
  const frame = await webviewFrame(page, `h1`, UI_TIMEOUT_MS);
  await frame.locator('h1', { hasText: heading }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  return frame;
}

/** A vscode-textfield: its input lives in the element's (open) shadow root, which locators pierce. */
export async function fill(frame: Frame, id: string, value: string): Promise<void> {
  const input = frame.locator(`#${id} input`);
  await input.fill(value);
}

/**
 * A vscode-single-select, by keyboard as a person without a mouse would: focus, open with Enter, arrow to the
 * option, Enter. (Clicking an option fails when the drop-down opens past the bottom of the webview.)
 */
export async function choose(frame: Frame, id: string, option: string): Promise<void> {
  const select = frame.locator(`#${id}`);
  const labels = await select.locator('vscode-option').allTextContents();
  const target = labels.findIndex((l) => l.trim() === option);
  check(target >= 0, `#${id} has no option "${option}" (${labels.join(', ')})`);
  const current = await select.evaluate((e) => (e as HTMLElement & { selectedIndex: number }).selectedIndex);
  // The pointer is left wherever the last click was (a context menu's item): over the opened list it would make the
  // option under it the active one, and Enter would pick that instead of the one the keys moved to.
  await frame.page().mouse.move(0, 0);
  await select.focus();
  await select.press('Enter');
  const key = target > current ? 'ArrowDown' : 'ArrowUp';
  for (let i = 0; i < Math.abs(target - current); i++) await select.press(key);
  await select.press('Enter');
  const chosen = await select.evaluate((e) => (e as HTMLElement & { selectedIndex: number }).selectedIndex);
  check(chosen === target, `#${id}: chose option ${chosen}, wanted ${target} (${option})`);
}

export async function fillAll(frame: Frame, values: Record<string, string>): Promise<void> {
  for (const [id, value] of Object.entries(values)) await fill(frame, id, value);
}

export async function save(frame: Frame): Promise<void> {
  await frame.locator('#save').click();
}

export async function banner(frame: Frame, kind: 'ok' | 'error'): Promise<string> {
  const b = frame.locator(`.banner.${kind}`).first();
  await b.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  return (await b.textContent()) ?? '';
}

/** The colour themes flows take screenshots in, by the name the theme picker lists. */
export const THEMES = { dark: 'Default Dark Modern', light: 'Default Light Modern' } as const;
export type Theme = keyof typeof THEMES;

/** Switches the workbench's colour theme with "Preferences: Color Theme", as a person would (nothing if it has it). */
export async function colorTheme(page: Page, theme: Theme): Promise<void> {
  const cls = theme === 'light' ? '.monaco-workbench.vs:not(.vs-dark)' : '.monaco-workbench.vs-dark';
  if ((await page.locator(cls).count()) > 0) return;
  await palette(page, 'Preferences: Color Theme');
  const q = await quickInput(page, UI_TIMEOUT_MS);
  await q.input.fill(THEMES[theme]);
  // Rows read "Dark Modern  Default Dark Modern" (label, then the setting value); skip "Browse Additional…".
  await acceptRow(page, q.rows.filter({ hasText: THEMES[theme] }).filter({ hasNotText: 'Browse' }).first());
  await page.locator(cls).waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
}

/** Runs a command from the palette, opened from the command center (keyboard focus may be in a webview). */
export async function palette(page: Page, label: string): Promise<void> {
  const centre = page.locator('.command-center .command-center-center').first();
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input').first();
  const row = widget.locator('.quick-input-list .monaco-list-row').filter({ hasText: label }).first();
  // Whatever takes the focus as the palette opens closes it again: a walkthrough at start-up, a panel restored after
  // a reload. So the palette is opened again until its row is shown; Enter is the last key, so nothing runs twice.
  await until(
    page,
    async () => {
      if (!(await widget.isVisible())) {
        await went(centre.click({ timeout: CLICK_ONCE_MS }));
        // The pointer leaves the command center, whose hover would otherwise open across the palette's list.
        const box = await centre.boundingBox().catch(() => null);
        if (box) await page.mouse.move(box.x + box.width + 20, box.y + box.height / 2);
        return undefined;
      }
      // Typed each time it is seen open. A quick input that is not the palette, or one that shows no such command in
      // time, is closed; the next look opens the palette afresh.
      if (
        !(await went(input.fill(`>${label}`, { timeout: CLICK_ONCE_MS }))) ||
        !(await went(row.waitFor({ state: 'visible', timeout: CLICK_ONCE_MS })))
      ) {
        if (await widget.isVisible()) await page.keyboard.press('Escape');
        return undefined;
      }
      await acceptRow(page, row);
      return true;
    },
    `the palette's "${label}"`,
  );
}

/** Expands or collapses one of the side bar's panes (by its title, e.g. "Members"). */
export async function setPaneExpanded(page: Page, title: string, expanded: boolean): Promise<void> {
  const header = page.locator('.pane-header', { hasText: title }).first();
  await header.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  if (((await header.getAttribute('aria-expanded')) === 'true') !== expanded)
    await header.click({ position: { x: 30, y: 10 } });
}

/** Drags the side bar's edge to `width` pixels, so labels and descriptions fit. */
export async function widenSidebar(page: Page, width: number): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
}

/**
 * Signs in to a portal listed in settings as a person does on first use: expands the portal's row in the Explorer,
 * clicks its "Sign in…" row and types the username and password into the input boxes.
 */
export async function signInFromExplorer(
  page: Page,
  portalLabel: string,
  username = 'demo',
  password = 'demo',
): Promise<void> {
  await expand(page, 'Explorer', portalLabel, 'Sign in…');
  await treeRow(page, 'Explorer', 'Sign in…').click();
  await answer(page, username, '(1/2)');
  await answer(page, password, '(2/2)');
}

/**
 * The Portal side bar set out for a flow: the window at `size`, the side bar `width` wide, and of the Members and
 * Applications panes only those named in `keep` left open (the Explorer always is), so rows are on screen.
 */
export async function portalSidebar(
  page: Page,
  o: { width: number; height?: number; keep?: ReadonlyArray<'Members' | 'Applications'> },
): Promise<void> {
  await page.setViewportSize({ width: 1280, height: o.height ?? 800 });
  await openViewContainer(page, 'Portal');
  await widenSidebar(page, o.width);
  for (const pane of ['Members', 'Applications'] as const) {
    if (!o.keep?.includes(pane)) await setPaneExpanded(page, pane, false);
  }
}

/**
 * The start the member flows share: the Portal side bar set out as `sidebar` says, signed in to the demo portal from
 * the Explorer, Acme Corporation on screen, then the Explorer folded so the rest of the side bar has room. When the
 * Members pane is kept open, Acme is chosen too and the flow goes on once its members are listed.
 * It takes the page, not the workbench: the flow has its workbench in hand first, so a failure here is still caught
 * by its guard and screenshot (flowFailure).
 */
export async function signInToAcme(
  page: Page,
  portalLabel: string,
  sidebar: Parameters<typeof portalSidebar>[1],
): Promise<void> {
  await portalSidebar(page, sidebar);
  await signInFromExplorer(page, portalLabel);
  const acme = treeRow(page, 'Explorer', 'Acme Corporation');
  if (sidebar.keep?.includes('Members')) {
    await acme.click();
    await membersRow(page, 'Dana Demo').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  } else {
    await acme.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  }
  await setPaneExpanded(page, 'Explorer', false);
}

/**
 * Answers the workbench's own file dialog (the simple file dialog of a remote window): `typed` goes into its box until
 * the dialog lists `marker` (made for the purpose in the folder typed) with the box still holding it, then its OK button,
 * which carries the command's label. The dialog starts by filling in the workspace folder once it has listed it, and
 * that overwrites a path typed before: then it is typed again.
 */
export async function choosePath(
  page: Page,
  title: string,
  typed: string,
  okLabel: string | RegExp,
  marker: string,
  closes = true,
): Promise<void> {
  const q = await quickInput(page);
  await q.widget
    .locator('.quick-input-title', { hasText: title })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const listedRow = q.rows.filter({ hasText: marker }).first();
  for (let attempt = 1; ; attempt++) {
    await q.input.fill(typed);
    const outcome = await until(
      page,
      async () => {
        if ((await q.input.inputValue()) !== typed) return 'overwritten';
        return (await listedRow.isVisible()) ? 'listed' : undefined;
      },
      `the dialog "${title}" listing ${marker} for ${typed}`,
    );
    if (outcome === 'listed') break;
    check(attempt < 3, `the dialog "${title}" did not keep ${typed} (it shows ${await q.input.inputValue()})`);
  }
  await q.widget.locator('.monaco-button', { hasText: okLabel }).first().click();
  if (closes) await q.widget.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/**
 * The folder dialog answered with `dir`, which holds the folder `marker`. With `closes` false the command's next
 * question follows in the same widget at once, so the dialog is not awaited to close.
 */
export const chooseFolder = (
  page: Page,
  title: string,
  dir: string,
  okLabel: string,
  marker: string,
  closes = true,
): Promise<void> => choosePath(page, title, `${dir}/`, okLabel, marker, closes);

/** The Members view's pane, and one of its rows by label. */
export const membersPane = (page: Page): Locator => viewPane(page, 'Members');
export const membersRow = (page: Page, label: string): Locator => treeRow(page, 'Members', label);

/** Waits until the Members view's description (in its header) reads `text`. */
export async function membersDescription(page: Page, text: string | RegExp): Promise<void> {
  await page
    .locator('.pane-header', { hasText: 'Members' })
    .locator('.description', { hasText: text })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** A button of a pane's title bar, by its title. */
export async function titleAction(page: Page, pane: string | RegExp, title: string): Promise<void> {
  const header = page.locator('.pane-header', { hasText: pane }).first();
  await header.hover();
  await header.locator(`.action-item a[aria-label="${title}"]`).click({ timeout: UI_TIMEOUT_MS });
}

/** A button of the Members view's title bar, by its title. */
export const membersTitleAction = (page: Page, title: string): Promise<void> => titleAction(page, 'Members', title);

/** Waits until the active editor's tab is the one named `name`. */
export async function activeTab(page: Page, name: string | RegExp): Promise<void> {
  await page.locator('.tab.active', { hasText: name }).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** The labels of the Members view's selected rows. */
export function selectedMembers(page: Page): Promise<string[]> {
  return membersPane(page).locator('.monaco-list-row.selected .label-name').allInnerTexts();
}

/** A modal dialog's button, once the dialog says `message`. */
export async function dialogButton(page: Page, message: string | RegExp, button: string | RegExp): Promise<Locator> {
  const box = page.locator('.monaco-dialog-box', { hasText: message });
  await box.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  return box.locator('.monaco-button', { hasText: button }).first();
}

/**
 * Waits for a notification that says `text`, read in the notification centre, then clears them all, so that the next
 * one waited for is a new one. The centre lists every notification, where a toast is not always drawn: VS Code draws
 * none for a fourth notification within 800 ms, and hides one after 15 s, so a flow that looked for the toast waited
 * out its bound for a notification that had come. The centre is opened with the status bar's bell, not the palette,
 * which an editor opening as a command ends (an apply's report) closes; that editor closes the centre too, so each
 * step looks again at what is on screen and opens it again.
 */
export async function notified(page: Page, text: string | RegExp): Promise<void> {
  const bell = page.locator('[id="status.notifications"]');
  const centre = page.locator('.notifications-center.visible');
  const item = centre.locator('.notification-list-item', { hasText: text }).first();
  await until(
    page,
    async () => {
      if (await item.isVisible()) return true;
      if (!(await centre.isVisible())) await bell.click({ timeout: UI_TIMEOUT_MS });
      return undefined;
    },
    `the notification "${String(text)}"`,
  );
  let cleared = false;
  await until(
    page,
    async () => {
      if (!(await centre.isVisible())) {
        if (cleared) return true;
        await bell.click({ timeout: UI_TIMEOUT_MS });
        return undefined;
      }
      // Clear All leaves a notification in progress, and is disabled when only such are left: then the centre is hidden.
      const clearAll = centre.locator('.codicon-notifications-clear-all');
      const clearable = await clearAll.evaluate((el) => !el.classList.contains('disabled')).catch(() => false);
      cleared = true;
      // The centre may close between the look and the click; the next look sees that.
      await (clearable ? clearAll : centre.locator('.codicon-notifications-hide'))
        .click({ timeout: CLICK_ONCE_MS })
        .catch(() => undefined);
      return undefined;
    },
    'the notification centre cleared and closed',
  );
}

/** How long one click on something that may go away meanwhile is tried before the state is looked at again. */
const CLICK_ONCE_MS = 5_000;

/** Whether a step on something that may go away meanwhile went through. */
function went(step: Promise<unknown>): Promise<boolean> {
  return step.then(
    () => true,
    () => false,
  );
}

/** Answers an input box that asks to type something to confirm (how many users are deleted for good). */
export async function typeToConfirm(page: Page, prompt: string | RegExp, text: string): Promise<void> {
  const widget = page.locator('.quick-input-widget').filter({ hasText: prompt });
  await widget.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const input = widget.locator('input').first();
  await input.fill(text);
  await input.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/**
 * Drags `paths` (files or folders on this machine) from the operating system onto `target`, as a file manager does.
 * The drag enters chromium's browser process (CDP Input.dispatchDragEvent), not the page: the browser builds the
 * page's DataTransfer itself, with File objects and, for a folder, a directory entry, and it never shows the page
 * where they live. A DataTransfer made by a page script would be a different thing: it can carry whatever a script
 * writes, `file:` URIs included, which no OS drag into a browser page does.
 */
export async function dropFromOs(page: Page, target: Locator, paths: readonly string[]): Promise<void> {
  await target.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const box = await target.boundingBox();
  check(box, 'the drop target has no box on screen');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  // Copy, link and move: what a file manager offers.
  const data = { items: [], files: [...paths], dragOperationsMask: 1 | 2 | 16 };
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchDragEvent', { type: 'dragEnter', x, y, data });
    // The tree decides on a dragover whether the row takes the drop; two, as a moving pointer sends.
    await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x, y, data });
    await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x, y, data });
    await cdp.send('Input.dispatchDragEvent', { type: 'drop', x, y, data });
  } finally {
    await cdp.detach();
  }
}

/**
 * Polls `probe` (bounded by `timeoutMs`) until it answers something other than undefined, and answers that: for a state
 * outside the page (a file written, the portal changed) that no event announces.
 */
export async function until<T>(
  page: Page,
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = UI_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${timeoutMs} ms`);
    await page.waitForTimeout(100);
  }
}

/** Import… from the palette, the sheet chosen from the workspace's sheets. */
export async function startImport(page: Page, sheet: string): Promise<void> {
  await palette(page, 'Portal: Import Members from a Spreadsheet…');
  await pick(page, sheet);
}
