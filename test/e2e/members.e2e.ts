// The Members view through the real workbench, in one launch: search with the view's own key, the tag filter's
// search and the sort from the view's title bar; enable, lock and remove from a row's context menu; a bulk edit on
// 25 members selected with Shift- and Ctrl-click, with its summary and "Retry Failures"; New Member with groups and
// a later activation. Every change is checked on the emulator over HTTP. Screenshot: members-bulk-edit.png.
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { type Emulator } from '../emulator';
import { answer, quickInput, treeRow, UI_TIMEOUT_MS, type E2EWorkbench, demoFlow, DemoReader } from './fixture';
import type { FlowContext } from './run';
import {
  banner,
  check,
  choose,
  contextMenu,
  dialogButton,
  fillAll,
  formFrame,
  membersDescription,
  membersPane,
  membersRow,
  membersTitleAction,
  palette,
  pick,
  save,
  selectedMembers,
  setPaneExpanded,
  signInToAcme,
  notified,
} from './ui';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;

interface MemberJson {
  user: { enabled: boolean; locked: boolean };
  tags: string[];
  activationType: string | number;
}

/** Reads the portal as the demo user, not through the extension. */
class Portal extends DemoReader {
  async member(username: string): Promise<MemberJson> {
    const res = await this.get<MemberJson>(`/v3/accounts/${ACME}/members/${username}`);
    check(res.status === 200, `GET ${username}: ${res.status}`);
    return res.body;
  }
}

/** The labels of the rows the Members view shows, top to bottom. */
async function labels(page: Page): Promise<string[]> {
  return membersPane(page).locator('.monaco-list-row .label-name').allInnerTexts();
}

/** Waits (bounded) until the Members view shows exactly these rows, in this order. */
async function rowsRead(page: Page, expected: readonly string[], what: string): Promise<void> {
  const deadline = Date.now() + UI_TIMEOUT_MS;
  let shown = await labels(page);
  while (shown.join('\n') !== expected.join('\n') && Date.now() < deadline) {
    await page.waitForTimeout(100);
    shown = await labels(page);
  }
  check(shown.join('\n') === expected.join('\n'), `${what}: ${shown.join(', ')}`);
}

