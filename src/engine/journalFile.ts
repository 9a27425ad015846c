/**
 * The journal's files: one JSON Lines file per run in `<storage>/journal/`, each line appended and fsynced before
 * append resolves, so a crash or a reload leaves exactly what was about to happen. A torn last line (the crash hit
 * the write) is ignored on reading: its request was never sent, because sending waits for the line.
 *
 * One writer per journal at a time, across windows and processes: an open journal holds the file's lock (see
 * node/fileLock) until it is closed, so a running apply is never offered as interrupted and never resumed twice.
 * The files are the user's alone (0600 in a 0700 folder) and opened append-only, never through a link: a journal file
 * or folder that is a link is refused, and the folder is held to the storage folder it belongs to.
 *
 * The files know no kind of work: each call names the kind's schema (JournalSchema in job.ts), every line is checked by
 * it, and a journal whose first line names another kind is not read as this one's.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PortalError } from '../api/index';
import { insideRoot, listFolder, openAppend, readText, type FileHandle } from '../node/disk';
import { isLocked, tryLock, type FileLock } from '../node/fileLock';
import { inFolder, privateFolder } from '../node/privateFiles';
import type {
  BeginEntry,
  EndEntry,
  IntentEntry,
  JournalEntryOf,
  JournalRecordOf,
  JournalSchema,
  OutcomeEntry,
  Unit,
} from './job';
import { checkJournalRecord, invalidJournal, jsonLine } from './journalSchema';

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
export class Journal<U extends Unit, B, R, O extends string = string, X extends object = object> {
  private pending: Array<{ line: string; resolve: () => void; reject: (error: unknown) => void }> = [];
  private writing = false;

  private constructor(
    readonly applyId: string,
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly lock: FileLock,
  ) {}

  /** Creates the run's file (and the folders) with its `begin` line, holding its lock until closed. */
  static async create<U extends Unit, B, R, O extends string, X extends object>(
    schema: JournalSchema<U, B, R, O, X>,
    storageFolder: string,
    begin: Omit<BeginEntry<U, O, X>, 'type' | 'applyId' | 'kind'>,
  ): Promise<Journal<U, B, R, O, X>> {
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
      const journal = new Journal<U, B, R, O, X>(applyId, file, handle, lock);
      // The compiler cannot put a generic Omit back together with what it left out, hence the cast.
      await journal.write({ type: 'begin', applyId, kind: schema.kind, ...begin } as BeginEntry<U, O, X>);
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
  static async reopen<U extends Unit, B, R, O extends string, X extends object>(
    schema: JournalSchema<U, B, R, O, X>,
    record: { readonly file: string },
  ): Promise<{ journal: Journal<U, B, R, O, X>; record: JournalRecordOf<U, B, R, O, X> }> {
    const lock = await tryLock(record.file);
    if (!lock) throw busy();
    try {
      const fresh = await readJournal(schema, record.file);
      const handle = await openAppend(record.file);
      // A crash mid-line left a torn last line, whose request was never sent (sending waits for the line): it goes,
      // so the next line is not glued to it.
      if (fresh.wholeBytes !== undefined) await handle.truncate(fresh.wholeBytes);
      return { journal: new Journal<U, B, R, O, X>(fresh.applyId, record.file, handle, lock), record: fresh };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Appends one line and fsyncs it. */
  append(entry: IntentEntry<B, R> | OutcomeEntry | EndEntry): Promise<void> {
    return this.write(entry);
  }

  private write(entry: JournalEntryOf<U, B, R, O, X>): Promise<void> {
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
 * Reads one journal file of a kind, checking every line against the kind's schema: a journal can be edited by anyone
 * who can write the file, and a resume sends what it says. A torn last line (a crash mid-write) is ignored; any other
 * line that is not a valid entry, or a first line that names another kind, makes the whole journal invalid (throws
 * 'invalid-input').
 */
export async function readJournal<U extends Unit, B, R, O extends string, X extends object>(
  schema: JournalSchema<U, B, R, O, X>,
  file: string,
): Promise<JournalRecordOf<U, B, R, O, X> & { readonly wholeBytes: number | undefined }> {
  const text = await readText(file);
  let begin: BeginEntry<U, O, X> | undefined;
  const intents = new Map<number, IntentEntry<B, R>>();
  const outcomes = new Map<number, OutcomeEntry>();
  let end: EndEntry | undefined;
  const lines = text.split('\n');
  const tornTail = lines.at(-1) !== '';
  // With a torn tail: the length of the whole lines before it.
  const wholeBytes = tornTail ? Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)) : undefined;
  let first = true;
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    const json = jsonLine(line, i === lines.length - 1 && tornTail);
    if (json === undefined) continue;
    if (first && !ofKind(schema, json)) throw invalidJournal(file, 'it is not a journal of this kind of work.');
    first = false;
    const entry = schema.parse(json);
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

/** Whether a first line names the schema's kind; a journal from before there were kinds names none. */
function ofKind(schema: JournalSchema<Unit, unknown, unknown>, first: unknown): boolean {
  const kind = typeof first === 'object' && first !== null && 'kind' in first ? first.kind : undefined;
  return kind === schema.kind || (kind === undefined && schema.unnamed === true);
}

/** Every journal of a kind in the storage folder, newest first; unreadable files, links and other kinds are left out. */
export async function listJournals<U extends Unit, B, R, O extends string, X extends object>(
  schema: JournalSchema<U, B, R, O, X>,
  storageFolder: string,
): Promise<Array<JournalRecordOf<U, B, R, O, X>>> {
  const folder = journalFolderOf(storageFolder);
  let names: string[];
  try {
    await insideRoot(storageFolder, folder);
    names = (await listFolder(folder)).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
  const records: Array<JournalRecordOf<U, B, R, O, X>> = [];
  for (const name of names
    .filter((n) => n.endsWith(SUFFIX))
    .sort()
    .reverse()) {
    try {
      records.push(await readJournal(schema, join(folder, name)));
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
export async function unfinishedJournals<U extends Unit, B, R, O extends string, X extends object>(
  schema: JournalSchema<U, B, R, O, X>,
  storageFolder: string,
): Promise<Array<JournalRecordOf<U, B, R, O, X>>> {
  const unfinished: Array<JournalRecordOf<U, B, R, O, X>> = [];
  for (const r of await listJournals(schema, storageFolder))
    if (r.unfinished && !(await isLocked(r.file))) unfinished.push(r);
  return unfinished;
}

/**
 * The newest finished run that changed something and has not been undone (for "Undo Last Apply"). Undo runs are
 * not offered themselves: undoing again goes one run further back, like an editor's undo stack.
 */
export async function lastUndoable<U extends Unit, B, R, O extends string, X extends object>(
  schema: JournalSchema<U, B, R, O, X>,
  storageFolder: string,
): Promise<JournalRecordOf<U, B, R, O, X> | undefined> {
  const all = await listJournals(schema, storageFolder);
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
export async function discardJournal<U extends Unit, B, R, O extends string, X extends object>(
  schema: JournalSchema<U, B, R, O, X>,
  stale: { readonly file: string },
): Promise<void> {
  const { journal, record } = await Journal.reopen(schema, stale);
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
