// What the two halves of "an upload interrupted by a restart" share: the files, where they are, where they go.
import * as path from 'node:path';
import { RESULTS_DIR_ENV } from './runnerEnv';

/** Files of the upload; the restart half checks each is on the portal exactly once. */
export const RESTART_FILES = 30;
/**
 * The local folder uploaded. It outlives the extension host (the restart half's resume reads it), so it is kept in
 * this checkout's test results: under a fixed name in the system's temporary folder, a second test run on the
 * machine rewrote the files between the halves, and the resume rightly refused them as changed since the plan.
 */
export function restartFolder(): string {
  const results = process.env[RESULTS_DIR_ENV];
  if (!results) throw new Error(`the test runner sets ${RESULTS_DIR_ENV}`);
  return path.join(results, 'upload-restart', 'restart-upload');
}
export const RESTART_TARGET = { accountId: 1, groupId: 104 } as const;
export const restartFileName = (i: number): string => `u-${String(i).padStart(2, '0')}.txt`;
