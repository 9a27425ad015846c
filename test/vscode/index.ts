// Entry point VS Code calls in the extension host (extensionTestsPath): runs one phase's suites
// with mocha and reports to the runner through a results file and the workbench log.
// Bundled by test/host/bundle.ts to out/vscode-tests/index.js; the suites of phase P are in
// suites-P.js next to it. Both `describe/it` (bdd) and `suite/test` (tdd) are available.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { mapErrorStack } from './sourceMaps';
import { REPORT_LINE_PREFIX, RUN_CONTEXT_FILE, TEST_ENV, type RunContext, type TestResults } from './protocol';

// A bound, not a budget: a busy machine makes a test slower, and only a hung one should reach it.
const TEST_TIMEOUT_MS = 120_000;

export async function run(): Promise<void> {
  const context = readRunContext();
  const phase = process.env[TEST_ENV.phase] || context?.phase || 'main';
  const resultsPath =
    process.env[TEST_ENV.results] || context?.resultsPath || path.join(__dirname, `results-${phase}.json`);
  const grep = process.env[TEST_ENV.grep] || context?.grep || undefined;

  const output: string[] = [];
  const results: TestResults = { phase, passed: 0, failed: 0, pending: 0, failures: [], output };
  const emit = (text: string): void => {
    for (const line of text.split('\n')) {
      output.push(line);
      console.log(`${REPORT_LINE_PREFIX}${line}`);
    }
  };
  // The spec reporter prints through Base.consoleLog with printf-style arguments; the workbench
  // log joins raw arguments with commas, so format here and tag each line for the runner.
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const originalConsoleLog = base.consoleLog;
  base.consoleLog = (...args: unknown[]) => emit(util.format(...args));

  try {
    const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: TEST_TIMEOUT_MS, color: false });
    Mocha.interfaces.tdd(mocha.suite);
    if (grep) mocha.grep(grep);
    const suites = path.join(__dirname, `suites-${phase}.js`);
    if (!fs.existsSync(suites)) throw new Error(`no suites bundle for phase "${phase}" (${suites})`);
    mocha.addFile(suites);
    emit(`phase ${phase}: VS Code ${vscode.version}${grep ? `, grep ${JSON.stringify(grep)}` : ''}`);

    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', () => {
        results.passed++;
      });
      runner.on('pending', () => {
        results.pending++;
      });
      runner.on('fail', (test: Mocha.Runnable, err: unknown) => {
        // Before the reporter prints it at the end: frames point at test/**/*.ts and src/**/*.ts, not the bundles.
        mapErrorStack(err);
        results.failed++;
        results.failures.push({ title: test.fullTitle(), error: describeError(err) });
      });
    });
  } catch (err) {
    // Suites that fail to load (a throwing import, a syntax error) are a failure, never zero tests.
    results.failed++;
    results.failures.push({ title: `phase ${phase}: loading the suites`, error: describeError(err) });
    emit(`phase ${phase} could not run: ${describeError(err)}`);
  } finally {
    base.consoleLog = originalConsoleLog;
  }

  fs.mkdirSync(path.dirname(resultsPath), { recursive: true });
  fs.writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  if (results.failed > 0) {
    throw new Error(`${results.failed} test(s) failed in phase ${phase}`);
  }
}

function readRunContext(): RunContext | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, RUN_CONTEXT_FILE), 'utf8')) as RunContext;
  } catch {
    return undefined;
  }
}

function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
