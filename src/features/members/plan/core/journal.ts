/**
 * The journal of an apply (and of a bulk edit): one JSON Lines file per run in `<storage>/journal/`, each line
 * written and fsynced before the request it announces, so a crash or a reload leaves a record of exactly what was
 * about to happen. `resumeApply` finishes an unfinished run, checking each started-but-unconfirmed member against
 * the portal first, so nothing is done twice and nothing is lost; `undoPlan` turns a run back.
 */
import type { ApplyClient, ApplyOptions, ApplyResult } from './apply';
import type { JournalEntry, JournalRecord, Plan } from './model';

/** An open journal: append-only, each line durable before append resolves. */
export class Journal {
  private constructor(
    readonly applyId: string,
    readonly file: string,
  ) {}

  /** Creates the run's file (and the folder) with its `begin` line. */
  static async create(
    folder: string,
    begin: Omit<Extract<JournalEntry, { type: 'begin' }>, 'type' | 'applyId'>,
  ): Promise<Journal> {
    void folder;
    void begin;
    void Journal.prototype;
    throw new Error('not yet');
  }

  /** Appends one line and fsyncs it. */
  async append(entry: Exclude<JournalEntry, { type: 'begin' }>): Promise<void> {
    void entry;
    throw new Error('not yet');
  }

  async close(): Promise<void> {
    throw new Error('not yet');
  }
}

/** The journal folder under a storage folder. */
export function journalFolderOf(storageFolder: string): string {
  void storageFolder;
  throw new Error('not yet');
}

/** Reads one journal file; a torn last line (a crash mid-write) is ignored. */
export async function readJournal(file: string): Promise<JournalRecord> {
  void file;
  throw new Error('not yet');
}

/** Every journal in the folder, newest first. */
export async function listJournals(storageFolder: string): Promise<JournalRecord[]> {
  void storageFolder;
  throw new Error('not yet');
}

/** Runs that stopped without finishing (what the next start offers to resume or undo), newest first. */
export async function unfinishedJournals(storageFolder: string): Promise<JournalRecord[]> {
  void storageFolder;
  throw new Error('not yet');
}

/** The newest run that changed something and has not been undone (for "Undo Last Apply"). */
export async function lastUndoable(storageFolder: string): Promise<JournalRecord | undefined> {
  void storageFolder;
  throw new Error('not yet');
}

/**
 * Finishes an unfinished run: each member started but not confirmed is read from the portal; if the portal already
 * shows the change it counts as done, if it still shows the previous values the change is sent, and otherwise (it
 * was changed by someone else meanwhile) it is reported as failed, untouched. Members never started are run. The
 * run's journal gets the outcomes and its end.
 */
export async function resumeApply(
  client: ApplyClient,
  record: JournalRecord,
  options: Omit<ApplyOptions, 'leftOut' | 'portalId'>,
): Promise<ApplyResult> {
  void client;
  void record;
  void options;
  throw new Error('not yet');
}

/**
 * The plan that puts every member the run changed back to their previous values: fields and groups back, created
 * members removed, removed members re-created (everything but the password). Pure.
 */
export function undoPlan(record: JournalRecord, now: number = Date.now()): Plan {
  void record;
  void now;
  throw new Error('not yet');
}

/** Marks a run as resolved without resuming (the user chose "Discard"): the next start no longer offers it. */
export async function discardJournal(record: JournalRecord): Promise<void> {
  void record;
  throw new Error('not yet');
}
