/**
 * Whether the web workbench has saved its editor layout (the tabs it reopens after a restart) with a given tab in it.
 *
 * The web workbench keeps its layout in the browser's IndexedDB and writes it only when it flushes its state: when
 * the page is idle, has focus and no earlier write is pending, or at a shutdown. The test runner ends a phase by
 * closing the browser, with no shutdown, so a test that leaves a tab for the next phase must wait for that write.
 * How soon it comes depends on how busy the machine is, so the test waits for the write itself: Chromium stores
 * IndexedDB in LevelDB, whose log files hold every write as it is made. This reads those logs (format: 32 KiB blocks
 * of checksummed fragments, joined into records) for a record of the editor layout that holds every marker.
 *
 * The desktop runner (test/host/electron.ts) quits VS Code in an orderly way, which saves the state: there the
 * runner sets no profile and there is nothing to wait for.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Printed by a test once the layout it leaves for the next phase is saved. The runner then stops the workbench's
 * idle saves for the rest of the phase: once the extension host has exited, a webview has no serializer, and a save
 * made then (before the browser is closed) would drop the tab from the layout.
 */
export const FREEZE_LAYOUT_LINE = '[portal-test] the layout for the next phase is saved';

/** Set by the runner to the browser profile the workbench runs in. */
export const BROWSER_PROFILE_ENV = 'PORTAL_TEST_BROWSER_PROFILE';

const BLOCK = 32 * 1024;
const HEADER = 7;
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;
/** The storage key of the editor layout, as IndexedDB's LevelDB coding writes a key: UTF-16, big-endian. */
const LAYOUT_KEY = Buffer.from('memento/workbench.parts.editor', 'utf16le').swap16();
/** The last property of the layout's value: other keys written in the same batch come after it. */
const LAYOUT_END = 'mostRecentActiveGroups';

/** Where each LevelDB log of the profile's IndexedDB ends now: what is written later is new. */
export type LogMarks = ReadonlyMap<string, number>;

function logFiles(): string[] {
  const profile = process.env[BROWSER_PROFILE_ENV];
  if (!profile) return [];
  const root = path.join(profile, 'Default', 'IndexedDB');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .filter((d) => d.endsWith('.indexeddb.leveldb'))
    .flatMap((d) =>
      fs
        .readdirSync(path.join(root, d))
        .filter((f) => f.endsWith('.log'))
        .map((f) => path.join(root, d, f)),
    );
}

/** Marks the end of every log now; undefined when the runner keeps no browser profile (the desktop runner). */
export function markLogs(): LogMarks | undefined {
  if (!process.env[BROWSER_PROFILE_ENV]) return undefined;
  return new Map(logFiles().map((f) => [f, fs.statSync(f).size]));
}

/** The log's records that start at or after `from`, each with its fragments joined. */
function records(file: string, from: number): Buffer[] {
  const data = fs.readFileSync(file);
  const out: Buffer[] = [];
  let parts: Buffer[] = [];
  let start = 0;
  for (let block = 0; block < data.length; block += BLOCK) {
    let at = block;
    const end = Math.min(block + BLOCK, data.length);
    while (at + HEADER <= end) {
      const length = data.readUInt16LE(at + 4);
      const type = data[at + 6];
      if (type === 0 && length === 0) break; // the block's zero-filled tail
      const body = data.subarray(at + HEADER, at + HEADER + length);
      if (type === FULL || type === FIRST) {
        parts = [body];
        start = at;
      } else if (type === MIDDLE || type === LAST) parts.push(body);
      if ((type === FULL || type === LAST) && start >= from) out.push(Buffer.concat(parts));
      at += HEADER + length;
    }
  }
  return out;
}

/** Where `text` first occurs, in either of the two string encodings Chromium stores (-1: nowhere). */
function find(data: Buffer, text: string, from = 0): number {
  const found = [data.indexOf(Buffer.from(text, 'latin1'), from), data.indexOf(Buffer.from(text, 'utf16le'), from)];
  const at = found.filter((i) => i >= 0);
  return at.length > 0 ? Math.min(...at) : -1;
}

/** The layout's value in a record: from its key to the last property the workbench writes in it. */
function layoutIn(record: Buffer): Buffer | undefined {
  const key = record.indexOf(LAYOUT_KEY);
  if (key < 0) return undefined;
  const end = find(record, LAYOUT_END, key);
  return end < 0 ? undefined : record.subarray(key, end);
}

/** What each question last saw of the logs' sizes: asked again with nothing grown, the answer is still no. */
const lastSeen = new WeakMap<LogMarks, string>();

/**
 * Whether a layout holding every marker was written since `marks`. Cheap to ask often: the logs are read again only
 * when they have grown.
 */
export function layoutSavedSince(marks: LogMarks, markers: readonly string[]): boolean {
  const files = logFiles();
  const seen = [...markers, ...files.map((f) => `${f}:${fs.statSync(f).size}`)].join('\n');
  if (lastSeen.get(marks) === seen) return false;
  lastSeen.set(marks, seen);
  return files.some((file) =>
    records(file, marks.get(file) ?? 0).some((r) => {
      const layout = layoutIn(r);
      return layout !== undefined && markers.every((m) => find(layout, m) >= 0);
    }),
  );
}
