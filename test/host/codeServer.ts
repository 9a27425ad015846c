// code-server (VS Code server + web workbench) as a process: ports, start with the standard flags on
// 127.0.0.1, readiness, the profile's settings.json, and stopping its whole process group. Shared by
// the test workbench (workbench.ts: every in-VS-Code test and the Playwright flows) and `npm run demo`.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { groupAlive, killGroup, sleep } from './proc';

const HTTP_READY_TIMEOUT_MS = 60_000;
const HTTP_READY_POLL_MS = 250;
const KILL_GRACE_MS = 5_000;

/** code-server process groups still running; killed on our exit so an aborted run leaves no orphans. */
const liveGroups = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveGroups) killGroup(child, 'SIGKILL');
});

export interface CodeServerOptions {
  /** code-server's entry script (ensureTestHost().codeServerBin); run with this node. */
  bin: string;
  port: number;
  userDataDir: string;
  extensionsDir: string;
  /** Folder opened as the workspace. */
  workspace: string;
  /** Added to code-server's environment; the extension host inherits it. */
  env?: Record<string, string>;
  /**
   * Display language for the workbench and the extension hosts (--locale). A locale without a language pack
   * also needs registerStubLanguagePack (pseudoLocale.ts), or code-server falls back to English.
   */
  locale?: string;
  /** Pass --ignore-last-opened (an empty window rather than the last folder when the URL names none). */
  ignoreLastOpened?: boolean;
  /** Every line code-server prints; without it the output is drained unread. */
  onLine?: (line: string) => void;
}

/**
 * Starts code-server on 127.0.0.1:`port` in its own process group (stopCodeServer kills it with the
 * extension host and every helper). Does not wait: follow with waitForHttp.
 */
export function spawnCodeServer(opts: CodeServerOptions): ChildProcess {
  // Our own (empty) config file: code-server otherwise writes one with a password into ~/.config.
  fs.mkdirSync(opts.userDataDir, { recursive: true });
  const configFile = path.join(opts.userDataDir, 'code-server.yaml');
  fs.writeFileSync(
    configFile,
    '# written by test/host/codeServer.ts; the command line carries the rest\nauth: none\ncert: false\n',
  );
  const args = [
    opts.bin,
    '--config',
    configFile,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${opts.port}`,
    '--user-data-dir',
    opts.userDataDir,
    '--extensions-dir',
    opts.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    ...(opts.ignoreLastOpened ? ['--ignore-last-opened'] : []),
    ...(opts.locale ? ['--locale', opts.locale] : []),
    opts.workspace,
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  liveGroups.add(child);
  child.on('exit', () => liveGroups.delete(child));
  const listening = `HTTP server listening on http://127.0.0.1:${opts.port}/`;
  pipeLines(child, (line) => {
    if (line.includes(listening)) bound.add(child);
    opts.onLine?.(line);
  });
  return child;
}

/**
 * The servers whose own log has said they listen. What answers on a port before that is not this server: another
 * run's, still closing on a port the system has just handed out again.
 */
const bound = new WeakSet<ChildProcess>();

/**
 * Resolves once code-server has said it listens and answers HTTP on 127.0.0.1:`port`; rejects if it exits
 * first or after 60 s.
 */
export async function waitForHttp(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + HTTP_READY_TIMEOUT_MS;
  const maxPolls = Math.ceil(HTTP_READY_TIMEOUT_MS / HTTP_READY_POLL_MS);
  for (let i = 0; i < maxPolls && Date.now() < deadline; i++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.signalCode ?? child.exitCode}) during start-up`);
    }
    if (bound.has(child) && (await httpAnswers(port))) return;
    await sleep(HTTP_READY_POLL_MS);
  }
  throw new Error(`code-server did not answer on 127.0.0.1:${port} within ${HTTP_READY_TIMEOUT_MS / 1000} s`);
}

function httpAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode < 500);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** SIGTERM to the whole group, SIGKILL to whatever is left after a grace period. */
export async function stopCodeServer(child: ChildProcess): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) return;
  killGroup(child, 'SIGTERM');
  const deadline = Date.now() + KILL_GRACE_MS;
  while (Date.now() < deadline && groupAlive(pgid)) await sleep(100);
  if (groupAlive(pgid)) killGroup(child, 'SIGKILL');
  for (let i = 0; i < 50 && groupAlive(pgid); i++) await sleep(100);
  liveGroups.delete(child);
}

/**
 * Rewrites <userDataDir>/User/settings.json with what `update` makes of the settings there
 * ({} when there are none yet or they are not a plain JSON object).
 */
export function updateUserSettings(
  userDataDir: string,
  update: (existing: Record<string, unknown>) => Record<string, unknown>,
): void {
  const file = path.join(userDataDir, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let existing: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) existing = parsed as Record<string, unknown>;
  } catch {
    // none yet (or not plain JSON): start over
  }
  fs.writeFileSync(file, `${JSON.stringify(update(existing), null, 2)}\n`);
}

/** True when nothing listens on 127.0.0.1:`port` right now. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** The first free port from `from` on (`attempts` ports tried). */
export async function firstFreePort(from: number, attempts = 20): Promise<number> {
  for (let p = from; p < from + attempts; p++) if (await portFree(p)) return p;
  throw new Error(`no free port between ${from} and ${from + attempts - 1}`);
}

/** A port nobody is listening on right now (bind port 0, read it, release it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not read the bound port'));
      });
    });
  });
}

function pipeLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
    stream?.on('end', () => {
      if (buffered) onLine(buffered);
    });
  }
}
