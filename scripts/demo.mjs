// `npm run demo` starts here, in plain Node, so that nothing is written outside the clone before scripts/demo.ts
// runs: tsx's compile cache, code-server's IPC sockets and every other temporary file go where TMPDIR and the XDG
// variables point, all under .demo/. Signals are passed on, so Ctrl-C stops the demo as before.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// PORTAL_DEMO_DIR: only for the test that runs the demo without touching the clone's own .demo/.
const demo = process.env.PORTAL_DEMO_DIR ? path.resolve(process.env.PORTAL_DEMO_DIR) : path.join(root, '.demo');
const dirs = {
  TMPDIR: path.join(demo, 'tmp'),
  XDG_CONFIG_HOME: path.join(demo, 'xdg', 'config'),
  XDG_DATA_HOME: path.join(demo, 'xdg', 'data'),
  XDG_CACHE_HOME: path.join(demo, 'xdg', 'cache'),
  XDG_STATE_HOME: path.join(demo, 'xdg', 'state'),
  XDG_RUNTIME_DIR: path.join(demo, 'xdg', 'runtime'),
};
for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

const child = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', 'demo.ts'), ...process.argv.slice(2)], {
  cwd: root,
  env: { ...process.env, ...dirs, TMP: dirs.TMPDIR, TEMP: dirs.TMPDIR },
  stdio: 'inherit',
});
// The terminal sends Ctrl-C to the whole foreground group: demo.ts gets it too and stops what it started.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
