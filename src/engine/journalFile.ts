/**
 * The journal's files: one JSON Lines file per run in `<storage>/journal/`, each line appended and fsynced before
 * append resolves, so a crash or a reload leaves exactly what was about to happen. A torn last line (the crash hit
 * the write) is ignored on reading: its request was never sent, because sending waits for the line.
 *
 * One writer per journal at a time, across windows and processes: an open journal holds the file's lock (see
 * node/fileLock) until it is closed, so a running apply is never offered as interrupted and never resumed twice.
 * The files are the user's alone (0600 in a 0700 folder) and opened append-only, never through a link: a journal file
 * or folder that is a link is refused, and the folder is held to the storage folder it belongs to.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PortalError } from '../api/index';
import { insideRoot, listFolder, openAppend, readText, type FileHandle } from '../node/disk';
import { isLocked, tryLock, type FileLock } from '../node/fileLock';
import { inFolder, privateFolder } from '../node/privateFiles';
import type { ZodType } from 'zod';
import { checkEntry, checkJournalRecord, invalidJournal, jsonLine, memberEntry } from './journalSchema';
import { settingsEntry } from './settings/journalSchema';
import { uploadEntry } from './uploads/journalSchema';
import type { JournalEntry, JournalRecord } from './members/model';

type Begin = Extract<JournalEntry, { type: 'begin' }>;
type Intent = Extract<JournalEntry, { type: 'intent' }>;
type Outcome = Extract<JournalEntry, { type: 'outcome' }>;
type End = Extract<JournalEntry, { type: 'end' }>;

const SUFFIX = '.jsonl';

/** The journal folder under a storage folder. */
export function journalFolderOf(storageFolder: string): string {
  return join(storageFolder, 'journal');
}

/**
 * An open journal: append-only, each line durable before append resolves; lines are written in call order. Lines
 * appended while a write is under way go together in the next write and share its fsync (a group commit), so eight
 * workers do not wait in line for eight fsyncs.
 */
export class Journal {
  private pending: Array<{ line: string; resolve: () => void; reject: (error: unknown) => void }> = [];
  private writing = false;

  private constructor(
    readonly applyId: string,
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly lock: FileLock,
  ) {}

  /** Creates the run's file (and the folders) with its `begin` line, holding its lock until closed. */
  static async create(storageFolder: string, begin: Omit<Begin, 'type' | 'applyId'>): Promise<Journal> {
    const folder = await privateFolder(journalFolderOf(storageFolder));
    await insideRoot(storageFolder, folder);
    // Sortable by time; the random part keeps two runs in the same millisecond apart.
    const applyId = `${String(Date.now()).padStart(14, '0')}-${randomBytes(4).toString('hex')}`;
    const file = inFolder(folder, `${applyId}${SUFFIX}`);
    // Locked before the file exists, so no reader ever sees this run without its lock.
    const lock = await tryLock(file);
    if (!lock) throw busy();
    try {
      const handle = await openAppend(file, { exclusive: true });
      const journal = new Journal(applyId, file, handle, lock);
      await journal.write({ type: 'begin', applyId, ...begin });
      return journal;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /**
   * Opens an existing run's file to append to it (a resume, a discard), taking its lock: throws 'conflict' while
   * another window or process has it open. `record` is the journal read again under the lock: what another writer
   * added since the caller read it counts, so nothing is done twice.
   */
  static async reopen(record: Pick<JournalRecord, 'file'>): Promise<{ journal: Journal; record: JournalRecord }> {
    const lock = await tryLock(record.file);
    if (!lock) throw busy();
    try {
      const fresh = await readJournal(record.file);
      const handle = await openAppend(record.file);
      // A crash mid-line left a torn last line, whose request was never sent (sending waits for the line): it goes,
      // so the next line is not glued to it.
      if (fresh.wholeBytes !== undefined) await handle.truncate(fresh.wholeBytes);
      return { journal: new Journal(fresh.applyId, record.file, handle, lock), record: fresh };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Appends one line and fsyncs it. */
  append(entry: Exclude<JournalEntry, { type: 'begin' }>): Promise<void> {
    return this.write(entry);
  }

  private write(entry: JournalEntry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ line, resolve, reject });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.handle.appendFile(batch.map((b) => b.line).join(''), 'utf8');
        await this.handle.datasync();
        for (const b of batch) b.resolve();
      } catch (error) {
        // A failed write fails its own appends; later appends still try.
        for (const b of batch) b.reject(error);
      }
    }
    this.writing = false;
  }

  async close(): Promise<void> {
    while (this.writing || this.pending.length > 0) await new Promise((r) => setImmediate(r));
    try {
      await this.handle.close();
    } finally {
      await this.lock.release();
    }
  }
}

