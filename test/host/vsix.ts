// The packaged-.vsix check: package the extension exactly as it ships, install the package into
// a fresh code-server extensions dir, and run the probe's suites beside it (the probe is the
// development extension, so nothing from the repository is loaded in place of the package).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROBE_PHASE } from './bundle';
import type { TestHost } from './install';
import { PROBE_DIR, REPO_ROOT, RESULTS_DIR } from './paths';
import { formatDuration, runCommand } from './proc';
import { emptyResult, runTestSession, type TierResult } from './session';

export const VSIX_PATH = path.join(REPO_ROOT, 'dist', 'portal-vscode.vsix');
export const VSIX_MAX_BYTES = 1024 * 1024;
const PACKAGE_TIMEOUT_MS = 5 * 60_000;
const INSTALL_TIMEOUT_MS = 2 * 60_000;

export interface VsixCheckOptions {
  host: TestHost;
  /** out/vsix-probe/index.js from bundleTests(). */
  probeEntry: string;
  timeoutMs: number;
  /** Keep the temporary dirs (user data, extensions) for a look after a failure. */
  keepDirs?: boolean;
}

interface Step {
  title: string;
  /** Later steps cannot run without this one. */
  blocking: boolean;
  run: () => Promise<void>;
}

export async function runVsixCheck(opts: VsixCheckOptions): Promise<TierResult> {
  const started = Date.now();
  const result = emptyResult();
  // Under test-results/ (gitignored, wiped by `npm test`), kept after a failure for a look.
  const tmp = path.join(RESULTS_DIR, 'vsix-host');
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  console.log('\n  packaged .vsix');

  const steps: Step[] = [
    {
      title: 'packages with vsce (production build)',
      blocking: true,
      run: async () => {
        if (!fs.existsSync(path.join(REPO_ROOT, '.vscodeignore')) && !hasFilesField()) {
          throw new Error(
            'no .vscodeignore (and no "files" in package.json): vsce would pack the whole repository, .vscode-test/ included',
          );
        }
        fs.rmSync(VSIX_PATH, { force: true });
        await mustSucceed('node', ['esbuild.js', '--production'], PACKAGE_TIMEOUT_MS);
        await mustSucceed(
          'npx',
          ['vsce', 'package', '--no-dependencies', '--out', path.relative(REPO_ROOT, VSIX_PATH)],
          PACKAGE_TIMEOUT_MS,
        );
        if (!fs.existsSync(VSIX_PATH)) throw new Error(`vsce reported success but ${VSIX_PATH} is missing`);
      },
    },
    {
      title: `is smaller than ${VSIX_MAX_BYTES / 1024} KiB`,
      blocking: false,
      run: async () => {
        const size = fs.statSync(VSIX_PATH).size;
        if (size >= VSIX_MAX_BYTES)
          throw new Error(
            `${path.relative(REPO_ROOT, VSIX_PATH)} is ${(size / 1024).toFixed(1)} KiB (limit ${VSIX_MAX_BYTES / 1024} KiB); see \`npx vsce ls --tree\``,
          );
        console.log(`    (${(size / 1024).toFixed(1)} KiB)`);
      },
    },
    {
      title: 'installs into code-server with --install-extension',
      blocking: true,
      run: async () => {
        fs.mkdirSync(userDataDir, { recursive: true });
        const configFile = path.join(tmp, 'code-server.yaml');
        fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
        await mustSucceed(
          process.execPath,
          [
            opts.host.codeServerBin,
            '--config',
            configFile,
            '--user-data-dir',
            userDataDir,
            '--extensions-dir',
            extensionsDir,
            '--install-extension',
            VSIX_PATH,
            '--force',
          ],
          INSTALL_TIMEOUT_MS,
        );
        const installed = fs.readdirSync(extensionsDir).filter((d) => !d.startsWith('.') && d !== 'extensions.json');
        if (installed.length === 0) throw new Error(`nothing was installed into ${extensionsDir}`);
      },
    },
  ];

  let broken = false;
  for (const step of steps) {
    const stepStarted = Date.now();
    try {
      await step.run();
      result.passed++;
      console.log(`    ✔ ${step.title} (${formatDuration(Date.now() - stepStarted)})`);
    } catch (err) {
      result.failed++;
      const error = err instanceof Error ? err.message : String(err);
      result.failures.push({ title: `packaged .vsix ${step.title}`, error });
      console.log(`    ✗ ${step.title}\n${indent(error, 6)}`);
      if (step.blocking) {
        broken = true;
        break;
      }
    }
  }

  if (!broken) {
    const session = await runTestSession({
      name: 'vsix-probe',
      phase: PROBE_PHASE,
      extensionDevelopmentPath: PROBE_DIR,
      testsEntry: opts.probeEntry,
      userDataDir,
      extensionsDir,
      workspace: path.join(tmp, 'workspace'),
      vscodeVersion: opts.host.vscodeVersion,
      extensionRoot: REPO_ROOT,
      timeoutMs: opts.timeoutMs,
    });
    result.passed += session.passed;
    result.failed += session.failed;
    result.pending += session.pending;
    result.failures.push(...session.failures);
  }
  if (!opts.keepDirs || result.failed === 0) fs.rmSync(tmp, { recursive: true, force: true });
  else console.log(`vsix: kept ${path.relative(REPO_ROOT, tmp)}/ (user data, extensions) for a look`);
  console.log(`vsix check took ${formatDuration(Date.now() - started)}`);
  console.log(`vsix: ${result.passed} passed, ${result.failed} failed`);
  return result;
}

function hasFilesField(): boolean {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { files?: unknown };
  return Array.isArray(pkg.files);
}

async function mustSucceed(command: string, args: string[], timeoutMs: number): Promise<void> {
  const r = await runCommand(command, args, { cwd: REPO_ROOT, timeoutMs });
  if (r.code !== 0) {
    const tail = `${r.stdout}\n${r.stderr}`.trim().split('\n').slice(-25).join('\n');
    throw new Error(
      `${path.basename(command)} ${args.join(' ')} exited with ${r.code}${r.timedOut ? ' (timed out)' : ''}\n${tail}`,
    );
  }
}

function indent(text: string, n: number): string {
  return text
    .split('\n')
    .map((l) => ' '.repeat(n) + l)
    .join('\n');
}
