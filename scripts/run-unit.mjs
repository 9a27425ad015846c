// Runs the unit tier (node:test, no VS Code). Node 20's --test cannot glob .ts files, so we list them here.
// Usage: node scripts/run-unit.mjs [filter-substring ...]
// Writes a TAP copy to test-results/unit.tap so scripts/test.mjs can add the tiers up.
import { readdirSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

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
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-timeout=300000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${relative(root, join(root, 'test-results', 'unit.tap'))}`,
    ...files,
  ],
  // A test that fails with a server still open keeps its file, and so the tier, running: past this, the tier fails.
  // (--test-force-exit would end it too, but before the TAP file is written out.)
  { cwd: root, stdio: 'inherit', timeout: 20 * 60_000, killSignal: 'SIGKILL' },
);
if (result.error) console.error(`The unit tier was stopped: ${result.error.message}`);
process.exit(result.status ?? 1);
