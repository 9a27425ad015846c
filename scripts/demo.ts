// `npm run demo`: the extension against a local portal in one command.
//   1. builds the extension (node esbuild.js);
//   2. starts the portal emulator with the `demo` seed on 127.0.0.1:8787 (the next free port if taken),
//      keeping its state in .demo/state.json so what you change survives the next demo;
//   3. prepares a VS Code profile under .demo/ whose settings list that portal as "Demo portal";
//   4. opens desktop VS Code with the extension loaded when `code` is on PATH, otherwise code-server
//      (real VS Code in the browser) on 127.0.0.1 and prints its URL;
//   5. prints the demo credentials. Ctrl-C stops everything it started.
// Options: --port N (emulator port, default 8787), --web (code-server even when `code` exists).
// Offline and contained: scripts/demo.mjs points TMPDIR and the XDG directories under .demo/ before this runs, and
// code-server gets no extension gallery, telemetry or update check (test/unit/scripts/demo.test.ts checks it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { firstFreePort, spawnCodeServer, updateUserSettings, waitForHttp } from '../test/host/codeServer';
import { killGroup } from '../test/host/proc';

const ROOT = path.resolve(__dirname, '..');
const DEMO_DIR = process.env.PORTAL_DEMO_DIR ? path.resolve(process.env.PORTAL_DEMO_DIR) : path.join(ROOT, '.demo');
const STATE_FILE = path.join(DEMO_DIR, 'state.json');
const USER_DATA = path.join(DEMO_DIR, 'user-data');
const EXTENSIONS = path.join(DEMO_DIR, 'extensions');
const WORKSPACE = path.join(DEMO_DIR, 'workspace');
const PORTAL_ID = 'demo-portal';
const PORT_ATTEMPTS = 20;
const READY_TIMEOUT_MS = 60_000;

const children = new Set<ChildProcess>();

function say(line: string): void {
  console.log(`[demo] ${line}`);
}

/** Each child runs in its own process group, so stopping it stops everything it started too. */
function start(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; echo?: boolean } = {}): ChildProcess {
  const child = track(
    spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
  );
  if (opts.echo) {
    child.stdout?.on('data', (d: Buffer) => process.stdout.write(d));
    child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
  }
  return child;
}

/** Counts `child` among what shutdown() stops. */
function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function stopAll(signal: NodeJS.Signals = 'SIGTERM'): void {
  for (const child of children) killGroup(child, signal);
}

/** Resolves with the first stdout line matching `re` (bounded by a timeout and the child's exit). */
function waitForLine(child: ChildProcess, re: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start within ${READY_TIMEOUT_MS / 1000} s`)),
      READY_TIMEOUT_MS,
    );
    const onData = (d: Buffer) => {
      buffered += d.toString();
      const m = re.exec(buffered);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve(m);
      }
      if (buffered.length > 64 * 1024) buffered = buffered.slice(-4096);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? 'signal'}) before it was ready:\n${buffered.slice(-2000)}`));
    });
  });
}

