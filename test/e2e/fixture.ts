// Shared fixture for Playwright flows through the real workbench UI (code-server + chromium):
// opens the workbench with the extension under development and offers the few UI moves every
// flow needs. Flows themselves live next to this file; they start from openWorkbench().
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator';
import { REPO_ROOT, RESULTS_DIR } from '../host/paths';
import { runCommand } from '../host/proc';
import { launchWorkbench, type Workbench } from '../host/workbench';
import { passwordToken, portalJson } from '../vscode/support/portalHttp';

export interface E2EOptions {
  /** Environment for code-server and the extension host (e.g. PORTAL_TEST_EMULATOR_URL). */
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  /**
   * Reuse these dirs across openWorkbench() calls to prove state survives a reload (same user data,
   * same browser profile and therefore the same origin/port). Default: fresh temporary dirs.
   */
  dirs?: E2EDirs;
  /** Folder to open; default: `<dirs.root>/workspace`. */
  workspace?: string;
  /** Workbench lines (code-server, automation log, browser console); default: kept in memory for failure reports. */
  onLog?: (line: string) => void;
}

export interface E2EDirs {
  root: string;
  userDataDir: string;
  extensionsDir: string;
  browserProfileDir: string;
}

export interface E2EWorkbench extends Workbench {
  dirs: E2EDirs;
  /** Recent log lines, for a failure message. */
  recentLog(): string[];
  /** Closes the workbench and, for dirs it created itself, removes them. */
  dispose(): Promise<void>;
}

const READY_TIMEOUT_MS = 180_000;
/** How long a flow waits for one thing on screen (a row, a quick input, a webview) before it fails. */
export const UI_TIMEOUT_MS = 120_000;

/** The user setting that names one portal, the emulator a flow started: what every flow signs in to. */
export function portalSetting(emulatorUrl: string, label: string): Record<string, unknown> {
  return { 'portal.portals': [{ id: 'demo-portal', label, baseUrl: emulatorUrl, service: 'portal' }] };
}
const LOG_LINES_KEPT = 400;

/** Fresh dirs for one flow (or for a sequence of openWorkbench() calls that share state). */
export function createDirs(label = 'e2e'): E2EDirs {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `portal-${label}-`));
  return {
    root,
    userDataDir: path.join(root, 'user-data'),
    extensionsDir: path.join(root, 'extensions'),
    browserProfileDir: path.join(root, 'browser-profile'),
  };
}

let built: Promise<void> | undefined;

/**
 * Builds dist/ once per process (flows test what `node esbuild.js` produces), unless the caller has built it and
 * another run may be loading it (PORTAL_TEST_PREBUILT=1, as `npm test` sets).
 */
