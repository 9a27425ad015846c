// Runs the unit tier (node:test, no VS Code). Node 20's --test cannot glob .ts files, so we list them here.
// Usage: node scripts/run-unit.mjs [filter-substring ...]
// Writes a TAP copy to test-results/unit.tap so scripts/test.mjs can add the tiers up.
import { readdirSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';

const root = join(import.meta.dirname, '..');
const filters = process.argv.slice(2);
const files = readdirSync(join(root, 'test', 'unit'), { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test', 'unit', f))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('No unit test files matched.');
  process.exit(1);
}
mkdirSync(join(root, 'test-results'), { recursive: true });
/** A single test may take this long (--test-timeout); a tier that reports nothing for twice that is stuck. */
const TEST_TIMEOUT_MS = 300_000;
const STALLED_MS = 2 * TEST_TIMEOUT_MS;
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    `--test-timeout=${TEST_TIMEOUT_MS}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${relative(root, join(root, 'test-results', 'unit.tap'))}`,
    ...files,
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
);
// A test that fails with a server still open keeps its file, and so the tier, running: once nothing has been reported
// for STALLED_MS, the tier is stopped and fails. A bound on progress, not on the whole tier: a busy machine that
// keeps finishing tests is never cut off. (--test-force-exit would end it too, but before the TAP file is written.)
let lastOutput = Date.now();
for (const [from, to] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
])
  from.on('data', (chunk) => {
    lastOutput = Date.now();
    to.write(chunk);
  });
let stalled = false;
const watchdog = setInterval(() => {
  if (Date.now() - lastOutput < STALLED_MS) return;
  stalled = true;
  child.kill('SIGKILL');
}, 10_000);
const status = await new Promise((resolve) => {
  child.on('error', (error) => {
    console.error(`The unit tier could not start: ${error.message}`);
    resolve(1);
  });
  child.on('close', (code) => resolve(code ?? 1));
});
clearInterval(watchdog);
if (stalled) console.error(`The unit tier was stopped: nothing was reported for ${STALLED_MS / 60_000} minutes.`);
process.exit(stalled ? 1 : status);
