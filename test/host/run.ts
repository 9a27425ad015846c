// The in-VS-Code test runner (npm run test:vscode):
//   ensure the test host → build the extension → bundle the tests → run each phase in a real
//   VS Code (code-server + chromium), phases sharing one user-data-dir and browser profile →
//   check the packaged .vsix → print `vscode: N passed, N failed` and write test-results/vscode.json.
//
// Options: --grep <pattern> (or env PORTAL_TEST_GREP), --phase <name> (repeatable), --skip-vsix,
// --only-vsix (the packaged check alone, summed in test-results/vsix.json: `npm test` runs it after the
// Playwright flows, which run beside the phases and must not see dist/ rebuilt for production under them).
// With PORTAL_TEST_PREBUILT=1 the caller has built dist/ already, and another run may be loading it.
// Output kept after the run: test-results/vscode-user-data/ (see VSCODE_USER_DATA_DIR),
// test-results/vscode-browser-profile/, test-results/*.log, a screenshot per failed session.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleTests, readPhaseConfig } from './bundle';
import { readRecordedSecrets, scanForSecrets } from './leakScan';
import { withTestRunLock } from './lock';
import { CODE_SERVER_VERSION, ensureTestHost } from './install';
import { REPO_ROOT, RESULTS_DIR, VSCODE_BROWSER_PROFILE_DIR, VSCODE_USER_DATA_DIR } from './paths';
import { formatDuration, runCommand } from './proc';
import { PSEUDO_LOCALE } from './pseudoLocale';
import { addResults, abortSessions, emptyResult, runTestSession, type TierResult } from './session';
import {
  EMULATOR_URL_ENV,
  SECRETS_FILE,
  SECRETS_FILE_ENV,
  startSharedEmulator,
  type SharedEmulator,
} from './sharedEmulator';
import { runVsixCheck } from './vsix';
import { BROWSER_PROFILE_ENV } from '../vscode/support/savedLayout';
import { RESULTS_DIR_ENV } from '../vscode/support/runnerEnv';

export { VSCODE_BROWSER_PROFILE_DIR, VSCODE_USER_DATA_DIR };

/** Generous: a phase that has not exited by then is hung, and counts as a failure. */
const PHASE_TIMEOUT_MS = 30 * 60_000;
const BUILD_TIMEOUT_MS = 15 * 60_000;
export const SUMMARY_FILE = path.join(RESULTS_DIR, 'vscode.json');
const VSIX_SUMMARY_FILE = path.join(RESULTS_DIR, 'vsix.json');
export const PREBUILT_ENV = 'PORTAL_TEST_PREBUILT';
interface Summary extends TierResult {
  phases: Record<string, TierResult>;
  leaks?: TierResult;
  vsix?: TierResult;
  durationMs: number;
}