/** Settings of the demo profile: ours merged over what is there, so the user's own changes stay. */
function writeSettings(baseUrl: string): void {
  updateUserSettings(USER_DATA, (existing) => {
    const others = (
      Array.isArray(existing['portal.portals']) ? (existing['portal.portals'] as Array<{ id?: unknown }>) : []
    ).filter((p) => p?.id !== PORTAL_ID);
    return {
      'security.workspace.trust.enabled': false,
      'workbench.startupEditor': 'none',
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'workbench.enableExperiments': false,
      'npm.fetchOnlinePackageInfo': false,
      // The demo workspace lives inside this repository; Git offering to open it only distracts.
      'git.openRepositoryInParentFolders': 'never',
      ...existing,
      // The first start shows Get Started with Portal; later starts do not (the extension remembers it opened it).
      'portal.walkthrough.openOnFirstRun': true,
      'portal.portals': [{ id: PORTAL_ID, label: 'Demo portal', baseUrl, service: 'portal' }, ...others],
    };
  });
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function printCredentials(): void {
  say('Sign in: open the Portal view (activity bar), expand "Demo portal", click "Sign in…"');
  say('  demo / demo        super administrator of Acme Corporation and Globex Research');
  say('  demo-2fa / demo    two-factor code 123456');
  say('  member / demo      a regular member of Acme Corporation');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '8787' }, web: { type: 'boolean', default: false } },
  });
  fs.mkdirSync(WORKSPACE, { recursive: true });
  fs.mkdirSync(EXTENSIONS, { recursive: true });

  say('building the extension (node esbuild.js)');
  const build = spawnSync(process.execPath, ['esbuild.js'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');

  const port = await firstFreePort(Number(values.port), PORT_ATTEMPTS);
  const emulator = start(process.execPath, [
    '--import',
    'tsx',
    path.join('test', 'emulator', 'cli.ts'),
    '--port',
    String(port),
    '--seed',
    'demo',
    '--data',
    STATE_FILE,
  ]);
  const listening = await waitForLine(emulator, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 'the portal emulator');
  const baseUrl = listening[1] ?? `http://127.0.0.1:${port}`;
  emulator.stdout?.on('data', (d: Buffer) => process.stdout.write(d));
  emulator.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
  say(`portal emulator at ${baseUrl} (state in ${path.relative(ROOT, STATE_FILE)})`);
  writeSettings(baseUrl);

  if (!values.web && onPath('code')) {
    say('opening desktop VS Code with the extension loaded');
    const code = start(
      'code',
      [
        '--wait',
        '--new-window',
        `--extensionDevelopmentPath=${ROOT}`,
        `--user-data-dir=${USER_DATA}`,
        `--extensions-dir=${EXTENSIONS}`,
        WORKSPACE,
      ],
      { echo: true },
    );
    printCredentials();
    say('close the VS Code window or press Ctrl-C to stop');
    await new Promise<void>((resolve) => code.once('exit', () => resolve()));
    return;
  }

  // No desktop VS Code: the same VS Code as a web workbench (code-server), as the tests use it.
  const { ensureTestHost } = await import('../test/host/install');
  const { workbenchUrl } = await import('../test/host/workbench');
  const host = await ensureTestHost();
  const webPort = await firstFreePort(port + 1, PORT_ATTEMPTS);
  const log = fs.createWriteStream(path.join(DEMO_DIR, 'code-server.log'), { flags: 'w' });
  const server = track(
    spawnCodeServer({
      bin: host.codeServerBin,
      port: webPort,
      userDataDir: USER_DATA,
      extensionsDir: EXTENSIONS,
      workspace: WORKSPACE,
      // No extension gallery: code-server would otherwise query open-vsx.org at start-up. Telemetry and the update
      // check are off by flag (spawnCodeServer), recommendations and update checks by the settings above.
      env: { EXTENSIONS_GALLERY: '{}' },
      // Its log stays beside the demo's state: what it did, including any address it tried to reach.
      onLine: (line) => log.write(`${line}\n`),
    }),
  );
  await waitForHttp(webPort, server);
  const url = workbenchUrl(webPort, { workspace: WORKSPACE, extensionDevelopmentPath: ROOT });
  say(`VS Code (code-server ${host.vscodeVersion}) with the extension loaded:`);
  console.log(`\n    ${url}\n`);
  printCredentials();
  say('press Ctrl-C to stop the emulator and code-server');
  await new Promise<void>((resolve) => server.once('exit', () => resolve()));
}

let stopping = false;

/** SIGTERM to every group started (the emulator flushes its state on it), SIGKILL after a grace period. */
function shutdown(code: number): void {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  stopAll('SIGTERM');
  setTimeout(() => {
    stopAll('SIGKILL');
    process.exit(code);
  }, 3_000).unref();
  const poll = setInterval(() => {
    if (children.size === 0) {
      clearInterval(poll);
      process.exit(code);
    }
  }, 100);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(0));
process.on('exit', () => stopAll('SIGKILL'));

main().then(
  () => shutdown(0),
  (err: unknown) => {
    console.error(`[demo] ${err instanceof Error ? err.message : String(err)}`);
    shutdown(1);
  },
);