function busy(): PortalError {
  return new PortalError({
    kind: 'conflict',
    endpoint: '',
    message: 'This apply is already running, in this window or another: wait for it to finish.',
  });
}

/**
 * Reads one journal file, checking every line against the journal's schema: a journal can be edited by anyone who
 * can write the file, and a resume sends what it says. A torn last line (a crash mid-write) is ignored; any other
 * line that is not a valid entry makes the whole journal invalid (throws 'invalid-input').
 */
export async function readJournal(file: string): Promise<JournalRecord & { readonly wholeBytes: number | undefined }> {
  const text = await readText(file);
  let begin: Begin | undefined;
  const intents = new Map<number, Intent>();
  const outcomes = new Map<number, Outcome>();
  let end: End | undefined;
  const lines = text.split('\n');
  const tornTail = lines.at(-1) !== '';
  // With a torn tail: the length of the whole lines before it.
  const wholeBytes = tornTail ? Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)) : undefined;
  let schema: ZodType | undefined;
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    const json = jsonLine(line, i === lines.length - 1 && tornTail);
    if (json === undefined) continue;
    schema ??= schemaOf(json);
    const entry = checkEntry<JournalEntry>(schema, json);
    if (entry.type === 'begin') begin = entry;
    else if (entry.type === 'intent') intents.set(entry.seq, entry);
    else if (entry.type === 'outcome') outcomes.set(entry.seq, entry);
    else end = entry;
  }
  if (!begin) throw new Error(`Not a journal: ${file}`);
  const unfinished = end === undefined || [...intents.keys()].some((seq) => !outcomes.has(seq));
  const record = { applyId: begin.applyId, file, begin, intents, outcomes, end, unfinished };
  checkJournalRecord(record, file);
  return { ...record, wholeBytes };
}

/** Each kind's lines: the first line (`begin`) names the kind; journals from before there were kinds are members'. */
const SCHEMAS: Readonly<Record<string, ZodType>> = {
  members: memberEntry,
  uploads: uploadEntry,
  settings: settingsEntry,
};

function schemaOf(first: unknown): ZodType {
  const kind = typeof first === 'object' && first !== null && 'kind' in first ? first.kind : 'members';
  const schema = typeof kind === 'string' ? SCHEMAS[kind] : undefined;
  if (!schema) throw invalidJournal('', 'its kind of work is not one this extension runs.');
  return schema;
}

/** Every journal in the storage folder, newest first; unreadable files and links are left out. */
export async function listJournals(storageFolder: string): Promise<JournalRecord[]> {
  const folder = journalFolderOf(storageFolder);
  let names: string[];
  try {
    await insideRoot(storageFolder, folder);
    names = (await listFolder(folder)).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
  const records: JournalRecord[] = [];
  for (const name of names
    .filter((n) => n.endsWith(SUFFIX))
    .sort()
    .reverse()) {
    try {
      records.push(await readJournal(join(folder, name)));
    } catch {
      // Not ours, or torn before its first line was durable: nothing was sent for it.
    }
  }
  return records;
}

/**
 * Runs that stopped without finishing (what the next start offers to resume or undo), newest first. A run whose
 * journal is locked is running (in this window or another) and is not one of them.
 */
export async function unfinishedJournals(storageFolder: string): Promise<JournalRecord[]> {
  const unfinished: JournalRecord[] = [];
  for (const r of await listJournals(storageFolder)) if (r.unfinished && !(await isLocked(r.file))) unfinished.push(r);
  return unfinished;
}

/**
 * The newest finished run that changed something and has not been undone (for "Undo Last Apply"). Undo runs are
 * not offered themselves: undoing again goes one run further back, like an editor's undo stack.
 */
export async function lastUndoable(storageFolder: string): Promise<JournalRecord | undefined> {
  const all = await listJournals(storageFolder);
  const undone = new Set(all.map((r) => r.begin.undoOf).filter((id): id is string => id !== undefined));
  return all.find(
    (r) =>
      !r.unfinished &&
      !r.end?.discarded &&
      r.begin.origin !== 'undo' &&
      !undone.has(r.applyId) &&
      [...r.outcomes.values()].some((o) => o.result === 'done'),
  );
}

/** Marks a run as resolved without resuming (the user chose "Discard"): the next start no longer offers it. */
export async function discardJournal(stale: JournalRecord): Promise<void> {
  const { journal, record } = await Journal.reopen(stale);
  try {
    if (!record.unfinished) return;
    for (const seq of record.intents.keys())
      if (!record.outcomes.has(seq))
        await journal.append({ type: 'outcome', seq, result: 'skipped', message: 'Discarded before it was resumed.' });
    await journal.append({ type: 'end', finishedAt: Date.now(), cancelled: true, discarded: true });
  } finally {
    await journal.close();
  }
}
