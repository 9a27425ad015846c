import { appendFileSync } from 'node:fs';

/**
 * Every secret a test uses is recorded here, outside VS Code's user-data folder, so that after the
 * whole run the runner can search that folder (settings, state databases, logs) for each of them.
 */
export function recordSecret(kind: string, value: string | undefined): void {
  const file = process.env.PORTAL_TEST_SECRETS_FILE;
  if (!file || !value) return;
  appendFileSync(file, `${JSON.stringify({ kind, value })}\n`);
}
