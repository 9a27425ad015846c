// The one test command (`npm test`): type-check and lint, the unit tier, the tier inside real VS Code (with the
// packaged .vsix), then the Playwright flows through the real workbench.
// Each tier leaves {passed, failed} in test-results/<tier>.json; the last line printed is their sum.
// On two cores the wall time matters more than the order: the test host installs (mostly waiting on npm and
// apt) while the check and the unit tier run, and the check (one core, tsc and eslint) runs beside the unit tier.
// The VS Code tier and the flows are not run side by side: measured on two cores, each then took twice as long, so
// nothing was gained, and every wait in both ran on a machine twice as busy.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, mkdirSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const results = join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(label, command, args) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  console.log(`=== ${label}: exit ${r.status ?? r.signal} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.status === 0;
}

/** Runs one tier; a tier that failed without reporting counts as one failure, never as zero tests. */
function tier(name, script) {
  const ok = run(name, npm, ['run', '--silent', script]);
  if (!ok && !existsSync(join(results, `${name}.json`)))
    writeFileSync(join(results, `${name}.json`), JSON.stringify({ passed: 0, failed: 1 }));
  return ok;
}

function tapCounts(file) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const n = (key) => Number((text.match(new RegExp(`^# ${key} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
  return { passed: n('pass'), failed: n('fail') + n('cancelled') };
}

/** Starts a command in the background; its output goes to a log file, printed when it is awaited. */
function background(label, command, args) {
  const log = join(results, `${label}.log`);
  const fd = openSync(log, 'w');
  const started = Date.now();
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', fd, fd], env: process.env });
  closeSync(fd);
  const done = new Promise((resolve) => {
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
  return async () => {
    const ok = await done;
    console.log(`\n=== ${label} (ran in the background): ${[command, ...args].join(' ')}`);
    process.stdout.write(readFileSync(log, 'utf8'));
    console.log(`=== ${label}: ${ok ? 'ok' : 'failed'} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return ok;
  };
}

const hostReady = background('test-host', process.execPath, ['--import', 'tsx', 'test/host/install.ts']);
const checkDone = background('check', npm, ['run', '--silent', 'check']);
// The unit tier reports in TAP (node:test); turn it into the same JSON as the others.
const unitOk = tier('unit', 'test:unit');
let ok = await checkDone();
const unit = tapCounts(join(results, 'unit.tap'));
if (!unitOk && unit.failed === 0) unit.failed = 1;
writeFileSync(join(results, 'unit.json'), JSON.stringify(unit));
ok = unitOk && ok;
// A failed install is tried again by the tier itself, which then reports it as a failure.
await hostReady();
ok = tier('vscode', 'test:vscode') && ok;
ok = tier('e2e', 'test:e2e') && ok;

let passed = 0;
let failed = 0;
// Only the tiers' own totals: the runners leave per-phase files beside them that are already included.
for (const name of ['unit', 'vscode', 'e2e']) {
  const r = JSON.parse(readFileSync(join(results, `${name}.json`), 'utf8'));
  console.log(`${name}: ${r.passed} passed, ${r.failed} failed`);
  passed += r.passed;
  failed += r.failed;
}
if (!ok && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
