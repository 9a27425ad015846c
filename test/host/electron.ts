// Optional second launcher: the same suites in desktop VS Code through @vscode/test-electron, for
// machines that can download VS Code from Microsoft. Not used by CI (these machines are offline;
// test/host/run.ts with code-server is the launcher CI uses). Fails fast when the download
// server cannot be reached.
//
// Usage: npm run test:electron [-- --grep <pattern>]   (Linux without a display: xvfb-run -a npm run test:electron)
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { download, runTests } from '@vscode/test-electron';
import { RUN_CONTEXT_FILE, TEST_ENV, type RunContext, type TestResults } from '../vscode/protocol';
import { bundleTests } from './bundle';
import { CACHE_DIR, REPO_ROOT, RESULTS_DIR } from './paths';
import { runCommand } from './proc';
import {
  EMULATOR_URL_ENV,
  SECRETS_FILE,
  SECRETS_FILE_ENV,
  startSharedEmulator,
  type SharedEmulator,
} from './sharedEmulator';
import { RESULTS_DIR_ENV } from '../vscode/support/runnerEnv';

/** The VS Code that code-server 4.100.3 embeds, so both launchers test against the same release. */
export const ELECTRON_VSCODE_VERSION = '1.100.3';
const DOWNLOAD_HOST = 'update.code.visualstudio.com';
const PROBE_TIMEOUT_MS = 10_000;

/** One HEAD request to the download server: a clear error in seconds instead of a hung download. */
function canReachDownloadServer(): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = https.request(
      {
        host: DOWNLOAD_HOST,
        path: `/${ELECTRON_VSCODE_VERSION}/linux-x64/stable`,
        method: 'HEAD',
        timeout: PROBE_TIMEOUT_MS,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode !== undefined && res.statusCode < 500 ? undefined : `HTTP ${res.statusCode}`);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => resolve(err.message));
    req.end();
  });
}

function cachedVscode(): boolean {
  return fs.existsSync(path.join(CACHE_DIR, `vscode-linux-x64-${ELECTRON_VSCODE_VERSION}`));
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { grep: { type: 'string' } } });
  if (!cachedVscode()) {
    const problem = await canReachDownloadServer();
    if (problem) {
      console.error(
        `test:electron needs to download VS Code ${ELECTRON_VSCODE_VERSION} from https://${DOWNLOAD_HOST} and cannot (${problem}).\n` +
          'On an offline machine use `npm run test:vscode` (code-server, the launcher CI uses).',
      );
      return 2;
    }
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    console.warn('No display: desktop VS Code needs one. Run under `xvfb-run -a npm run test:electron`.');
  }
  const vscodeExecutablePath = await download({
    version: ELECTRON_VSCODE_VERSION,
    cachePath: CACHE_DIR,
    timeout: 30_000,
  });

  const build = await runCommand('node', ['esbuild.js'], { cwd: REPO_ROOT, timeoutMs: 5 * 60_000, echo: true });
  if (build.code !== 0) throw new Error('node esbuild.js failed');
  const bundles = await bundleTests();

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-electron-'));
  let emulator: SharedEmulator | undefined;
  let passed = 0;
  let failed = 0;
  try {
    emulator = await startSharedEmulator();
    fs.rmSync(SECRETS_FILE, { force: true });
    for (const phase of bundles.phases) {
      const resultsPath = path.join(RESULTS_DIR, `electron-${phase}.results.json`);
      fs.rmSync(resultsPath, { force: true });
      const context: RunContext = {
        phase,
        marker: randomUUID(),
        vscodeVersion: ELECTRON_VSCODE_VERSION,
        extensionRoot: REPO_ROOT,
        resultsPath,
        ...(values.grep ? { grep: values.grep } : {}),
      };
      fs.writeFileSync(path.join(path.dirname(bundles.testsEntry), RUN_CONTEXT_FILE), JSON.stringify(context));
      let crashed = false;
      try {
        await runTests({
          vscodeExecutablePath,
          extensionDevelopmentPath: REPO_ROOT,
          extensionTestsPath: bundles.testsEntry,
          extensionTestsEnv: {
            [TEST_ENV.phase]: phase,
            [TEST_ENV.results]: resultsPath,
            [TEST_ENV.vscodeVersion]: ELECTRON_VSCODE_VERSION,
            [TEST_ENV.extensionRoot]: REPO_ROOT,
            [TEST_ENV.marker]: context.marker,
            [TEST_ENV.grep]: values.grep,
            [EMULATOR_URL_ENV]: emulator.url,
            [SECRETS_FILE_ENV]: SECRETS_FILE,
            [RESULTS_DIR_ENV]: RESULTS_DIR,
          },
          // Phases share one profile, as in the code-server runner (the restart phase relies on it).
          launchArgs: [
            path.join(tmp, 'workspace'),
            '--user-data-dir',
            path.join(tmp, 'user-data'),
            '--extensions-dir',
            path.join(tmp, 'extensions'),
            '--disable-workspace-trust',
          ],
        });
      } catch {
        crashed = true; // a failing suite also lands here (exit code 1); the results file tells which
      }
      const results = readResults(resultsPath);
      passed += results?.passed ?? 0;
      failed += results?.failed ?? 0;
      if (!results || (crashed && results.failed === 0)) failed++;
    }
  } finally {
    await emulator?.stop().catch(() => undefined);
    fs.rmSync(path.join(path.dirname(bundles.testsEntry), RUN_CONTEXT_FILE), { force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`electron: ${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

function readResults(file: string): TestResults | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as TestResults;
  } catch {
    return undefined;
  }
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
