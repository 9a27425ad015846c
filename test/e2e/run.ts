// Runs every Playwright flow through the real workbench (test/e2e/*.e2e.ts, each exporting
// `run(ctx)`), two at a time, and reports like the other tiers:
//   prints `e2e: N passed, N failed` and writes test-results/e2e.json {passed, failed}.
//
// Usage: node --import tsx test/e2e/run.ts [--update-docs] [filter ...]   (a filter matches a flow's file name)
// PORTAL_E2E_LANES=1 runs them one after the other.
//
// Two lanes: a flow spends much of its time waiting on the workbench and the portal, and measured on two cores one
// flow left a third of the machine idle. Each flow has its own portal, workbench, profile and folders, so two side by
// side share nothing but the machine; each waits for states, never for a time, so a busier machine only makes it slower.
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
  const lanes = lanesWanted();
  let passed = 0;
  let failed = 0;
  const failures: Array<{ title: string; error: string }> = [];
  console.log(`e2e flows: ${files.length}, ${lanes} at a time; screenshots to ${path.relative(REPO_ROOT, imagesDir)}/`);
  const queue = [...files];
  const lane = async (): Promise<void> => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      // A flow's lines are printed together when it ends, so two flows side by side leave a log that reads.
      const started = Date.now();
      const lines: string[] = [];
      // Each line says when, in seconds since its flow started: where a flow spends its time, or stalls, reads off the log.
      const ctx: FlowContext = {
        imagesDir,
        resultsDir: RESULTS_DIR,
        log: (line) => lines.push(`    ${((Date.now() - started) / 1000).toFixed(1)} s: ${line}`),
      };
      let error: string | undefined;
      try {
        const flow = (await import(path.join(dir, file))) as Partial<Flow>;
        if (typeof flow.run !== 'function') throw new Error(`${file} exports no run(ctx)`);
        await withTimeout(flow.run(ctx), FLOW_TIMEOUT_MS, file);
      } catch (err) {
        error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      }
      for (const line of lines) console.log(line);
      const took = formatDuration(Date.now() - started);
      if (error === undefined) {
        passed++;
        console.log(`  ✔ ${file} (${took})`);
        continue;
      }
      failed++;
      failures.push({ title: file, error });
      console.log(
        `  ✗ ${file} (${took})\n${error
          .split('\n')
          .map((l) => `      ${l}`)
          .join('\n')}`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, Math.max(files.length, 1)) }, lane));
  if (files.length === 0) {
    failed++;
    failures.push({ title: 'e2e', error: `no flow matched ${filters.join(', ') || '*.e2e.ts'}` });
  }
  fs.writeFileSync(path.join(RESULTS_DIR, 'e2e.json'), `${JSON.stringify({ passed, failed, failures }, null, 2)}\n`);
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

/** How many flows run side by side: PORTAL_E2E_LANES, 2 unless it says otherwise (1 to 4). */
function lanesWanted(): number {
  const raw = process.env.PORTAL_E2E_LANES;
  if (raw === undefined || raw === '') return 2;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 4) throw new Error(`PORTAL_E2E_LANES must be 1 to 4, not "${raw}"`);
  return n;
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
