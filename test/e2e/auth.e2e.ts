// Getting started and signing out, through the real workbench in one launch: the walkthrough's buttons sign in
// (password, through the input boxes), open the Portal view and edit a member's assignments, and each step ticks;
// "Sign Out…" with the modal's "delete the application" button, after which the deleted application's credentials
// are refused by the portal; then a sign-in with an application's client id and secret through the input boxes.
// Screenshot: walkthrough.png in the run's images folder (docs/images/ with --update-docs; the README shows it).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator';
import { passwordToken, portalJson } from '../vscode/support/portalHttp';
import {
  answer,
  expand,
  flowFailure,
  openWorkbench,
  quickInput,
  treeRow,
  UI_TIMEOUT_MS,
  type E2EWorkbench,
} from './fixture';
import type { FlowContext } from './run';
import { check, contextMenu, memberRow, palette, pick, setPaneExpanded, until } from './ui';

const PORTAL_LABEL = 'Demo portal';
const WALKTHROUGH = 'Get Started with Portal';
/** The walkthrough editor's resource (its tab's data-resource-name), whatever its tab says. */
const WALKTHROUGH_RESOURCE = 'vscode_getting_started_page';

interface AppJson {
  clientId: string;
  clientSecret?: string;
  name: string;
}

/** The id the extension gives a portal (src/auth/portalEntry.ts portalIdOf), so the settings entry is the one it signs in to. */
const portalIdOf = (baseUrl: string, service: string): string => {
  const url = new URL(baseUrl);
  return `${url.protocol.replace(':', '')}-${url.host}-${service}`.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
};

/** A walkthrough step's row on the walkthrough page, by its title. */
export const step = (page: Page, title: string): Locator =>
  page.locator('.getting-started-step', { hasText: title }).first();

export async function ticked(page: Page, title: string): Promise<void> {
  await step(page, title).locator('.codicon.complete').waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
}

/** The step is not ticked yet: what ticks it next is what the flow does next. */
export async function notTicked(page: Page, title: string, why: string): Promise<void> {
  await step(page, title).waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
  check(
    (await step(page, title).locator('.codicon.complete').count()) === 0,
    `"${title}" is ticked already, but ${why}`,
  );
}

export async function openWalkthrough(page: Page): Promise<void> {
  await palette(page, 'Welcome: Open Walkthrough');
  const q = await quickInput(page, UI_TIMEOUT_MS);
  await q.input.fill(WALKTHROUGH);
  // By keyboard, as the list filters: Enter on the row the filter put first. (A click waited for the row to hold
  // still, and once under load it never did within the click's time.)
  await q.widget
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: WALKTHROUGH })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await q.input.press('Enter');
  await page
    .locator('.gettingStartedContainer h2, .gettingStartedContainer .category-title', { hasText: WALKTHROUGH })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  // The page opens a step and focuses it on a timer (see selectStep): once it has, no focus is still to come.
  await page.waitForFunction(
    () => document.activeElement?.matches('.getting-started-step.expanded') === true,
    undefined,
    { timeout: UI_TIMEOUT_MS },
  );
}

/**
 * Opens a step (unless it is open already) and waits until it has the focus. The page also focuses a step it opens
 * on a timer: 250 ms later while it animates, taking the focus back from whatever the step's button opened (typing
 * meant for the Members view went to the page, and its Escape left the walkthrough for the list of walkthroughs).
 * This flow's settings reduce motion, so the timer runs at once.
 */
async function selectStep(page: Page, title: string): Promise<void> {
  const row = step(page, title);
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  await stepFocused(page, title);
}

/** Clicks a step that is open already, as a person looking at it does; the page focuses it again. */
async function clickStep(page: Page, title: string): Promise<void> {
  await step(page, title).click();
  await stepFocused(page, title);
}

async function stepFocused(page: Page, title: string): Promise<void> {
  await page
    .locator('.getting-started-step.expanded', { hasText: title })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const handle = await step(page, title).elementHandle({ timeout: UI_TIMEOUT_MS });
  await page.waitForFunction((el) => document.activeElement === el, handle, { timeout: UI_TIMEOUT_MS });
}

/**
 * The step's picture is drawn: the workbench renders an SVG step's media in a webview of its own, so it is there
 * once a webview frame shows an SVG with `mediaText` in it.
 */