export function ensureExtensionBuilt(): Promise<void> {
  if (process.env.PORTAL_TEST_PREBUILT === '1') return Promise.resolve();
  built ??= runCommand('node', ['esbuild.js'], { cwd: REPO_ROOT, timeoutMs: 5 * 60_000 }).then((r) => {
    if (r.code !== 0) throw new Error(`node esbuild.js failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
  });
  return built;
}

/** Opens the workbench with the extension under development and waits until it is usable. */
export async function openWorkbench(opts: E2EOptions = {}): Promise<E2EWorkbench> {
  await ensureExtensionBuilt();
  const ownsDirs = opts.dirs === undefined;
  const dirs = opts.dirs ?? createDirs();
  const lines: string[] = [];
  const onLog = (line: string): void => {
    lines.push(line);
    if (lines.length > LOG_LINES_KEPT) lines.shift();
    opts.onLog?.(line);
  };
  const wb = await launchWorkbench({
    extensionDevelopmentPath: REPO_ROOT,
    userDataDir: dirs.userDataDir,
    extensionsDir: dirs.extensionsDir,
    browserProfileDir: dirs.browserProfileDir,
    workspace: opts.workspace ?? path.join(dirs.root, 'workspace'),
    env: opts.env,
    settings: opts.settings,
    onLog,
  });
  try {
    await waitForWorkbench(wb.page);
  } catch (err) {
    await wb.screenshot(path.join(RESULTS_DIR, 'e2e-not-ready.png')).catch(() => undefined);
    await wb.close();
    throw new Error(`the workbench did not become ready: ${String(err)}\n${lines.slice(-40).join('\n')}`);
  }
  return {
    ...wb,
    dirs,
    recentLog: () => [...lines],
    async dispose() {
      await wb.close();
      if (ownsDirs) fs.rmSync(dirs.root, { recursive: true, force: true });
    },
  };
}

/** The workbench is laid out and its extension host is running. */
export async function waitForWorkbench(page: Page, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
  // The activity bar fills in once the view containers (ours included) are registered.
  await page.locator('.part.activitybar .action-item').first().waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Runs a command by its palette label (e.g. "Portal: Sign In…"), as a person would. */
export async function runFromCommandPalette(page: Page, label: string, timeoutMs = UI_TIMEOUT_MS): Promise<void> {
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 10 }, timeout: timeoutMs });
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(`>${label}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await row.click({ timeout: timeoutMs });
}

/** The quick input (input box or pick list) currently shown, after it appears. */
export async function quickInput(page: Page, timeoutMs = UI_TIMEOUT_MS) {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: timeoutMs });
  return { widget, input: widget.locator('input'), rows: widget.locator('.quick-input-list .monaco-list-row') };
}

/**
 * The webview frame that contains `selector`. Webviews are nested iframes under
 * .../contrib/webview/browser/pre/; polls (bounded) until one has it.
 */
export async function webviewFrame(page: Page, selector: string, timeoutMs = UI_TIMEOUT_MS): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  const maxPolls = Math.ceil(timeoutMs / 200) + 1;
  for (let i = 0; i < maxPolls && Date.now() <= deadline; i++) {
    for (const frame of page.frames()) {
      if (!frame.url().includes('/webview/')) continue;
      if (await frame.$(selector).catch(() => null)) return frame;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`no webview frame contains ${selector} after ${timeoutMs} ms`);
}

/** Opens one of our view containers in the activity bar by its title (e.g. "Portal"). */
export async function openViewContainer(page: Page, title: string, timeoutMs = UI_TIMEOUT_MS): Promise<void> {
  const item = page.locator(`.part.activitybar .action-item a[aria-label^="${title}"]`).first();
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  const expanded = await item.getAttribute('aria-expanded').catch(() => null);
  if (expanded !== 'true') await item.click({ timeout: timeoutMs });
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pane of the side bar, by its title (e.g. "Members", or /^Plan/). */
export const viewPane = (page: Page, title: string | RegExp): Locator =>
  page.locator('.pane', { has: page.locator('.pane-header', { hasText: title }) });

/** A row of one of our tree views (by the view's title, e.g. "Explorer"), by its exact label. */
export function treeRow(page: Page, viewTitle: string, label: string): Locator {
  return viewPane(page, viewTitle)
    .locator('.monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }),
    })
    .first();
}

/** Clicks a row of a tree view (expanding it, unless it already is) and waits for `child` to appear. */
export async function expand(
  page: Page,
  viewTitle: string,
  label: string,
  child: string,
  timeoutMs = UI_TIMEOUT_MS,
): Promise<void> {
  const row = treeRow(page, viewTitle, label);
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  await treeRow(page, viewTitle, child).waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Answers the input box whose title contains `titlePart` (e.g. "(1/2)" of the sign-in steps) with `value`. */
export async function answer(page: Page, value: string, titlePart: string, timeoutMs = UI_TIMEOUT_MS): Promise<void> {
  const q = await quickInput(page, timeoutMs);
  await q.widget
    .locator('.quick-input-title', { hasText: titlePart })
    .waitFor({ state: 'visible', timeout: timeoutMs });
  await q.input.fill(value);
  await q.input.press('Enter');
}

/**
 * What a flow throws when a step fails: the step's message, a screenshot of the moment in the results folder
 * (`e2e-<flow>-failure.png`), and the workbench's last log lines, which usually say why.
 */
export async function flowFailure(
  wb: E2EWorkbench | undefined,
  resultsDir: string,
  flow: string,
  err: unknown,
): Promise<Error> {
  await wb?.screenshot(path.join(resultsDir, `e2e-${flow}-failure.png`)).catch(() => undefined);
  const tail = wb?.recentLog().slice(-30).join('\n') ?? '';
  return new Error(`${err instanceof Error ? err.message : String(err)}\n--- workbench log (last lines) ---\n${tail}`);
}

/** What a flow on a demo portal is given: the emulator, and the workbench signed out with that portal listed. */
export interface DemoFlow {
  emu: Emulator;
  wb: E2EWorkbench;
  page: Page;
  /** The portal as its demo user reads it, beside the extension: what a flow checks the extension did. */
  portal: DemoReader;
}

export interface DemoFlowOptions {
  /** The emulator's seed; default 'demo'. */
  seed?: EmulatorOptions['seed'];
  /** Settings over the one naming the portal (`portalSetting(url, DEMO_PORTAL_LABEL)`). */
  settings?: (emulatorUrl: string) => Record<string, unknown>;
  dirs?: E2EDirs;
}

export const DEMO_PORTAL_LABEL = 'Demo portal';

/**
 * The setup every flow on an emulated portal shares: the emulator, the workbench with the portal listed, the
 * failure's screenshot and log in the results folder (e2e-<name>-failure.png), and both closed whatever happens.
 */
export async function demoFlow(
  ctx: { resultsDir: string },
  name: string,
  opts: DemoFlowOptions,
  body: (flow: DemoFlow) => Promise<void>,
): Promise<void> {
  const emu = await startEmulator({ port: 0, seed: opts.seed ?? 'demo', quiet: true });
  let wb: E2EWorkbench | undefined;
  try {
    wb = await openWorkbench({
      dirs: opts.dirs,
      settings: { ...portalSetting(emu.url, DEMO_PORTAL_LABEL), ...opts.settings?.(emu.url) },
    });
    await body({ emu, wb, page: wb.page, portal: new DemoReader(emu.url) });
  } catch (err) {
    throw await flowFailure(wb, ctx.resultsDir, name, err);
  } finally {
    await wb?.dispose();
    await emu.stop();
  }
}

/** Reads a portal as its demo user (a password token, fetched once). */
export class DemoReader {
  private token: string | undefined;
  constructor(readonly url: string) {}

  async bearer(): Promise<string> {
    this.token ??= await passwordToken(this.url, 'demo', 'demo');
    return this.token;
  }

  async get<T>(p: string): Promise<{ status: number; body: T }> {
    return portalJson<T>(this.url, await this.bearer(), 'GET', p);
  }

  /** A member's groups and their levels in an organisation; undefined when not a member. */
  async groups(account: number, username: string): Promise<Record<string, number> | undefined> {
    const r = await this.get<{ groups?: Record<string, number> }>(`/v2/accounts/${account}/members/${username}`);
    return r.status === 404 ? undefined : (r.body.groups ?? {});
  }

  /** A raw answer (a download, an index), for what is not JSON. */
  async fetch(p: string): Promise<Response> {
    return fetch(`${this.url}${p}`, { headers: { authorization: `Bearer ${await this.bearer()}` } });
  }
}

/** The extension's own storage folder (globalStorage) in a workbench's user data: where it keeps reviews and journals. */
export function extensionStorage(wb: E2EWorkbench): string {
  return path.join(wb.dirs.userDataDir, 'User', 'globalStorage', 'portal-tools.portal-vscode');
}
