// Temp folders for tests, every one removed when the run ends. What a test writes there can be people's data from
// the seed (exports, snapshots, journals), and runs that left their folders behind filled /tmp with hundreds of them.
// Removed when the test process exits (node:test runs each file in a process of its own) and, in the VS Code
// extension host, whose process may be ended without an exit event, by a hook after every suite of the phase.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made = new Set<string>();
let hooked = false;

/** Removes every folder tempDir made so far, with what is in it. */
export function removeTempDirs(): void {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  made.clear();
}

function hookOnce(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', removeTempDirs);
  // Mocha's root `after`, where this runs under mocha (node:test has no such global).
  const mochaAfter = (globalThis as { after?: unknown }).after;
  if (typeof mochaAfter === 'function' && typeof (globalThis as { suiteSetup?: unknown }).suiteSetup === 'function')
    (mochaAfter as (fn: () => void) => void)(removeTempDirs);
}

hookOnce();

/** A new, empty folder under the system's temp folder, named from `prefix`; removed when the run ends. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  return dir;
}