async function stepPicture(page: Page, title: string, mediaText: string): Promise<void> {
  await page.locator('.getting-started-media').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const deadline = Date.now() + UI_TIMEOUT_MS;
  for (let i = 0; i < 200 && Date.now() < deadline; i++) {
    for (const frame of page.frames()) {
      if (!frame.url().includes('/webview/')) continue;
      if (
        await frame
          .locator('svg text', { hasText: mediaText })
          .first()
          .isVisible()
          .catch(() => false)
      )
        return;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`the step "${title}" did not show its picture (an SVG with "${mediaText}")`);
}

/** A step's button ("Sign In", a link in its text): the step is opened first, so its text is on screen. */
export async function stepButton(page: Page, title: string, label: string): Promise<void> {
  await selectStep(page, title);
  const button = step(page, title).locator('a, .button-link, vscode-button, button', { hasText: label }).first();
  await button.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await button.click();
}

/** The client-credentials grant, as any program holding these credentials would ask for a token: its status. */
async function grant(url: string, clientId: string, clientSecret: string): Promise<number> {
  const q = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    scope: 'read write',
  });
  return (await fetch(`${url}/oauth/token?${q}`)).status;
}

/** The application the extension registered at sign-in, with its secret, once the portal's saved state holds it. */
function registeredApplication(
  page: Page,
  dataFile: string,
): Promise<Required<Pick<AppJson, 'clientId' | 'clientSecret'>>> {
  return until(
    page,
    () => {
      if (!fs.existsSync(dataFile)) return undefined;
      const state = JSON.parse(fs.readFileSync(dataFile, 'utf8')) as { data?: { applications?: AppJson[] } };
      const app = state.data?.applications?.find((a) => a.name.startsWith('Portal for VS Code on '));
      return app?.clientSecret ? { clientId: app.clientId, clientSecret: app.clientSecret } : undefined;
    },
    `an application registered by the extension in ${dataFile}`,
  );
}

async function signInThroughWalkthrough(page: Page, emu: Emulator, ctx: FlowContext): Promise<void> {
  await openWalkthrough(page);
  await notTicked(page, 'Sign in to a portal', 'a fresh window has not signed in');
  await notTicked(page, 'Browse organisations and groups', 'a fresh window has not shown the Portal view');
  await notTicked(page, "Edit a member's assignments", 'a fresh window has not edited assignments');
  await stepButton(page, 'Sign in to a portal', 'Sign In');
  // The listed portal is offered first: choosing it signs that entry in, with no address to type.
  await pick(page, PORTAL_LABEL);
  await answer(page, 'demo', '(1/2)');
  await answer(page, 'demo', '(2/2)');
  await ticked(page, 'Sign in to a portal');
  await notTicked(page, 'Browse organisations and groups', 'signing in does not show the Portal view');
  ctx.log("the walkthrough's Sign In button signed in; its step ticked");
}

