// One test session: launch the workbench with a tests bundle, stream mocha's report, wait for
// the suite's exit code, and turn whatever happened (pass, fail, crash, timeout) into counts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  REPORT_LINE_PREFIX,
  RUN_CONTEXT_FILE,
  TEST_ENV,
  type RunContext,
  type TestFailure,
  type TestResults,
} from '../vscode/protocol';
import { formatDuration } from './proc';
import { RESULTS_DIR } from './paths';
import { registerStubLanguagePack } from './pseudoLocale';
import { launchWorkbench, type Workbench } from './workbench';
import { FREEZE_LAYOUT_LINE } from '../vscode/support/savedLayout';

/**
 * Stops the web workbench's idle saves of its state: they run only while the page has focus, which Playwright
 * emulates for a headless page. Without it the layout stays as last saved until the browser closes.
 */
function freezeLayout(wb: Workbench): void {
  void wb.page
    .context()
    .newCDPSession(wb.page)
    .then((cdp) => cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false }))
    .catch(() => undefined);
}

export interface TierResult {
  passed: number;
  failed: number;
  pending: number;
  failures: TestFailure[];
}

export interface SessionOptions {
  /** Names the log, results and screenshot files: test-results/<name>.{log,results.json,failure.png}. */
  name: string;
  phase: string;
  extensionDevelopmentPath: string;
  /** The bundled run() entry; run-context.json is written next to it. */
  testsEntry: string;
  userDataDir: string;
  extensionsDir: string;
  workspace: string;
  browserProfileDir?: string;
  vscodeVersion: string;
  extensionRoot: string;
  grep?: string;
  timeoutMs: number;
  env?: Record<string, string>;
  /** Run the workbench in this locale (phase.json "locale"), through a stub language pack in userDataDir. */
  locale?: string;
}

/** The workbench of the session in progress, so a Ctrl-C can close it. */
let active: Workbench | undefined;
let aborted = false;

/** Closes the session in progress and refuses to start new ones (Ctrl-C). */
export async function abortSessions(): Promise<void> {
  aborted = true;
  const wb = active;
  active = undefined;
  await wb?.close();
}

export function emptyResult(): TierResult {
  return { passed: 0, failed: 0, pending: 0, failures: [] };
}

export function addResults(into: TierResult, from: TierResult): void {
  into.passed += from.passed;
  into.failed += from.failed;
  into.pending += from.pending;
  into.failures.push(...from.failures);
}

