// Runs every Playwright flow through the real workbench (test/e2e/*.e2e.ts, each exporting
// `run(ctx)`), one after the other, and reports like the other tiers:
//   prints `e2e: N passed, N failed` and writes test-results/e2e.json {passed, failed}.
//
// Usage: node --import tsx test/e2e/run.ts [--update-docs] [filter ...]   (a filter matches a flow's file name)
//
// Screenshots go to test-results/screenshots/, so a test run leaves the checkout clean. With --update-docs
// (`npm run screenshots`) they replace the committed images in docs/images/ instead.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RESULTS_DIR, REPO_ROOT } from '../host/paths';
import { formatDuration } from '../host/proc';

export interface FlowContext {
  /**
   * Where a flow keeps the screenshots a person should look at: test-results/screenshots/ (gitignored), or
   * docs/images/ (committed, shown by the README and docs) with --update-docs.
   */
  readonly imagesDir: string;
  /** Where a flow leaves what helps after a failure (gitignored). */
  readonly resultsDir: string;
  log(line: string): void;
}

interface Flow {
  run(ctx: FlowContext): Promise<void>;
}

/** A flow that has not finished by then is stuck: it fails, and the next one runs. */
const FLOW_TIMEOUT_MS = 15 * 60_000;

const UPDATE_DOCS_FLAG = '--update-docs';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a.startsWith('--') && a !== UPDATE_DOCS_FLAG);
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(', ')} (known: ${UPDATE_DOCS_FLAG})`);
  const updateDocs = args.includes(UPDATE_DOCS_FLAG);
  const filters = args.filter((a) => !a.startsWith('--'));
  const dir = __dirname;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.e2e.ts'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
  const imagesDir = updateDocs ? path.join(REPO_ROOT, 'docs', 'images') : path.join(RESULTS_DIR, 'screenshots');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.mkdirSync(imagesDir, { recursive: true });
  // Each line says when, in seconds since its flow started: where a flow spends its time, or stalls, reads off the log.
  let flowStarted = Date.now();
  const ctx: FlowContext = {
    imagesDir,
    resultsDir: RESULTS_DIR,
    log: (line) => console.log(`    ${((Date.now() - flowStarted) / 1000).toFixed(1)} s: ${line}`),
  };
  let passed = 0;
  let failed = 0;
  const failures: Array<{ title: string; error: string }> = [];
  console.log(`e2e flows: ${files.length}; screenshots to ${path.relative(REPO_ROOT, imagesDir)}/`);
  for (const file of files) {
    const started = Date.now();
    flowStarted = started;
    try {
      const flow = (await import(path.join(dir, file))) as Partial<Flow>;
      if (typeof flow.run !== 'function') throw new Error(`${file} exports no run(ctx)`);
      await withTimeout(flow.run(ctx), FLOW_TIMEOUT_MS, file);
      passed++;
      console.log(`  ✔ ${file} (${formatDuration(Date.now() - started)})`);
    } catch (err) {
      failed++;
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      failures.push({ title: file, error });
      console.log(
        `  ✗ ${file} (${formatDuration(Date.now() - started)})\n${error
          .split('\n')
          .map((l) => `      ${l}`)
          .join('\n')}`,
      );
    }
  }
  if (files.length === 0) {
    failed++;
    failures.push({ title: 'e2e', error: `no flow matched ${filters.join(', ') || '*.e2e.ts'}` });
  }
  fs.writeFileSync(path.join(RESULTS_DIR, 'e2e.json'), `${JSON.stringify({ passed, failed, failures }, null, 2)}\n`);
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${formatDuration(ms)}`)), ms);
    }),
  ]);
}

main().then(
  // Exit explicitly: a flow's leftover handle must not keep the runner alive.
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
