// The Plan view and a members file through the workbench, as a person uses them: notifications and dialogs, the
// Plan pane and its title actions, a cell of the file typed over with the keyboard, saving.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { cellOf, parseMembersFile, usernameOf } from '../../src/features/members/plan/core/file/membersFile';
import type { ColumnKey, MembersFile } from '../../src/features/members/plan/core/model';
import { portalSetting, quickInput, UI_TIMEOUT_MS, viewPane } from './fixture';
import { activeTab, check, notified, palette, pick } from './ui';

/**
 * The workbench settings of a flow that types into a members file: the demo portal, all of an organisation's members
 * on one page, and no suggestion widget to take a keystroke meant for the file.
 */
export function membersFileSettings(emulatorUrl: string, portalLabel: string): Record<string, unknown> {
  return {
    ...portalSetting(emulatorUrl, portalLabel),
    'portal.pageSize': 100,
    'editor.quickSuggestions': { other: false, comments: false, strings: false },
    'editor.wordBasedSuggestions': 'off',
  };
}

export const planPane = (page: Page): Locator => viewPane(page, /^Plan/);

/** Plan Changes… from the CodeLens on the active members file's header line, scrolled into view first. */
export async function planFromLens(page: Page): Promise<void> {
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  await page.locator('.codelens-decoration a', { hasText: 'Plan Changes…' }).first().click();
}

/**
 * Plan Changes… on an imported members file, the organisation's members it does not name left alone: the Plan view's
 * rows once it says `changes` ("6 of 6") and shows the row of `last` (the message comes before the rows).
 */
export async function planImport(page: Page, changes: string, last: string): Promise<string[]> {
  await planFromLens(page);
  await pick(page, 'Leave them alone');
  const pane = planPane(page);
  await pane.getByText(`${changes} changes chosen`).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await pane
    .locator('.monaco-list-row', { hasText: last })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  return (await pane.locator('.monaco-list-row .label-name').allInnerTexts()).map((l) => l.trim());
}

/**
 * Export Members to CSV… from the palette, with their group permissions (the pick says what they cost), into `file`
 * (the save dialog answered with the path typed).
 */
export async function exportWithGroups(page: Page, file: string, organisation: string): Promise<void> {
  await palette(page, 'Portal: Export Members to CSV…');
  // What to export is asked before where to save it.
  const q = await quickInput(page);
  await q.rows
    .filter({ hasText: 'One more request per member' })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await pick(page, 'Members and their group permissions');
  const saveBox = await quickInput(page);
  await saveBox.widget
    .locator('.quick-input-title', { hasText: `Export the members of ${organisation}` })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await saveBox.rows.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await saveBox.input.fill(file);
  await saveBox.input.press('Enter');
  await notified(page, /Exported \d+ members to/);
}

/** Opens a file with Quick Open, by its absolute path (listed without waiting for the workspace's file search). */
export async function quickOpen(page: Page, file: string): Promise<void> {
  await page.keyboard.press('Control+p');
  const open = await quickInput(page);
  const name = path.basename(file);
  await open.input.fill(file);
  await open.rows.filter({ hasText: name }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await open.input.press('Enter');
  await activeTab(page, name);
}

/** Puts the cursor at a (zero-based) line and column with Go to Line, as a person would. */
export async function goTo(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+g');
  const q = await quickInput(page);
  await q.input.fill(`:${line + 1}:${column + 1}`);
  await q.input.press('Enter');
  await q.widget.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/** Selects a cell with the keyboard and types over it. */
export async function typeOver(
  page: Page,
  file: MembersFile,
  username: string,
  key: ColumnKey,
  text: string,
): Promise<void> {
  const row = file.rows.find((r) => usernameOf(file, r) === username);
  check(row, `no row for ${username}`);
  const cell = cellOf(file, row, key);
  check(cell && cell.span.line === cell.span.endLine, `${username}'s ${key} cell is not on one line`);
  await goTo(page, cell.span.line, cell.span.column);
  for (let i = cell.span.column; i < cell.span.endColumn; i++) await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.type(text, { delay: 10 });
  await page.keyboard.press('Escape');
}

/** The editor's text as the extension reads it: from the file once saved. */
export function readBack(file: string): MembersFile {
  return parseMembersFile(fs.readFileSync(file, 'utf8'));
}

export async function save(page: Page): Promise<void> {
  await page.keyboard.press('Control+s');
  await page.locator('.tab.active.dirty').waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
}
