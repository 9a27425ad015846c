// Installs the offline test host on first use: Debian's chromium/ripgrep/libkrb5-dev and
// code-server (real VS Code, server + web workbench) from npm into .vscode-test/.
// Every step here works around a failure seen on these machines; see
// /work/shared/notes/vscode-test-host.md before changing one.
//
// Usage as a script (warms the cache, e.g. in CI before the tests): node --import tsx test/host/install.ts
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CACHE_DIR, CHROMIUM_PATH } from './paths';
import { withLock } from './lock';
import { formatDuration, runCommand } from './proc';

export const CODE_SERVER_VERSION = '4.100.3';
/** code-server 4.100.x wants Node 20 exactly (newer releases want 22/24). */
const CODE_SERVER_NODE_MAJOR = 20;

export const CODE_SERVER_DIR = path.join(CACHE_DIR, `code-server-${CODE_SERVER_VERSION}`);
const MARKER = path.join(CODE_SERVER_DIR, '.portal-install-complete.json');
const LOCK_DIR = `${CODE_SERVER_DIR}.lock`;
/** TMPDIR for the npm install, so @vscode/ripgrep finds our pre-seeded archive there and nowhere else. */
const INSTALL_TMP = path.join(CACHE_DIR, `tmp-code-server-${CODE_SERVER_VERSION}`);

/** @vscode/ripgrep@1.15.11 (pinned by VS Code 1.100) looks for this archive before going to GitHub. */
const RIPGREP_CACHE_SUBDIR = 'vscode-ripgrep-cache-1.15.11';
const RIPGREP_ARCHIVE = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';

const NPM_INSTALL_TIMEOUT_MS = 20 * 60_000;
const APT_TIMEOUT_MS = 15 * 60_000;
const LOCK_WAIT_MS = NPM_INSTALL_TIMEOUT_MS + 60_000;

export interface TestHost {
  /** code-server's Node entry script; run it with process.execPath (Node 20). */
  codeServerBin: string;
  /** The browser that drives the web workbench. */
  chromium: string;
  /** The VS Code version code-server embeds (from its lib/vscode/package.json). */
  vscodeVersion: string;
}

function log(message: string): void {
  console.log(`[test-host] ${message}`);
}

/** Makes sure code-server and the system packages it needs are present; installs what is missing. */
export async function ensureTestHost(): Promise<TestHost> {
  await ensureSystemPackages();
  await ensureCodeServer();
  return {
    codeServerBin: codeServerEntry(),
    chromium: CHROMIUM_PATH,
    vscodeVersion: readVscodeVersion(),
  };
}

function codeServerPackageDir(): string {
  return path.join(CODE_SERVER_DIR, 'node_modules', 'code-server');
}

function codeServerEntry(): string {
  return path.join(codeServerPackageDir(), 'out', 'node', 'entry.js');
}

/** The VS Code version inside code-server, e.g. "1.100.3". */
export function readVscodeVersion(): string {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(codeServerPackageDir(), 'lib', 'vscode', 'package.json'), 'utf8'),
  ) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('code-server: lib/vscode/package.json has no version');
  return pkg.version;
}

// ---------------------------------------------------------------------------------------------
// System packages

interface SystemNeed {
  /** Debian package to install when the check fails. */
  pkg: string;
  installed: () => Promise<boolean>;
}

async function dpkgInstalled(pkg: string): Promise<boolean> {
  try {
    const r = await runCommand('dpkg-query', ['-W', '-f=${Status}', pkg], { timeoutMs: 30_000 });
    return r.code === 0 && r.stdout.includes('install ok installed');
  } catch {
    return false; // no dpkg-query at all
  }
}

async function onPath(command: string): Promise<boolean> {
  const r = await runCommand('sh', ['-c', `command -v ${command}`], { timeoutMs: 10_000 });
  return r.code === 0;
}

