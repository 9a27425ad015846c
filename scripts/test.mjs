// The one test command (`npm test`): type-check and lint, the unit tier, then the tier inside real VS Code.
// Each tier leaves {passed, failed} in test-results/<tier>.json; the last line printed is their sum.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const results = join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

function run(label, command, args) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  console.log(`=== ${label}: exit ${r.status ?? r.signal} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.status === 0;
}

function tapCounts(file) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const n = (key) => Number((text.match(new RegExp(`^# ${key} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
  return { passed: n('pass'), failed: n('fail') + n('cancelled') };
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let ok = run('check', npm, ['run', '--silent', 'check']);

const unitOk = run('unit', process.execPath, [join('scripts', 'run-unit.mjs')]);
const unit = tapCounts(join(results, 'unit.tap'));
// A tier that crashed before reporting must not read as "0 failed".
if (!unitOk && unit.failed === 0) unit.failed = 1;
writeFileSync(join(results, 'unit.json'), JSON.stringify(unit));
ok = unitOk && ok;

const vscodeOk = run('vscode', npm, ['run', '--silent', 'test:vscode']);
ok = vscodeOk && ok;
if (!vscodeOk && !existsSync(join(results, 'vscode.json'))) {
  writeFileSync(join(results, 'vscode.json'), JSON.stringify({ passed: 0, failed: 1 }));
}

let passed = 0;
let failed = 0;
for (const f of readdirSync(results).filter((f) => f.endsWith('.json')).sort()) {
  const r = JSON.parse(readFileSync(join(results, f), 'utf8'));
  console.log(`${f.replace(/\.json$/, '')}: ${r.passed} passed, ${r.failed} failed`);
  passed += r.passed;
  failed += r.failed;
}
if (!ok && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
