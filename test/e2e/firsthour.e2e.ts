// The first hour, as a newcomer to `npm run demo` lives it: the walkthrough opens by itself; the Applications view's
// welcome button signs in by offering the listed "Demo portal" first (no address typed, no second entry); the
// walkthrough's steps tick as the Portal view opens and a member's assignments are edited; the saved assignment shows
// in the Explorer's member count of the group without a refresh. Then the walkthrough's own memory of its steps is
// reset and the workbench started again on the same profile: every step ticks from what is true (signed in, the
// Portal view shown before, Edit Assignments opened before), not from what VS Code remembered.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { startEmulator } from '../emulator';
import { passwordToken, portalJson } from '../vscode/support/portalHttp';
import { notTicked, openWalkthrough, step, stepButton, ticked } from './auth.e2e';
import {
  answer,
  createDirs,
  expand,
  flowFailure,
  openWorkbench,
  quickInput,
  treeRow,
  UI_TIMEOUT_MS,
  type E2EWorkbench,
  portalSetting,
  viewPane,
} from './fixture';
import type { FlowContext } from './run';
import {
  acceptRow,
  banner,
  check,
  choose,
  contextMenu,
  formFrame,
  memberRow,
  palette,
  portalSidebar,
  save,
  setPaneExpanded,
} from './ui';

const PORTAL_LABEL = 'Demo portal';
const WALKTHROUGH = 'Get Started with Portal';
const STEPS = ['Sign in to a portal', 'Browse organisations and groups', "Edit a member's assignments"];

interface GroupJson {
  id: number;
  name: string;
  friendlyName: string;
  members: number;
}

/** The Explorer row's member count of a group, once it reads `wanted` (bounded), else what it kept saying. */
async function groupCountReads(page: Page, group: string, wanted: number): Promise<void> {
  const row = treeRow(page, 'Explorer', group);
  const deadline = Date.now() + UI_TIMEOUT_MS;
  let text = '';
  while (Date.now() < deadline) {
    text =
      (await row
        .locator('.label-description')
        .first()
        .textContent()
        .catch(() => '')) ?? '';
    if (new RegExp(`^${wanted} members?\\b`).test(text.trim())) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`the Explorer says "${text}" for ${group}; the portal says ${wanted} members`);
}

/** The walkthrough's tab again (by what it shows, whatever its title), or the walkthrough opened anew; the step ticked. */
async function backToWalkthrough(page: Page, title: string): Promise<void> {
  await page
    .locator('.tabs-container .tab[data-resource-name="vscode_getting_started_page"]')
    .first()
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  if (
    !(await step(page, title)
      .isVisible()
      .catch(() => false))
  )
    await openWalkthrough(page);
  await ticked(page, title);
}

