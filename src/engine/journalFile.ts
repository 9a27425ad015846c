/**
 * The journal's files: one JSON Lines file per run in `<storage>/journal/`, each line appended and fsynced before
 * append resolves, so a crash or a reload leaves exactly what was about to happen. A torn last line (the crash hit
 * the write) is ignored on reading: its request was never sent, because sending waits for the line.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
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
  ) {}

  /** Creates the run's file (and the folders) with its `begin` line. */
  static async create(storageFolder: string, begin: Omit<Begin, 'type' | 'applyId'>): Promise<Journal> {
    const folder = journalFolderOf(storageFolder);
    await mkdir(folder, { recursive: true });
    // Sortable by time; the random part keeps two runs in the same millisecond apart.
    const applyId = `${String(Date.now()).padStart(14, '0')}-${randomBytes(4).toString('hex')}`;
    const file = join(folder, `${applyId}${SUFFIX}`);
    const handle = await open(file, 'wx');
    const journal = new Journal(applyId, file, handle);
    await journal.write({ type: 'begin', applyId, ...begin });
    return journal;
  }

  /** Opens an existing run's file to append to it (a resume). */
  static async reopen(record: JournalRecord): Promise<Journal> {
    return new Journal(record.applyId, record.file, await open(record.file, 'a'));
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
    await this.handle.close();
  }
}

/** Reads one journal file; a torn last line (a crash mid-write) is ignored. Throws for a file without its begin line. */
export async function readJournal(file: string): Promise<JournalRecord> {
  const text = await readFile(file, 'utf8');
  let begin: Begin | undefined;
  const intents = new Map<number, Intent>();
  const outcomes = new Map<number, Outcome>();
  let end: End | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let entry: JournalEntry;
    try {
      entry = JSON.parse(line) as JournalEntry;
    } catch {
      continue;
    }
    if (entry.type === 'begin') begin = entry;
    else if (entry.type === 'intent') intents.set(entry.seq, entry);
    else if (entry.type === 'outcome') outcomes.set(entry.seq, entry);
    else if (entry.type === 'end') end = entry;
  }
  if (!begin) throw new Error(`Not a journal: ${file}`);
  const unfinished = end === undefined || [...intents.keys()].some((seq) => !outcomes.has(seq));
  return { applyId: begin.applyId, file, begin, intents, outcomes, end, unfinished };
}

/** Every journal in the storage folder, newest first; unreadable files are left out. */
export async function listJournals(storageFolder: string): Promise<JournalRecord[]> {
  const folder = journalFolderOf(storageFolder);
  let names: string[];
  try {
    names = await readdir(folder);
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

/** Runs that stopped without finishing (what the next start offers to resume or undo), newest first. */
export async function unfinishedJournals(storageFolder: string): Promise<JournalRecord[]> {
  return (await listJournals(storageFolder)).filter((r) => r.unfinished);
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
export async function discardJournal(record: JournalRecord): Promise<void> {
  const journal = await Journal.reopen(record);
  try {
    for (const seq of record.intents.keys())
      if (!record.outcomes.has(seq))
        await journal.append({ type: 'outcome', seq, result: 'skipped', message: 'Discarded before it was resumed.' });
    await journal.append({ type: 'end', finishedAt: Date.now(), cancelled: true, discarded: true });
  } finally {
    await journal.close();
  }
}