const SYSTEM_NEEDS: readonly SystemNeed[] = [
  // Drives the web workbench (Playwright's own browser download cannot run offline).
  { pkg: 'chromium', installed: async () => fs.existsSync(CHROMIUM_PATH) },
  // gssapi headers for code-server's native `kerberos` module.
  { pkg: 'libkrb5-dev', installed: () => dpkgInstalled('libkrb5-dev') },
  // Its /usr/bin/rg stands in for the ripgrep that @vscode/ripgrep would download from GitHub.
  { pkg: 'ripgrep', installed: async () => fs.existsSync('/usr/bin/rg') },
  // node-gyp builds kerberos and node-pty.
  { pkg: 'build-essential', installed: async () => (await onPath('g++')) && (await onPath('make')) },
  { pkg: 'python3', installed: () => onPath('python3') },
];

async function ensureSystemPackages(): Promise<void> {
  const missing: string[] = [];
  for (const need of SYSTEM_NEEDS) {
    if (!(await need.installed())) missing.push(need.pkg);
  }
  if (missing.length === 0) return;
  const list = missing.join(' ');
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new Error(
      `The test host needs Debian packages that are missing: ${list}\nRun: sudo apt-get update && sudo apt-get install -y ${list}`,
    );
  }
  if (!(await onPath('apt-get'))) {
    throw new Error(`The test host needs these Debian packages (no apt-get on this machine): ${list}`);
  }
  const started = Date.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log(`installing system packages: ${list} (apt-get update, then apt-get install -y)`);
  const update = await runCommand('apt-get', ['update'], { env, timeoutMs: APT_TIMEOUT_MS, echo: true });
  if (update.code !== 0)
    throw new Error(`apt-get update failed (exit ${update.code}${update.timedOut ? ', timed out' : ''})`);
  const install = await runCommand('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
    env,
    timeoutMs: APT_TIMEOUT_MS,
    echo: true,
  });
  if (install.code !== 0)
    throw new Error(`apt-get install -y ${list} failed (exit ${install.code}${install.timedOut ? ', timed out' : ''})`);
  for (const need of SYSTEM_NEEDS) {
    if (missing.includes(need.pkg) && !(await need.installed()))
      throw new Error(`${need.pkg} is still missing after apt-get install`);
  }
  log(`system packages installed in ${formatDuration(Date.now() - started)}`);
}

// ---------------------------------------------------------------------------------------------
// code-server

function installComplete(): boolean {
  try {
    const marker = JSON.parse(fs.readFileSync(MARKER, 'utf8')) as { version?: unknown };
    return (
      marker.version === CODE_SERVER_VERSION &&
      fs.existsSync(codeServerEntry()) &&
      fs.existsSync(path.join(codeServerPackageDir(), 'lib', 'vscode', 'out')) &&
      fs.existsSync(path.join(codeServerPackageDir(), 'lib', 'vscode', 'node_modules'))
    );
  } catch {
    return false;
  }
}

