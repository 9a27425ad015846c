// The one emulated portal a whole test run shares, so what the main phase signs in to is still
// there after the extension-host restart. Suites find it through PORTAL_TEST_EMULATOR_URL.
import * as path from 'node:path';
import { RESULTS_DIR } from './paths';

export const EMULATOR_URL_ENV = 'PORTAL_TEST_EMULATOR_URL';
/** test/vscode/support/leaks.ts appends the secrets the suites use here (one JSON object a line), outside the user-data-dir on purpose. */
export const SECRETS_FILE_ENV = 'PORTAL_TEST_SECRETS_FILE';
export const SECRETS_FILE = path.join(RESULTS_DIR, 'vscode-secrets.jsonl');

export interface SharedEmulator {
  url: string;
  stop(): Promise<void>;
}

/** Loaded lazily, so a broken emulator fails the run (counted), not the runner's import. */
export async function startSharedEmulator(): Promise<SharedEmulator> {
  const { startEmulator } = await import('../emulator');
  return startEmulator({ port: 0, seed: 'demo', quiet: true });
}