export async function runTestSession(opts: SessionOptions): Promise<TierResult> {
  if (aborted) throw new Error('the test run was interrupted');
  const started = Date.now();
  const resultsPath = path.join(RESULTS_DIR, `${opts.name}.results.json`);
  const logPath = path.join(RESULTS_DIR, `${opts.name}.log`);
  const screenshotPath = path.join(RESULTS_DIR, `${opts.name}-failure.png`);
  for (const f of [resultsPath, logPath, screenshotPath]) fs.rmSync(f, { force: true });
  fs.mkdirSync(RESULTS_DIR, { recursive: true });

  const context: RunContext = {
    phase: opts.phase,
    marker: randomUUID(),
    vscodeVersion: opts.vscodeVersion,
    extensionRoot: opts.extensionRoot,
    resultsPath,
    ...(opts.grep ? { grep: opts.grep } : {}),
  };
  const contextFile = path.join(path.dirname(opts.testsEntry), RUN_CONTEXT_FILE);
  fs.writeFileSync(contextFile, `${JSON.stringify(context, null, 2)}\n`);

  const logFd = fs.openSync(logPath, 'w');
  let logOpen = true;
  // Lines can still arrive from a dying code-server after the session is over: drop them then.
  const writeLog = (text: string): void => {
    if (logOpen) fs.writeSync(logFd, text);
  };
  let streamed = 0;
  let wb: Workbench | undefined;
  let screenshot: Promise<void> | undefined;
  const takeScreenshot = (): void => {
    screenshot ??= wb?.screenshot(screenshotPath).then(
      () => console.log(`screenshot: ${path.relative(process.cwd(), screenshotPath)}`),
      (err: unknown) => {
        writeLog(`[host] screenshot failed: ${String(err)}\n`);
      },
    );
  };
  const onLog = (line: string): void => {
    writeLog(`${line}\n`);
    // The extension host's console reaches us through the workbench's automation log.
    const m = /^\[workbench:[a-z]+\] (.*)$/.exec(line);
    if (m?.[1] === FREEZE_LAYOUT_LINE && wb) freezeLayout(wb);
    if (m?.[1]?.startsWith(REPORT_LINE_PREFIX)) {
      const report = m[1].slice(REPORT_LINE_PREFIX.length);
      console.log(report);
      streamed++;
      // The spec reporter's "  3) title" line: the UI as it was when the first test failed.
      if (/^\s+\d+\) /.test(report)) takeScreenshot();
    }
  };

  const result = emptyResult();
  let crash: string | undefined;
  let exitCode: number | undefined;
  // Removed again once the session is over, so later sessions in the same user-data-dir run in English.
  const unregisterLocale = opts.locale ? registerStubLanguagePack(opts.userDataDir, opts.locale) : undefined;
  try {
    wb = await launchWorkbench({
      locale: opts.locale,
      extensionDevelopmentPath: opts.extensionDevelopmentPath,
      extensionTestsPath: opts.testsEntry,
      userDataDir: opts.userDataDir,
      extensionsDir: opts.extensionsDir,
      workspace: opts.workspace,
      browserProfileDir: opts.browserProfileDir,
      onLog,
      env: {
        ...opts.env,
        [TEST_ENV.phase]: context.phase,
        [TEST_ENV.results]: resultsPath,
        [TEST_ENV.vscodeVersion]: context.vscodeVersion,
        [TEST_ENV.extensionRoot]: context.extensionRoot,
        [TEST_ENV.marker]: context.marker,
        ...(opts.grep ? { [TEST_ENV.grep]: opts.grep } : {}),
      },
    });
    active = wb;
    if (aborted) throw new Error('the test run was interrupted');
    exitCode = await wb.waitForExit(opts.timeoutMs);
  } catch (err) {
    crash = err instanceof Error ? err.message : String(err);
  }

  const reported = readResults(resultsPath);
  if (reported) {
    // Lines the log did not deliver (it is asynchronous and may lose the tail at shutdown).
    for (const line of reported.output.slice(streamed)) console.log(line);
    result.passed += reported.passed;
    result.failed += reported.failed;
    result.pending += reported.pending;
    result.failures.push(...reported.failures);
  }
  // A session that did not report is a failure, never zero tests.
  if (crash) {
    result.failed++;
    result.failures.push({ title: `${opts.name}: the session crashed or timed out`, error: crash });
  } else if (!reported) {
    result.failed++;
    result.failures.push({
      title: `${opts.name}: no results`,
      error: `the tests exited with code ${exitCode} without writing ${resultsPath}`,
    });
  } else if (exitCode !== 0 && reported.failed === 0) {
    result.failed++;
    result.failures.push({
      title: `${opts.name}: exit code`,
      error: `the tests exited with code ${exitCode} but reported no failure`,
    });
  }

  if (result.failed > 0) takeScreenshot(); // a crash or timeout: the UI as it is now
  await screenshot;
  if (wb) {
    active = undefined;
    await wb.close();
  }
  unregisterLocale?.();
  logOpen = false;
  fs.closeSync(logFd);
  fs.rmSync(contextFile, { force: true }); // so an F5 run later does not read a stale context
  if (result.failed > 0) console.log(`log: ${path.relative(process.cwd(), logPath)}`);
  console.log(
    `${opts.name}: ${result.passed} passed, ${result.failed} failed (${formatDuration(Date.now() - started)})`,
  );
  return result;
}

function readResults(file: string): TestResults | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<TestResults>;
    if (typeof parsed.passed !== 'number' || typeof parsed.failed !== 'number') return undefined;
    return {
      phase: String(parsed.phase),
      passed: parsed.passed,
      failed: parsed.failed,
      pending: typeof parsed.pending === 'number' ? parsed.pending : 0,
      failures: Array.isArray(parsed.failures) ? parsed.failures : [],
      output: Array.isArray(parsed.output) ? parsed.output : [],
    };
  } catch {
    return undefined;
  }
}