async function browseAndEdit(page: Page, wb: E2EWorkbench, ctx: FlowContext): Promise<void> {
  await stepButton(page, 'Browse organisations and groups', 'Open the Portal View');
  await setPaneExpanded(page, 'Applications', false);
  await expand(page, 'Explorer', PORTAL_LABEL, 'Acme Corporation');
  await expand(page, 'Explorer', 'Acme Corporation', 'Engineering');
  await expand(page, 'Explorer', 'Engineering', 'README.md');
  await ticked(page, 'Browse organisations and groups');
  ctx.log('the Portal view opened from the walkthrough; its step ticked');

  // The step's button shows the Members view (collapsed here, and Acme's: Acme was expanded in the Explorer); the
  // member's own menu entry opens the form.
  await setPaneExpanded(page, 'Members', false);
  await stepButton(page, "Edit a member's assignments", 'Open the Members View');
  await page
    .locator('.pane-header[aria-expanded="true"]', { hasText: 'Members' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await treeRow(page, 'Members', 'Dana Demo').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await notTicked(page, "Edit a member's assignments", 'no assignments were opened yet');
  await contextMenu(page, await memberRow(page, 'Mia Member'), 'Edit Assignments…');
  await page
    .locator('.tabs-container .tab', { hasText: 'Assignments: Mia Member' })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  // Back to the walkthrough by its tab, found by what it shows (its label says "Welcome" when the page lists every
  // walkthrough instead of this one, and the step check below then says which step is missing).
  await page.locator(`.tabs-container .tab[data-resource-name="${WALKTHROUGH_RESOURCE}"]`).first().click();
  await ticked(page, "Edit a member's assignments");
  ctx.log("Edit Assignments on Mia Member's row opened her form; the walkthrough's step ticked");

  // The picture: every step ticked, the last one open with its picture, beside the expanded Portal view and the
  // form's tab.
  await setPaneExpanded(page, 'Members', false);
  await clickStep(page, "Edit a member's assignments");
  await stepPicture(page, "Edit a member's assignments", 'Mia Member');
  await wb.screenshot(path.join(ctx.imagesDir, 'walkthrough.png'));
}

/** "Sign Out…" from the palette, then the modal's button that deletes the application too. */
async function signOutAndDelete(
  page: Page,
  emu: Emulator,
  dataFile: string,
  token: string,
  ctx: FlowContext,
): Promise<void> {
  const app = await registeredApplication(page, dataFile);
  check((await grant(emu.url, app.clientId, app.clientSecret)) === 200, 'the credentials work while signed in');
  await palette(page, 'Portal: Sign Out…');
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await dialog.locator('.monaco-button', { hasText: 'Sign out and delete the application' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  await treeRow(page, 'Explorer', 'Sign in…').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const apps = await portalJson<AppJson[]>(emu.url, token, 'GET', '/v3/applications');
  check(!apps.body.some((a) => a.clientId === app.clientId), 'the application is gone from the portal');
  check(
    (await grant(emu.url, app.clientId, app.clientSecret)) === 401,
    "the deleted application's credentials are refused",
  );
  ctx.log("signed out with the modal's delete button; the portal refuses the old credentials");
}

/** An application made elsewhere (here, by direct HTTP): its client id and secret typed into the input boxes. */
async function signInWithClientCredentials(page: Page, emu: Emulator, token: string, ctx: FlowContext): Promise<void> {
  const made = await portalJson<AppJson>(emu.url, token, 'POST', '/v3/applications', {
    name: 'Build server',
    platform: 'LINUX',
    deviceType: 'Other',
  });
  check(made.status === 201 && made.body.clientSecret, `an application to sign in with (${made.status})`);
  await openWalkthrough(page);
  await stepButton(page, 'Sign in to a portal', 'Sign in with a client id and secret');
  // The address typed, not the listed row chosen: it normalises to the listed portal, so it is that portal.
  await pick(page, 'Another portal…');
  await answer(page, `${emu.url}/`, 'Sign in to a portal');
  await answer(page, made.body.clientId, '(1/2)');
  await answer(page, made.body.clientSecret ?? '', '(2/2)');
  await treeRow(page, 'Explorer', 'Acme Corporation').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  // The Applications view marks the application this window signs in with.
  await setPaneExpanded(page, 'Applications', true);
  await expand(page, 'Applications', PORTAL_LABEL, 'Build server');
  const row = treeRow(page, 'Applications', 'Build server');
  await row
    .locator('.label-description', { hasText: 'this VS Code' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  ctx.log(
    'signed in with a client id and secret typed into the input boxes; the Applications view marks that application',
  );
}

export async function run(ctx: FlowContext): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-auth-'));
  const dataFile = path.join(dataDir, 'portal.json');
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true, dataFile });
  let wb: E2EWorkbench | undefined;
  try {
    const token = await passwordToken(emu.url, 'demo', 'demo');
    wb = await openWorkbench({
      settings: {
        'portal.portals': [
          { id: portalIdOf(emu.url, 'portal'), label: PORTAL_LABEL, baseUrl: emu.url, service: 'portal' },
        ],
        // The walkthrough page focuses the step it opens 250 ms later when it animates: it would take the focus back
        // from whatever a step's button opened in the meantime (a quick input, the Members view being typed in).
        'workbench.welcomePage.preferReducedMotion': true,
      },
    });
    const page = wb.page;
    await page.setViewportSize({ width: 1280, height: 960 });
    await signInThroughWalkthrough(page, emu, ctx);
    await browseAndEdit(page, wb, ctx);
    await signOutAndDelete(page, emu, dataFile, token, ctx);
    await signInWithClientCredentials(page, emu, token, ctx);
  } catch (err) {
    throw await flowFailure(wb, ctx.resultsDir, 'auth', err);
  } finally {
    await wb?.dispose();
    await emu.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
