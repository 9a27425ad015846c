// Starts real VS Code (code-server: VS Code server + web workbench) on loopback and opens its
// workbench in Debian's chromium through playwright-core. Used by the in-VS-Code test runner
// (extensionTestsPath set: the workbench runs the suite and reports its exit code) and by the
// Playwright e2e flows (no tests path: they drive `page` themselves).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ChildProcess } from 'node:child_process';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { freePort, portFree, spawnCodeServer, stopCodeServer, updateUserSettings, waitForHttp } from './codeServer';
import { ensureTestHost } from './install';
import { CHROMIUM_PATH } from './paths';

export interface WorkbenchOptions {
  /** The extension under development (absolute path); omitted for a plain workbench or an installed extension. */
  extensionDevelopmentPath?: string;
  /** The bundled tests module that exports run(); requires extensionDevelopmentPath. */
  extensionTestsPath?: string;
  userDataDir: string;
  extensionsDir: string;
  /** Folder opened as the workspace. */
  workspace: string;
  /** Added to code-server's environment; the extension host inherits it (process.env in tests). */
  env?: Record<string, string>;
  /** Merged into <userDataDir>/User/settings.json (over what is there and our defaults). */
  settings?: Record<string, unknown>;
  /**
   * Persistent chromium profile, so the web workbench's storage (SecretStorage) survives a relaunch.
   * Web storage belongs to an origin (http://127.0.0.1:PORT), so the port is recorded in the profile
   * and reused by the next launch with the same profile.
   */
  browserProfileDir?: string;
  /** Display language (code-server's --locale); see registerStubLanguagePack for one without a language pack. */
  locale?: string;
  /** Listen on this port (default: the profile's recorded port if it is free, else any free port). */
  port?: number;
  /** Every line from code-server, the workbench's automation log and the browser console. */
  onLog?: (line: string) => void;
}

export interface Workbench {
  page: Page;
  url: string;
  codeServerPort: number;
  /** Resolves with the code the workbench passes to codeAutomationExit (the suite's result); rejects on timeout or crash. */
  waitForExit(timeoutMs: number): Promise<number>;
  screenshot(file: string): Promise<void>;
  /** Closes the browser and kills code-server's whole process group. Safe to call twice. */
  close(): Promise<void>;
}

/** Settings every test workbench gets: nothing may block or distract a run. */
const DEFAULT_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
};

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const VIEWPORT = { width: 1400, height: 900 };
const START_ATTEMPTS = 3;
const BROWSER_CLOSE_TIMEOUT_MS = 15_000;

/** How long a page waits for one thing before it fails: far beyond need, for a busy machine. */
export const PAGE_PATIENCE_MS = 180_000;