async function ensureCodeServer(): Promise<void> {
  if (installComplete()) return;
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== CODE_SERVER_NODE_MAJOR) {
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} needs Node ${CODE_SERVER_NODE_MAJOR}; this is Node ${process.versions.node}`,
    );
  }
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  // One installer at a time per checkout (parallel test commands share .vscode-test/).
  await withLock(
    LOCK_DIR,
    { waitMs: LOCK_WAIT_MS, what: `the code-server ${CODE_SERVER_VERSION} install` },
    async () => {
      if (installComplete()) return; // another run finished it while we waited
      await installCodeServer();
    },
  );
}

async function installCodeServer(): Promise<void> {
  const started = Date.now();
  if (fs.existsSync(CODE_SERVER_DIR)) {
    log(`removing an unfinished code-server install in ${path.relative(process.cwd(), CODE_SERVER_DIR)}`);
    fs.rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
  }
  fs.mkdirSync(CODE_SERVER_DIR, { recursive: true });
  // Its own package.json stops npm from walking up into the project and keeps code-server out of our dependencies.
  fs.writeFileSync(
    path.join(CODE_SERVER_DIR, 'package.json'),
    `${JSON.stringify({ name: 'portal-test-host', private: true, description: 'code-server cache for the in-VS-Code tests; not a project dependency' }, null, 2)}\n`,
  );

  fs.rmSync(INSTALL_TMP, { recursive: true, force: true });
  const rgCache = path.join(INSTALL_TMP, RIPGREP_CACHE_SUBDIR);
  fs.mkdirSync(rgCache, { recursive: true });
  const tar = await runCommand('tar', ['-czf', path.join(rgCache, RIPGREP_ARCHIVE), '-C', '/usr/bin', 'rg'], {
    timeoutMs: 60_000,
  });
  if (tar.code !== 0) throw new Error(`could not pack /usr/bin/rg for @vscode/ripgrep: ${tar.stderr.trim()}`);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TMPDIR: INSTALL_TMP,
    // As root, code-server's postinstall refuses to run without it.
    npm_config_unsafe_perm: 'true',
    // node-pty's postinstall runs `npx node-gyp`, which otherwise waits for a "yes".
    npm_config_yes: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  // node-gyp downloads Node headers unless told where local ones are (the nodejs package ships them).
  if (!env.npm_config_nodedir && fs.existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';

  log(
    `installing code-server@${CODE_SERVER_VERSION} into ${path.relative(process.cwd(), CODE_SERVER_DIR)} (first use; takes a minute or more)`,
  );
  const npm = await runCommand(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--omit=dev', `code-server@${CODE_SERVER_VERSION}`],
    {
      cwd: CODE_SERVER_DIR,
      env,
      timeoutMs: NPM_INSTALL_TIMEOUT_MS,
    },
  );
  if (npm.code !== 0 || !fs.existsSync(codeServerEntry())) {
    const tail = `${npm.stdout}\n${npm.stderr}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(
      `npm install code-server@${CODE_SERVER_VERSION} failed (exit ${npm.code}${npm.timedOut ? ', timed out' : ''}); ${CODE_SERVER_DIR} will be redone next time.\n${tail}`,
    );
  }
  const missingNative = checkNativeModules();
  if (missingNative.length > 0) {
    throw new Error(
      `code-server installed without these native builds (a postinstall was skipped or failed): ${missingNative.join(', ')}`,
    );
  }
  const version = readVscodeVersion();
  fs.rmSync(INSTALL_TMP, { recursive: true, force: true });
  fs.writeFileSync(
    MARKER,
    `${JSON.stringify({ version: CODE_SERVER_VERSION, vscode: version, node: process.versions.node, installedAt: new Date().toISOString() }, null, 2)}\n`,
  );
  log(`code-server ${CODE_SERVER_VERSION} (VS Code ${version}) installed in ${formatDuration(Date.now() - started)}`);
}

/** The postinstall steps that silently fail leave these missing. */
function checkNativeModules(): string[] {
  const vscodeModules = path.join(codeServerPackageDir(), 'lib', 'vscode', 'node_modules');
  const expected = [
    path.join(vscodeModules, '@vscode', 'ripgrep', 'bin', 'rg'),
    path.join(vscodeModules, 'node-pty', 'build', 'Release', 'pty.node'),
    path.join(vscodeModules, 'kerberos', 'build', 'Release', 'kerberos.node'),
  ];
  return expected.filter((f) => !fs.existsSync(f)).map((f) => path.relative(codeServerPackageDir(), f));
}

if (require.main === module) {
  const started = Date.now();
  ensureTestHost().then(
    (host) => {
      log(
        `ready in ${formatDuration(Date.now() - started)}: code-server ${CODE_SERVER_VERSION} (VS Code ${host.vscodeVersion}), ${host.chromium}`,
      );
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
