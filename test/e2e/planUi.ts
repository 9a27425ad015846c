// The Plan view and a members file through the workbench, as a person uses them: notifications and dialogs, the
// Plan pane and its title actions, a cell of the file typed over with the keyboard, saving.
import * as fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { cellOf, parseMembersFile, usernameOf } from '../../src/features/members/plan/core/file/membersFile';
import type { ColumnKey, MembersFile } from '../../src/features/members/plan/core/model';
import { portalSetting, quickInput, UI_TIMEOUT_MS } from './fixture';
import { check } from './ui';

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

export const planPane = (page: Page): Locator =>
  page.locator('.pane', { has: page.locator('.pane-header', { hasText: /^Plan/ }) });

/** A button of a pane's title bar, by its title. */
export async function titleAction(page: Page, pane: string | RegExp, title: string): Promise<void> {
  const header = page.locator('.pane-header', { hasText: pane }).first();
  await header.hover();
  await header.locator(`.action-item a[aria-label="${title}"]`).click({ timeout: UI_TIMEOUT_MS });
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