export async function launchWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const host = await ensureTestHost();
  // A throwing log callback must not take down a stream handler (and with it the run).
  const log = (line: string): void => {
    try {
      opts.onLog?.(line);
    } catch {
      // ignore
    }
  };
  if (opts.extensionTestsPath && !opts.extensionDevelopmentPath) {
    throw new Error(
      'extensionTestsPath needs extensionDevelopmentPath (VS Code runs tests in a development host only)',
    );
  }
  for (const p of [
    opts.extensionDevelopmentPath,
    opts.extensionTestsPath,
    opts.workspace,
    opts.userDataDir,
    opts.extensionsDir,
    opts.browserProfileDir,
  ]) {
    if (p !== undefined && !path.isAbsolute(p)) throw new Error(`launchWorkbench: paths must be absolute: ${p}`);
  }
  fs.mkdirSync(opts.workspace, { recursive: true });
  fs.mkdirSync(opts.extensionsDir, { recursive: true });
  updateUserSettings(opts.userDataDir, (existing) => ({ ...existing, ...DEFAULT_SETTINGS, ...opts.settings }));

  // The browser starts while code-server does: neither needs the other until the page opens.
  const [started, opened] = await Promise.allSettled([
    startCodeServer(host.codeServerBin, opts, log),
    openBrowser(host.chromium, opts),
  ]);
  if (started.status === 'rejected' || opened.status === 'rejected') {
    if (opened.status === 'fulfilled') await closeBrowser(opened.value);
    if (started.status === 'fulfilled') await stopCodeServer(started.value.child);
    throw started.status === 'rejected' ? started.reason : (opened as PromiseRejectedResult).reason;
  }
  const server = started.value;
  const { browser, context } = opened.value;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    // Every wait is for something on screen; the bound is only there so a stuck one fails, so it is far beyond need
    // (Playwright's own default is 30 s, which a machine busy with other work can spend loading the workbench).
    page.setDefaultTimeout(PAGE_PATIENCE_MS);
    page.setDefaultNavigationTimeout(PAGE_PATIENCE_MS);

    let exitResolve: ((code: number) => void) | undefined;
    let exitReject: ((err: Error) => void) | undefined;
    let settled: { code: number } | { error: Error } | undefined;
    const exitPromise = new Promise<number>((resolve, reject) => {
      exitResolve = resolve;
      exitReject = reject;
    });
    exitPromise.catch(() => undefined); // observed through waitForExit
    const settle = (result: { code: number } | { error: Error }): void => {
      if (settled) return;
      settled = result;
      if ('code' in result) exitResolve?.(result.code);
      else exitReject?.(result.error);
    };

    await page.exposeFunction('codeAutomationLog', (type: unknown, message: unknown) => {
      for (const line of String(message).split('\n')) log(`[workbench:${String(type)}] ${line}`);
    });
    await page.exposeFunction('codeAutomationExit', (code: unknown, logs: unknown) => {
      saveWorkbenchLogs(opts.userDataDir, logs);
      settle({ code: typeof code === 'number' ? code : Number(code) || 1 });
    });
    page.on('console', (msg) => log(`[browser:${msg.type()}] ${msg.text()}`));
    page.on('pageerror', (err) => log(`[browser:pageerror] ${err.message}`));
    page.on('crash', () => settle({ error: new Error('the workbench page crashed') }));
    page.on('close', () => settle({ error: new Error('the workbench page closed before the tests exited') }));
    server.child.on('exit', (code, signal) =>
      settle({ error: new Error(`code-server exited (${signal ?? code}) before the tests did`) }),
    );

    const url = workbenchUrl(server.port, opts);
    log(`[host] opening ${url}`);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: PAGE_PATIENCE_MS });

    let closed = false;
    const close = async (): Promise<void> => {
      if (closed) return;
      closed = true;
      settle({ error: new Error('the workbench was closed') });
      await closeBrowser({ browser, context });
      await stopCodeServer(server.child);
    };

    return {
      page,
      url,
      codeServerPort: server.port,
      async waitForExit(timeoutMs: number): Promise<number> {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`the tests did not exit within ${Math.round(timeoutMs / 1000)} s`)),
            timeoutMs,
          );
        });
        try {
          return await Promise.race([exitPromise, timeout]);
        } finally {
          clearTimeout(timer);
        }
      },
      async screenshot(file: string): Promise<void> {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        await page.screenshot({ path: file, timeout: 15_000 });
      },
      close,
    };
  } catch (err) {
    await closeBrowser({ browser, context });
    await stopCodeServer(server.child);
    throw err;
  }
}

interface OpenBrowser {
  /** Set when the context is not a persistent one, which owns its browser. */
  browser?: Browser;
  context: BrowserContext;
}

async function openBrowser(executablePath: string, opts: WorkbenchOptions): Promise<OpenBrowser> {
  if (opts.browserProfileDir) {
    fs.mkdirSync(opts.browserProfileDir, { recursive: true });
    const context = await chromium.launchPersistentContext(opts.browserProfileDir, {
      executablePath,
      args: [...CHROMIUM_ARGS],
      viewport: VIEWPORT,
      headless: true,
    });
    return { context };
  }
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true });
  return { browser, context: await browser.newContext({ viewport: VIEWPORT }) };
}