async function searchTagAndSort(page: Page, ctx: FlowContext): Promise<void> {
  // The view's own key, with the focus in the view.
  await membersRow(page, 'Alice Andersen').click();
  await page.keyboard.press('Control+Alt+m');
  await answer(page, 'andersen', 'Search members of Acme Corporation');
  await membersDescription(page, 'matches "andersen"');
  await rowsRead(page, ['Alice Andersen', 'Quentin Andersen'], 'search');
  ctx.log('searched with Ctrl+Alt+M');

  await membersTitleAction(page, 'Filter Members by Tag…');
  const q = await quickInput(page);
  await q.input.fill('^su');
  // The portal answers "^su" with the tags that start with "su": "sales" leaves the list once that answer is in.
  await q.rows.filter({ hasText: 'sales' }).first().waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
  await q.rows.filter({ hasText: 'support' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await pick(page, 'support');
  await membersDescription(page, 'tagged #support');
  await membersTitleAction(page, 'Sort Members…');
  await pick(page, 'Name (Z → A)');
  await membersDescription(page, /tagged #support · by name, descending/);
  await rowsRead(page, ['Lena Locke', 'Jonas Petrov', 'Jonas López', 'Alice Andersen'], 'tag filter and order');
  ctx.log('filtered by the tag "support" (searched with ^su), sorted Z → A');
  await membersTitleAction(page, 'Clear Member Search and Filter');
  await membersRow(page, 'Dana Demo').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

async function enableLockRemove(page: Page, portal: Portal, ctx: FlowContext): Promise<void> {
  await contextMenu(page, membersRow(page, 'Victor Hale'), 'Enable Members');
  await membersPane(page)
    .locator('.monaco-list-row', { hasText: 'victor.hale' })
    .filter({ hasNotText: '[disabled]' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  check((await portal.member('victor.hale')).user.enabled, 'Victor Hale is not enabled on the portal');
  await contextMenu(page, membersRow(page, 'Bruno Hughes'), 'Lock Members');
  await membersPane(page)
    .locator('.monaco-list-row', { hasText: 'bruno.hughes' })
    .filter({ hasText: '[locked]' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  check((await portal.member('bruno.hughes')).user.locked, 'Bruno Hughes is not locked on the portal');
  await contextMenu(page, membersRow(page, 'Sven Okafor'), 'Remove Members from Organisation…');
  await (await dialogButton(page, 'Remove Sven Okafor (sven.okafor) from this organisation?', 'Continue…')).click();
  await answer(page, 'sven.okafor', 'Remove Sven Okafor');
  await membersRow(page, 'Sven Okafor').waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
  check((await portal.get(`/v3/accounts/${ACME}/members/sven.okafor`)).status === 404, 'Sven Okafor is still a member');
  ctx.log('enabled, locked and removed from the context menu');
}

/** 25 rows: Shift-click from Alice Andersen to Jonas López (20), then Ctrl-click five more. */
async function select25(page: Page): Promise<string[]> {
  const all = await labels(page);
  const from = all.indexOf('Alice Andersen');
  const to = all.indexOf('Jonas López');
  const more = ['Keiko García', 'Lena Locke', 'Luca Nakamura', 'Maya Evans', 'Mia Member'];
  check(from >= 0 && to - from === 19, `rows: ${all.join()}`);
  await membersRow(page, 'Alice Andersen').click();
  await membersRow(page, 'Jonas López').click({ modifiers: ['Shift'] });
  for (const label of more) await membersRow(page, label).click({ modifiers: ['Control'] });
  const selected = await selectedMembers(page);
  check(selected.length === 25, `${selected.length} rows selected: ${selected.join()}`);
  return selected;
}

/** Types a tag nobody has yet into the tag picker: its "Create tag" row appears as it is typed, and Enter makes it. */
async function typeNewTag(page: Page, tag: string, title: string): Promise<void> {
  const q = await quickInput(page, UI_TIMEOUT_MS);
  await q.widget
    .locator('.quick-input-title', { hasText: title })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await q.input.pressSequentially(tag, { delay: 20 });
  await q.rows
    .filter({ hasText: `Create tag "${tag}"` })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await q.input.press('Enter');
}

/** One row's Add Tag… with a new name: made on Enter, on the portal and on the row. */
async function tagOneWithNewName(page: Page, portal: Portal, ctx: FlowContext): Promise<void> {
  await contextMenu(page, membersRow(page, 'Mia Member'), 'Add Tag…');
  await typeNewTag(page, 'mentor', 'Tag Mia Member');
  const deadline = Date.now() + UI_TIMEOUT_MS;
  while (!(await portal.member('member')).tags.includes('mentor') && Date.now() < deadline)
    await page.waitForTimeout(100);
  check((await portal.member('member')).tags.includes('mentor'), 'Mia Member is not tagged "mentor" on the portal');
  await membersPane(page)
    .locator('.monaco-list-row', { hasText: '#mentor' })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  ctx.log('Add Tag… on one row: typing a new name offered "Create tag" at once; Enter made it');
}

async function bulkEdit(wb: E2EWorkbench, emu: Emulator, portal: Portal, ctx: FlowContext): Promise<void> {
  const page = wb.page;
  await palette(page, 'Notifications: Clear All Notifications');
  const selected = await select25(page);
  // The portal answers two of the changes (Dana Demo's, Mia Member's) without applying them, once: the summary must say so.
  emu.setFaults([
    { kind: 'ignore-writes', method: 'PATCH', path: `/v3/accounts/${ACME}/members/demo`, count: 1 },
    { kind: 'ignore-writes', method: 'PATCH', path: `/v3/accounts/${ACME}/members/member`, count: 1 },
  ]);
  await contextMenu(page, membersRow(page, 'Dana Demo'), 'Add Tag…');
  await typeNewTag(page, 'onboarding', 'Tag 25 members');
  await (
    await dialogButton(page, 'Add the tag "onboarding" to 25 members of Acme Corporation?', 'Add to 25 Members')
  ).click();
  const retry = await dialogButton(page, /Tagged 23 of 25 members "onboarding"\. Failed: 2\./, 'Retry Failures');
  await page
    .locator('.monaco-dialog-box', { hasText: 'demo: The portal answered but did not apply the change' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  // The finished run's progress notification fades out before the picture is taken.
  await page
    .locator('.notification-toast', { hasText: 'Adding the tag' })
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => undefined);
  const file = path.join(ctx.imagesDir, 'members-bulk-edit.png');
  await wb.screenshot(file);
  ctx.log(`screenshot ${path.relative(process.cwd(), file)}`);
  await retry.click();
  await notified(page, 'Tagged 2 of 2 members "onboarding".');
  const usernames = await membersPane(page).locator('.monaco-list-row.selected .label-description').allInnerTexts();
  for (const d of usernames) {
    const username = d.split(' · ')[0] ?? '';
    check((await portal.member(username)).tags.includes('onboarding'), `${username} is not tagged on the portal`);
  }
  check(usernames.length === selected.length, `${usernames.length} of ${selected.length} rows still selected`);
  await membersPane(page)
    .locator('.monaco-list-row.selected', { hasText: '#onboarding' })
    .nth(24)
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  ctx.log(
    'bulk edit on 25 members: 2 failures listed with their reason, retried, all 25 tagged on the portal and in the view',
  );
}

async function newMember(page: Page, portal: Portal, engineering: number, ctx: FlowContext): Promise<void> {
  await setPaneExpanded(page, 'Explorer', true);
  await contextMenu(page, treeRow(page, 'Explorer', 'Acme Corporation'), 'New Member…');
  const frame = await formFrame(page, 'Add member');
  await fillAll(frame, { username: 'nina.later', name: 'Nina Later', email: 'nina.later@acme.example' });
  await choose(frame, 'groupsMode', 'The groups chosen below');
  await choose(frame, `group-${engineering}`, 'Standard');
  await choose(frame, 'activation', 'At a date and time');
  await frame.locator('#activationDate input').fill('2031-03-01T09:00');
  await fillAll(frame, { activationMessage: 'Welcome to Acme' });
  await save(frame);
  const saved = await banner(frame, 'ok');
  check(/The activation e-mail goes out 2031-03-01 09:00/.test(saved), `saved: ${saved}`);
  const v2 = await portal.get<{ groups: Record<string, number> }>(`/v2/accounts/${ACME}/members/nina.later`);
  check(JSON.stringify(v2.body.groups) === '{"engineering":4}', `groups: ${JSON.stringify(v2.body.groups)}`);
  check(
    (await portal.member('nina.later')).activationType === new Date('2031-03-01T09:00').getTime(),
    'the activation date is not on the portal',
  );
  ctx.log('New Member: joined Engineering as standard, activation e-mail on 2031-03-01 09:00');
}

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(ctx, 'members', { settings: () => ({ 'portal.pageSize': 100 }) }, async ({ wb, page, emu }) => {
    const portal = new Portal(emu.url);
    // With the Explorer folded, the Members view gets the side bar's height: 36 rows fit.
    await signInToAcme(page, PORTAL_LABEL, { width: 560, height: 1000, keep: ['Members'] });
    ctx.log('signed in; the Members view shows Acme Corporation');

    await searchTagAndSort(page, ctx);
    await enableLockRemove(page, portal, ctx);
    await tagOneWithNewName(page, portal, ctx);
    await bulkEdit(wb, emu, portal, ctx);
    const groups = await portal.get<Array<{ id: number; name: string }>>(`/v2/accounts/${ACME}/groups`);
    const engineering = groups.body.find((g) => g.name === 'engineering')?.id;
    check(engineering, 'no engineering group');
    await newMember(page, portal, engineering, ctx);
  });
}
