/**
 * What the first half of "an access matrix read interrupted by a restart" (suites/main/members/access.test.ts) hands
 * to the second (suites/restart/matrix-resume.test.ts): the members and the emulator's count of each one's reads
 * before the restart. Kept beside the phase results, which outlive the extension host, and not in the emulator, whose
 * counting rules would also count what other suites read in between.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Both halves' titles hold it, so one --grep runs the pair. */
export const ACCESS_RESTART = 'access matrix read interrupted by a restart';

export interface AccessRestartRecord {
  readonly portalId: string;
  readonly accountId: number;
  readonly members: readonly string[];
  /** The emulator's count of each member's v2 reads before the restart. */
  readonly reads: Readonly<Record<string, number>>;
}

function recordFile(): string {
  const results = process.env.PORTAL_TEST_RESULTS;
  if (!results) throw new Error('PORTAL_TEST_RESULTS is not set: the runner provides it');
  return path.join(path.dirname(results), 'vscode-access-restart.json');
}

/** A record a run left behind when its second half never ran. */
export function dropAccessRestartRecord(): void {
  fs.rmSync(recordFile(), { force: true });
}

export function writeAccessRestartRecord(record: AccessRestartRecord): void {
  fs.writeFileSync(recordFile(), JSON.stringify(record));
}

/** The record, removed as it is read so that a later run never takes it for its own. */
export function takeAccessRestartRecord(): AccessRestartRecord {
  const file = recordFile();
  const record = JSON.parse(fs.readFileSync(file, 'utf8')) as AccessRestartRecord;
  fs.rmSync(file, { force: true });
  return record;
}