async function closeBrowser({ browser, context }: OpenBrowser): Promise<void> {
  await withTimeout(context.close(), BROWSER_CLOSE_TIMEOUT_MS).catch(() => undefined);
  if (browser) await withTimeout(browser.close(), BROWSER_CLOSE_TIMEOUT_MS).catch(() => undefined);
}

/** The workbench URL with desktop-style launch arguments in its `payload` parameter. */
export function workbenchUrl(
  port: number,
  opts: Pick<WorkbenchOptions, 'workspace' | 'extensionDevelopmentPath' | 'extensionTestsPath'>,
): string {
  const remote = (p: string): string => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload: [string, string][] = [];
  if (opts.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(opts.extensionDevelopmentPath)]);
  if (opts.extensionTestsPath) payload.push(['extensionTestsPath', remote(opts.extensionTestsPath)]);
  payload.push(['skipWelcome', 'true']);
  return `http://127.0.0.1:${port}/?folder=${encodeURIComponent(opts.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** Keeps the workbench's own logs (renderer, extension host) that codeAutomationExit hands over. */
function saveWorkbenchLogs(userDataDir: string, logs: unknown): void {
  if (!Array.isArray(logs)) return;
  const dir = path.join(userDataDir, 'automation-logs');
  for (const entry of logs as unknown[]) {
    if (!entry || typeof entry !== 'object') continue;
    const { relativePath, contents } = entry as { relativePath?: unknown; contents?: unknown };
    if (typeof relativePath !== 'string' || typeof contents !== 'string') continue;
    const target = path.resolve(dir, relativePath);
    if (!target.startsWith(dir + path.sep)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, contents);
  }
}

interface CodeServer {
  child: ChildProcess;
  port: number;
}

async function startCodeServer(bin: string, opts: WorkbenchOptions, log: (line: string) => void): Promise<CodeServer> {
  let lastError: Error | undefined;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const port = await choosePort(opts, attempt);
    const child = spawnCodeServer({
      bin,
      port,
      userDataDir: opts.userDataDir,
      extensionsDir: opts.extensionsDir,
      workspace: opts.workspace,
      env: opts.env,
      locale: opts.locale,
      ignoreLastOpened: true,
      onLine: (line) => log(`[code-server] ${line}`),
    });
    try {
      await waitForHttp(port, child);
      log(`[host] code-server listening on 127.0.0.1:${port} (pid ${child.pid})`);
      if (opts.browserProfileDir) {
        fs.mkdirSync(opts.browserProfileDir, { recursive: true });
        fs.writeFileSync(path.join(opts.browserProfileDir, PROFILE_PORT_FILE), `${port}\n`);
      }
      return { child, port };
    } catch (err) {
      lastError = err instanceof Error ? err : new Error(String(err));
      log(`[host] code-server start attempt ${attempt} failed: ${lastError.message}`);
      await stopCodeServer(child);
    }
  }
  throw new Error(
    `code-server did not start after ${START_ATTEMPTS} attempts: ${lastError?.message ?? 'unknown error'}`,
  );
}

/** Where a persistent browser profile remembers the port (and so the origin) its storage belongs to. */
const PROFILE_PORT_FILE = 'portal-workbench-port';

async function choosePort(opts: WorkbenchOptions, attempt: number): Promise<number> {
  if (opts.port !== undefined) return opts.port;
  if (opts.browserProfileDir && attempt === 1) {
    const recorded = Number(readTextOr(path.join(opts.browserProfileDir, PROFILE_PORT_FILE)).trim());
    if (Number.isInteger(recorded) && recorded > 0) {
      if (await portFree(recorded)) return recorded;
      opts.onLog?.(
        `[host] port ${recorded} of the browser profile is taken: the workbench's web storage (SecretStorage) will not carry over`,
      );
    }
  }
  return freePort();
}

function readTextOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]);
}

export { CHROMIUM_PATH, freePort };