async function main(): Promise<number> {
  const started = Date.now();
  const { values } = parseArgs({
    options: {
      grep: { type: 'string' },
      phase: { type: 'string', multiple: true },
      'skip-vsix': { type: 'boolean', default: false },
      'only-vsix': { type: 'boolean', default: false },
    },
  });
  const onlyVsix = values['only-vsix'];
  const summaryFile = onlyVsix ? VSIX_SUMMARY_FILE : SUMMARY_FILE;
  const grep = values.grep ?? (process.env.PORTAL_TEST_GREP || undefined);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.rmSync(summaryFile, { force: true });

  const summary: Summary = { ...emptyResult(), phases: {}, durationMs: 0 };
  const report = (): number => {
    summary.durationMs = Date.now() - started;
    fs.writeFileSync(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);
    if (summary.failures.length > 0) {
      console.log('\nfailures:');
      summary.failures.forEach((f, i) =>
        console.log(
          `  ${i + 1}) ${f.title}\n${f.error
            .split('\n')
            .slice(0, 12)
            .map((l) => `     ${l}`)
            .join('\n')}`,
        ),
      );
    }
    const tier = onlyVsix ? 'vsix' : 'vscode';
    console.log(`\n${tier} tier took ${formatDuration(summary.durationMs)}`);
    console.log(`${tier}: ${summary.passed} passed, ${summary.failed} failed`);
    return summary.failed > 0 ? 1 : 0;
  };

  let emulator: SharedEmulator | undefined;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-vscode-tests-'));
  try {
    const host = await step(`test host: code-server ${CODE_SERVER_VERSION}, chromium`, () => ensureTestHost());
    console.log(
      `[test-host] VS Code ${host.vscodeVersion} (code-server ${CODE_SERVER_VERSION}), browser ${host.chromium}`,
    );
    if (process.env[PREBUILT_ENV] === '1') console.log('[test-host] the extension was built by the caller');
    else await step('build the extension (node esbuild.js)', () => mustSucceed('node', ['esbuild.js']));
    const bundles = await step('bundle the tests', () => bundleTests());
    if (onlyVsix) {
      summary.vsix = await runVsixCheck({
        host,
        probeEntry: bundles.probeEntry,
        timeoutMs: PHASE_TIMEOUT_MS,
        keepDirs: true,
      });
      addResults(summary, summary.vsix);
      return report();
    }

    const phases = values.phase?.length
      ? bundles.phases.filter((p) => values.phase?.includes(p))
      : bundles.phases.filter((p) => !bundles.optIn.includes(p));
    const notRun = bundles.optIn.filter((p) => !phases.includes(p));
    if (notRun.length > 0)
      console.log(`[test-host] opt-in phases not run (name them with --phase): ${notRun.join(', ')}`);
    if (phases.length === 0)
      throw new Error(
        `no phase to run (found: ${bundles.phases.join(', ') || 'none'}; asked: ${values.phase?.join(', ') ?? 'all'})`,
      );

    // One VS Code profile for the whole run: later phases (restart) see what earlier ones left.
    fs.rmSync(VSCODE_USER_DATA_DIR, { recursive: true, force: true });
    fs.rmSync(VSCODE_BROWSER_PROFILE_DIR, { recursive: true, force: true });
    const extensionsDir = path.join(tmp, 'extensions');
    const workspace = path.join(tmp, 'workspace');
    fs.rmSync(SECRETS_FILE, { force: true });
    // One emulated portal for the whole run, so what the main phase signs in to is still there after the restart.
    emulator = await step('start the shared portal emulator', () => startSharedEmulator());
    console.log(`[test-host] emulator at ${emulator.url}`);
    const env: Record<string, string> = {
      [EMULATOR_URL_ENV]: emulator.url,
      [SECRETS_FILE_ENV]: SECRETS_FILE,
      [RESULTS_DIR_ENV]: RESULTS_DIR,
      // A test that leaves a tab for the next phase waits until the workbench has saved it there.
      [BROWSER_PROFILE_ENV]: VSCODE_BROWSER_PROFILE_DIR,
    };

    for (const phase of phases) {
      console.log(`\n[test-host] phase ${phase}`);
      const { locale } = readPhaseConfig(phase);
      // The pseudo bundles are generated, never committed: made fresh from today's English strings.
      if (locale === PSEUDO_LOCALE)
        await step('pseudo-localise the strings (npm run l10n:pseudo)', () =>
          mustSucceed('npm', ['run', '--silent', 'l10n:pseudo']),
        );
      const result = await runTestSession({
        name: `vscode-${phase}`,
        phase,
        extensionDevelopmentPath: REPO_ROOT,
        testsEntry: bundles.testsEntry,
        userDataDir: VSCODE_USER_DATA_DIR,
        extensionsDir,
        workspace,
        browserProfileDir: VSCODE_BROWSER_PROFILE_DIR,
        vscodeVersion: host.vscodeVersion,
        extensionRoot: REPO_ROOT,
        grep,
        timeoutMs: PHASE_TIMEOUT_MS,
        env,
        locale,
      });
      summary.phases[phase] = result;
      addResults(summary, result);
    }

    const leaks = leakCheck();
    if (leaks) {
      summary.leaks = leaks;
      addResults(summary, leaks);
    }

    if (values['skip-vsix']) {
      console.log('\n[test-host] packaged .vsix check skipped (--skip-vsix)');
    } else {
      summary.vsix = await runVsixCheck({
        host,
        probeEntry: bundles.probeEntry,
        timeoutMs: PHASE_TIMEOUT_MS,
        keepDirs: true,
      });
      addResults(summary, summary.vsix);
    }
  } catch (err) {
    // The runner itself broke (install, build, bundle): a failure, never zero tests.
    summary.failed++;
    summary.failures.push({
      title: 'test runner',
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
  } finally {
    await emulator?.stop().catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return report();
}

/**
 * After all phases: no secret the suites recorded may appear in the user-data-dir (settings, logs) or
 * in the browser profile, where the web workbench keeps its state databases (globalState lives in
 * IndexedDB there). SecretStorage's own values are encrypted in the profile's local storage, so
 * nothing needs exempting: a plaintext hit anywhere is a leak.
 */
function leakCheck(): TierResult | undefined {
  const secrets = readRecordedSecrets(SECRETS_FILE);
  if (secrets.length === 0) {
    console.log('\n[test-host] leak check skipped: the suites recorded no secrets');
    return undefined;
  }
  const result = emptyResult();
  const roots = [VSCODE_USER_DATA_DIR, VSCODE_BROWSER_PROFILE_DIR];
  const title = `no secret used by the suites (${secrets.length}) appears under ${roots.map((r) => path.relative(REPO_ROOT, r)).join(' or ')}`;
  const findings = scanForSecrets(roots, secrets);
  if (findings.length === 0) {
    result.passed++;
    console.log(`\n  leak check\n    ✔ ${title}`);
  } else {
    result.failed++;
    const error = findings.map((f) => `${f.kind} in ${f.file}`).join('\n');
    result.failures.push({ title: `leak check: ${title}`, error });
    console.log(
      `\n  leak check\n    ✗ ${title}\n${error
        .split('\n')
        .map((l) => `      ${l}`)
        .join('\n')}`,
    );
  }
  return result;
}

async function step<T>(title: string, body: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const value = await body();
  console.log(`[test-host] ${title}: ${formatDuration(Date.now() - started)}`);
  return value;
}

async function mustSucceed(command: string, args: string[]): Promise<void> {
  const r = await runCommand(command, args, { cwd: REPO_ROOT, timeoutMs: BUILD_TIMEOUT_MS });
  if (r.code !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited with ${r.code}${r.timedOut ? ' (timed out)' : ''}\n${r.stdout}\n${r.stderr}`.trim(),
    );
}

if (require.main === module) {
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`\n[test-host] ${signal}: closing the workbench`);
      void abortSessions().finally(() => process.exit(130));
    });
  }
  // Runs in one checkout take turns: they share out/vscode-tests, dist/ and test-results/.
  withTestRunLock('a test:vscode run', main).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
