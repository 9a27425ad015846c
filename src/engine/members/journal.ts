/**
 * The members' journals: the engine's journal files, each read with the members' schema. Journals from before there
 * were kinds are members', and live in the storage folder's own `journal/` folder.
 */
import * as files from '../journalFile';
import { memberJournal } from './journalSchema';
import type { JournalOrigin, JournalRecord, JournalRequest, JournalWork, MemberBefore } from './model';

export { journalFolderOf } from '../journalFile';
export { memberJournal } from './journalSchema';

/** An open members journal. */
export type MemberJournal = files.Journal<JournalWork, MemberBefore, JournalRequest, JournalOrigin>;

/** One members journal, checked line by line (throws 'invalid-input' for an edited one). */
export function readJournal(file: string): Promise<JournalRecord & { readonly wholeBytes: number | undefined }> {
  return files.readJournal(memberJournal, file);
}

/** Every members journal, newest first. */
export function listJournals(storageFolder: string): Promise<JournalRecord[]> {
  return files.listJournals(memberJournal, storageFolder);
}

/** Member runs that stopped without finishing, newest first (a locked one is running and is not listed). */
export function unfinishedJournals(storageFolder: string): Promise<JournalRecord[]> {
  return files.unfinishedJournals(memberJournal, storageFolder);
}

/** The newest member run that "Undo Last Apply" would undo. */
export function lastUndoable(storageFolder: string): Promise<JournalRecord | undefined> {
  return files.lastUndoable(memberJournal, storageFolder);
}

/** Marks an unfinished member run as resolved without resuming it. */
export function discardJournal(stale: Pick<JournalRecord, 'file'>): Promise<void> {
  return files.discardJournal(memberJournal, stale);
}