export async function run(ctx: FlowContext): Promise<void> {
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true });
  // Kept across the restart below: the same user data and browser profile, so the same session and extension state.
  const dirs = createDirs('firsthour');
  let wb: E2EWorkbench | undefined;
  try {
    const token = await passwordToken(emu.url, 'demo', 'demo');
    const groups = async (): Promise<GroupJson[]> =>
      (await portalJson<GroupJson[]>(emu.url, token, 'GET', '/v2/accounts/1/groups')).body;
    const apps = async (): Promise<number> =>
      (await portalJson<Array<{ name: string }>>(emu.url, token, 'GET', '/v3/applications')).body.filter((a) =>
        a.name.startsWith('Portal for VS Code on '),
      ).length;
    // The demo's settings: its portal listed under an id of its own, the walkthrough asked for on the first start.
    const settings = {
      ...portalSetting(emu.url, PORTAL_LABEL),
      'portal.walkthrough.openOnFirstRun': true,
      'workbench.welcomePage.preferReducedMotion': true,
    };
    wb = await openWorkbench({ dirs, settings });
    const page = wb.page;
    await page.setViewportSize({ width: 1280, height: 960 });

    // 1. The walkthrough is on screen without being asked for.
    await page
      .locator('.gettingStartedContainer', { hasText: WALKTHROUGH })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await notTicked(page, 'Sign in to a portal', 'nobody has signed in');
    ctx.log('the walkthrough opened by itself');

    // 2. The welcome button of the Applications view: the listed portal first, "Another portal…" last.
    await portalSidebar(page, { width: 420, height: 960, keep: ['Applications'] });
    const welcome = viewPane(page, 'Applications')
      .locator('.welcome-view-content .monaco-button', { hasText: 'Sign in to a portal' })
      .first();
    await welcome.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await welcome.click();
    const q = await quickInput(page, UI_TIMEOUT_MS);
    await q.rows.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    const offered = (await q.rows.allInnerTexts()).map((t) => t.split('\n')[0]?.trim() ?? '');
    check(offered[0]?.includes(PORTAL_LABEL), `the listed portal is not first: ${offered.join(' | ')}`);
    check(offered.at(-1)?.includes('Another portal…'), `"Another portal…" is not last: ${offered.join(' | ')}`);
    await acceptRow(page, q.rows.filter({ hasText: PORTAL_LABEL }).first());
    await answer(page, 'demo', '(1/2)');
    await answer(page, 'demo', '(2/2)');
    await expand(page, 'Explorer', PORTAL_LABEL, 'Acme Corporation');
    const saved = JSON.parse(fs.readFileSync(path.join(wb.dirs.userDataDir, 'User', 'settings.json'), 'utf8')) as {
      'portal.portals'?: Array<{ id: string }>;
    };
    check(
      JSON.stringify(saved['portal.portals']?.map((p) => p.id)) === '["demo-portal"]',
      `the portal list is ${JSON.stringify(saved['portal.portals'])}`,
    );
    check((await apps()) === 1, `${await apps()} applications registered on the portal`);
    ctx.log('signed in from the welcome button by choosing the listed portal: one entry, one application');

    // 3. Back to the walkthrough: signed in is ticked; its Browse button shows the Portal view.
    await backToWalkthrough(page, 'Sign in to a portal');
    await stepButton(page, 'Browse organisations and groups', 'Open the Portal View');
    await ticked(page, 'Browse organisations and groups');
    await setPaneExpanded(page, 'Applications', false);
    await expand(page, 'Explorer', 'Acme Corporation', 'Engineering');
    const before = (await groups()).find((g) => g.name === 'engineering');
    check(before, 'no engineering group');
    await groupCountReads(page, before.friendlyName, before.members);
    ctx.log(`the Portal view from the walkthrough; ${before.friendlyName} shows ${before.members} members`);

    // 4. Edit Assignments on a member outside Engineering: the save shows in the group's count at once.
    await treeRow(page, 'Explorer', 'Acme Corporation').click();
    await stepButton(page, "Edit a member's assignments", 'Open the Members View');
    await contextMenu(page, await memberRow(page, 'Mia Member'), 'Edit Assignments…');
    const frame = await formFrame(page, 'Edit assignments');
    const current = await frame.locator(`#group-${before.id}`).evaluate((el) => (el as HTMLSelectElement).value);
    const adding = current === '0' || current === '';
    await choose(frame, `group-${before.id}`, adding ? 'Standard' : 'None');
    await save(frame);
    await banner(frame, 'ok');
    const after = (await groups()).find((g) => g.name === 'engineering')?.members;
    check(after === before.members + (adding ? 1 : -1), `the portal says ${after} members`);
    await setPaneExpanded(page, 'Members', false);
    // Selecting the organisation for the Members view folded it; open it again as a person would, to look.
    await expand(page, 'Explorer', 'Acme Corporation', before.friendlyName);
    await groupCountReads(page, before.friendlyName, after);
    ctx.log(`Edit Assignments saved; the Explorer shows ${after} members in ${before.friendlyName} with no refresh`);

    await backToWalkthrough(page, "Edit a member's assignments");
    ctx.log('every step of the walkthrough is ticked');

    // 5. VS Code forgets the walkthrough's progress; a new start on the same profile ticks every step from the state.
    await palette(page, 'Developer: Reset Welcome Page Walkthrough Progress');
    await openWalkthrough(page);
    await notTicked(page, STEPS[2] ?? '', "the walkthrough's progress was just reset");
    // No walkthrough editor to restore: one restored before the extension's walkthrough is known shows VS Code's own.
    await palette(page, 'View: Close All Editors');
    await wb.dispose();
    wb = await openWorkbench({ dirs, settings });
    await wb.page
      .locator('.part.statusbar', { hasText: PORTAL_LABEL })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    // The reset also makes VS Code for the Web open its own walkthrough at start-up, taking the focus: let it come
    // (if it does), close it, then open ours.
    await wb.page
      .locator('.gettingStartedContainer')
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS })
      .catch(() => undefined);
    await palette(wb.page, 'View: Close All Editors');
    await openWalkthrough(wb.page);
    for (const title of STEPS) await ticked(wb.page, title);
    ctx.log('after a reset of its progress and a restart, the walkthrough ticks every step from the state');
  } catch (err) {
    throw await flowFailure(wb, ctx.resultsDir, 'firsthour', err);
  } finally {
    await wb?.dispose();
    fs.rmSync(dirs.root, { recursive: true, force: true });
    await emu.stop();
  }
}
