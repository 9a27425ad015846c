// `npm run demo` as a newcomer runs it (code-server in the browser), with every proxy variable pointing at a local
// server that counts what reaches it: nothing may leave the machine (no gallery, update or telemetry call). The first
// start shows the walkthrough; Ctrl-C leaves no process running; the temporary files land under the demo's folder.
// The demo runs in a folder of its own under test-results/ (PORTAL_DEMO_DIR), so the clone's .demo/ is not touched.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { ensureTestHost } from '../host/install';
import { REPO_ROOT, RESULTS_DIR } from '../host/paths';
import { CHROMIUM_ARGS, PAGE_PATIENCE_MS } from '../host/workbench';
import type { FlowContext } from './run';
import { check } from './ui';

const START_TIMEOUT_MS = 120_000;
/** How long the workbench is watched after it is up: the gallery and update checks start within seconds. */
const WATCH_MS = 8_000;

/** An HTTP proxy that answers nothing and counts every request and CONNECT that reaches it. */
async function countingProxy(): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(502).end();
  });
  server.on('connect', (req, socket: Socket) => {
    seen.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`no workbench URL within ${START_TIMEOUT_MS / 1000} s:\n${out}`)),
      START_TIMEOUT_MS,
    );
    const onData = (d: Buffer): void => {
      out += d.toString();
      const m = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the demo exited (${code}) before it printed its URL:\n${out.slice(-2000)}`));
    });
  });
}

/** True when something still listens on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

export async function run(ctx: FlowContext): Promise<void> {
  const host = await ensureTestHost();
  const demoDir = path.join(RESULTS_DIR, 'demo-offline');
  fs.rmSync(demoDir, { recursive: true, force: true });
  const proxy = await countingProxy();
  const proxyEnv = {
    HTTP_PROXY: proxy.url,
    HTTPS_PROXY: proxy.url,
    http_proxy: proxy.url,
    https_proxy: proxy.url,
    ALL_PROXY: proxy.url,
    // The emulator and code-server on this machine are reached directly, as a person's would be.
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
  const demo = spawn(process.execPath, [path.join('scripts', 'demo.mjs'), '--web', '--port', '18787'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...proxyEnv, PORTAL_DEMO_DIR: demoDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = demo.pid;
  check(pid, 'the demo did not start');
  let ports: number[] = [];
  const exited = new Promise<number | null>((resolve) => demo.once('exit', (code) => resolve(code)));
  const browser = await chromium.launch({ executablePath: host.chromium, args: [...CHROMIUM_ARGS], headless: true });
  try {
    const url = await waitForUrl(demo);
    ports = [18787, Number(new URL(url).port)];
    ctx.log(`the demo is up: ${url}`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(PAGE_PATIENCE_MS);
    page.setDefaultNavigationTimeout(PAGE_PATIENCE_MS);
    // What the browser asks for beyond this machine (a gallery, a CDN), counted as the proxy counts the server's.
    page.on('request', (r) => {
      const host = new URL(r.url()).hostname;
      if (/^https?:$/.test(new URL(r.url()).protocol) && host !== '127.0.0.1' && host !== 'localhost')
        proxy.seen.push(`browser ${r.method()} ${r.url()}`);
    });
    await page.goto(url);
    await page.locator('.monaco-workbench').first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForTimeout(WATCH_MS);
    // Every problem is collected, so one run says all that is wrong.
    const problems: string[] = [];
    // The server side: code-server logs each outside address it tries (e.g. a gallery query it could not resolve).
    const serverLog = path.join(demoDir, 'code-server.log');
    const logged = fs.existsSync(serverLog)
      ? (fs.readFileSync(serverLog, 'utf8').match(/https?:\/\/(?!127\.0\.0\.1|localhost)[^\s"')]+/g) ?? [])
      : ['(no code-server.log)'];
    for (const u of new Set(logged)) proxy.seen.push(`code-server log: ${u}`);
    if (proxy.seen.length > 0) problems.push(`the demo reached out: ${proxy.seen.join('; ')}`);
    else ctx.log(`no request left the machine in ${WATCH_MS / 1000} s after the workbench was up`);
    // The first start opens Get Started with Portal by itself.
    const walkthrough = await page
      .locator('.gettingStartedContainer', { hasText: 'Get Started with Portal' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 })
      .then(
        () => true,
        () => false,
      );
    if (walkthrough) ctx.log('the walkthrough opened by itself on the first start');
    else problems.push('the walkthrough did not open on the first start');
    check(problems.length === 0, problems.join('\n'));
    const tmp = path.join(demoDir, 'tmp');
    check(fs.existsSync(tmp) && fs.readdirSync(tmp).length > 0, 'nothing temporary was written under the demo folder');
    ctx.log(`temporary files under ${path.relative(REPO_ROOT, tmp)}: ${fs.readdirSync(tmp).join(', ')}`);
  } finally {
    await browser.close();
    // Ctrl-C, as the terminal sends it: to the demo's whole process group.
    if (alive(pid)) process.kill(-pid, 'SIGINT');
    const deadline = Date.now() + 15_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const left = alive(pid);
    if (left) process.kill(-pid, 'SIGKILL');
    await exited;
    proxy.server.close();
    check(!left, 'a process of the demo was still running 15 s after Ctrl-C');
    for (const port of ports) check(!(await listening(port)), `something still listens on port ${port} after Ctrl-C`);
  }
  ctx.log('Ctrl-C stopped every process the demo started');
}
