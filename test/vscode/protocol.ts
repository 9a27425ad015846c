// The contract between the test runner (test/host/run.ts, outside VS Code) and the tests'
// run() (inside the extension host). Both sides import this file; keep it free of imports.

/** Environment the runner passes to code-server; the extension host inherits it. */
export const TEST_ENV = {
  /** Which suites to run: test/vscode/suites/<phase>/ (bundled as suites-<phase>.js). */
  phase: 'PORTAL_TEST_PHASE',
  /** Where run() writes its TestResults JSON. */
  results: 'PORTAL_TEST_RESULTS',
  /** Optional mocha --grep. */
  grep: 'PORTAL_TEST_GREP',
  /** The VS Code version the runner found in code-server's lib/vscode/package.json. */
  vscodeVersion: 'PORTAL_TEST_VSCODE_VERSION',
  /** Absolute path of the repository (its package.json is the manifest the tests check against). */
  extensionRoot: 'PORTAL_TEST_EXTENSION_ROOT',
  /** A nonce that is also in run-context.json, so a test can prove the environment reached the extension host. */
  marker: 'PORTAL_TEST_MARKER',
} as const;

/** Also written next to the tests bundle, as a second channel that does not depend on the environment. */
export const RUN_CONTEXT_FILE = 'run-context.json';

export interface RunContext {
  phase: string;
  marker: string;
  vscodeVersion: string;
  extensionRoot: string;
  resultsPath: string;
  grep?: string;
}

/** Lines of mocha's report carry this prefix on the way out, so the runner can pick them out of the workbench log. */
export const REPORT_LINE_PREFIX = 'portal-test| ';

export interface TestFailure {
  title: string;
  error: string;
}

export interface TestResults {
  phase: string;
  passed: number;
  failed: number;
  pending: number;
  failures: TestFailure[];
  /** mocha's report, line by line (the runner prints what did not reach it through the log). */
  output: string[];
}
