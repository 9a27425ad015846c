// Where the test host keeps its files. One place, so the runner, the e2e flows and the
// leak check after a run agree on every location.
import * as path from 'node:path';

/** The repository root (this file lives in test/host/). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Cache for downloaded test hosts, like the VS Code that @vscode/test-electron keeps there. Gitignored. */
export const CACHE_DIR = path.join(REPO_ROOT, '.vscode-test');

/** Everything a test run leaves behind for people and later checks. Gitignored. */
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

/**
 * The VS Code user-data-dir of the last `npm run test:vscode`. It is kept after the run
 * (and wiped at the start of the next one) so a later check can search it for leaked secrets.
 */
export const VSCODE_USER_DATA_DIR = path.join(RESULTS_DIR, 'vscode-user-data');

/**
 * The chromium profile of that run, kept likewise. In the web workbench, SecretStorage lives in
 * the browser's storage (IndexedDB), so this is where secrets are supposed to be, and the
 * user-data-dir is where they must not be.
 */
export const VSCODE_BROWSER_PROFILE_DIR = path.join(RESULTS_DIR, 'vscode-browser-profile');

/** The bundled in-VS-Code tests (`run()` entry and one suite bundle per phase). */
export const VSCODE_TESTS_OUT_DIR = path.join(REPO_ROOT, 'out', 'vscode-tests');

/** The probe extension that checks the packaged .vsix from the outside. */
export const PROBE_DIR = path.join(REPO_ROOT, 'test', 'host', 'probe');
export const PROBE_OUT_DIR = path.join(REPO_ROOT, 'out', 'vsix-probe');

/** Debian's chromium; Playwright's own browser download cannot run offline. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
