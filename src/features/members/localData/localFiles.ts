/**
 * The files this extension keeps about people, found and removed: the journals of applies, bulk edits and uploads
 * (with the applies' action reports), the access matrix's store, the snapshots of members deleted for good (in the
 * folder the user chose, and in the storage's own `snapshots/` when none was chosen), the staged drops an upload
 * reads from, and chat's call log. What says which portal it is for is listed with that portal; chat's call log and
 * a staged drop no journal names are the extension's own, listed with every portal and marked so. A running apply's
 * or upload's journal (locked) is never listed for removal, nor the staged drop it reads. Old files are pruned after
 * `keepDays`, except what an unfinished run still needs; snapshots in the user's own folder are not, as they are the
 * only way back for a deleted member. Every path is held to the folder it belongs in before it is removed, so a link
 * planted for a folder never leads the removal elsewhere. No VS Code here.
 */
import * as path from 'node:path';
import {
  fileFacts,
  insideRoot,
  listFolder,
  readText,
  removeEmptyFolder,
  removeFile,
  removeFolder,
  UnsafePathError,
} from '../../../node/disk';
import { isLocked, lockFileOf } from '../../../node/fileLock';
import { portalFolder } from '../access/store/accessStoreFile';
import { reportFileOf, reportNames, reportsFolderOf } from '../plan/core/report';
import { journalFolderOf } from '../../../engine/journalFile';
import { callLogFolder } from '../../../engine/readLog';
import { snapshotsOf } from '../../../engine/members/run';
import { listSnapshots, originOf } from '../../../engine/members/snapshot';

export type LocalKind =
  'journal' | 'report' | 'access' | 'snapshot' | 'upload' | 'invitation' | 'save' | 'dropped' | 'chat' | 'review';

export interface LocalFile {
  /** A file, or for a staged drop its folder. */
  readonly file: string;
  readonly kind: LocalKind;
  readonly modified: number;
  /** The folder it must stay inside (the storage folder, or the user's snapshot folder): removed only while it is. */
  readonly root: string;
  /** The extension's own, not one portal's (chat's call log, a staged drop no journal names): listed with each. */
  readonly shared?: true;
}

const DAY_MS = 86_400_000;

/**
 * Where the uploads engine (engine/uploads/run.ts) keeps its journals, and where the records feature
 * (records/upload/dropped.ts) stages dropped files: features do not import one another, so the names are repeated
 * here, and the unit test makes both with their own code and finds them with this.
 */
const uploadJournalsOf = (storage: string): string => journalFolderOf(path.join(storage, 'uploads'));
/** Invitations hold the addresses of people invited; saves name the file records saved back (engine/invitations, saves). */
const invitationJournalsOf = (storage: string): string => journalFolderOf(path.join(storage, 'invitations'));
const saveJournalsOf = (storage: string): string => journalFolderOf(path.join(storage, 'saves'));
const stagedDropsOf = (storage: string): string => path.join(storage, 'dropped-files');
/**
 * Where the review feature (review/core/reviewFiles.ts) keeps each portal's access reviews and their evidence: one
 * folder per portal, named by the same hash as the access store's. Not pruned: a review's evidence is kept until
 * the user removes it.
 */
const reviewsOf = (storage: string, portalId: string): string => portalFolder(path.join(storage, 'reviews'), portalId);

/** The regular files below `folder` (links left out), or none when the folder leads outside `storage`. */
async function filesUnder(storage: string, folder: string): Promise<Array<{ file: string; modified: number }>> {
  try {
    await insideRoot(storage, folder);
  } catch {
    return [];
  }
  const out: Array<{ file: string; modified: number }> = [];
  for (const e of await listFolder(folder, { recursive: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    const facts = await fileFacts(file);
    if (facts?.isFile) out.push({ file, modified: facts.mtimeMs });
  }
  return out;
}

/** What a journal's first line says: whose it is, whether it finished, and the staged drops it reads from. */
interface JournalHead {
  readonly portalId: string;
  readonly applyId: string;
  readonly ended: boolean;
  readonly staged: ReadonlySet<string>;
}

/** A journal's first line, parsed enough to say whose it is; undefined for a stranger. */
async function journalHead(file: string, drops: string): Promise<JournalHead | undefined> {
  const text = await readText(file).catch(() => '');
  try {
    const begin = JSON.parse(text.slice(0, text.indexOf('\n'))) as Record<string, unknown>;
    if (typeof begin.portalId !== 'string' || typeof begin.applyId !== 'string') return undefined;
    const staged = new Set<string>();
    for (const unit of Array.isArray(begin.work) ? (begin.work as unknown[]) : []) {
      const local = (unit as { localPath?: unknown } | null)?.localPath;
      if (typeof local === 'string' && path.dirname(path.dirname(local)) === drops) staged.add(path.dirname(local));
    }
    return { portalId: begin.portalId, applyId: begin.applyId, ended: text.includes('"type":"end"'), staged };
  } catch {
    return undefined;
  }
}

interface FoundJournal {
  readonly entry: LocalFile;
  readonly head: JournalHead;
  /** Locked: an apply or upload runs it now, in this window or another. */
  readonly running: boolean;
}

/** The apply and upload journals in the storage folder, each with its first line. */
async function journalsOf(storage: string): Promise<FoundJournal[]> {
  const out: FoundJournal[] = [];
  const folders = [
    ['journal', journalFolderOf(storage)],
    ['upload', uploadJournalsOf(storage)],
    ['invitation', invitationJournalsOf(storage)],
    ['save', saveJournalsOf(storage)],
  ] as const;
  for (const [kind, root] of folders)
    for (const j of await filesUnder(storage, root)) {
      if (!j.file.endsWith('.jsonl')) continue;
      const head = await journalHead(j.file, stagedDropsOf(storage));
      if (!head) continue;
      const entry: LocalFile = { file: j.file, kind, modified: j.modified, root: storage };
      out.push({ entry, head, running: await isLocked(j.file) });
    }
  return out;
}

/** The action report of an apply, when there is one. */
async function reportOf(storage: string, head: JournalHead): Promise<LocalFile | undefined> {
  let file: string | undefined;
  try {
    file = await reportFileOf(reportsFolderOf(storage), head.applyId);
  } catch {
    return undefined; // an applyId edited into a path
  }
  const facts = file ? await fileFacts(file) : undefined;
  return file && facts?.isFile ? { file, kind: 'report', modified: facts.mtimeMs, root: storage } : undefined;
}

/** The staged drops, each with the journals that read from it. */
async function stagedDrops(
  storage: string,
  journals: readonly FoundJournal[],
): Promise<Array<{ entry: LocalFile; namedBy: FoundJournal[] }>> {
  const root = stagedDropsOf(storage);
  try {
    await insideRoot(storage, root);
  } catch {
    return [];
  }
  const out: Array<{ entry: LocalFile; namedBy: FoundJournal[] }> = [];
  for (const e of await listFolder(root)) {
    if (!e.isDirectory()) continue;
    const file = path.join(root, e.name);
    const modified = (await fileFacts(file))?.mtimeMs ?? 0;
    const entry: LocalFile = { file, kind: 'dropped', modified, root: storage };
    out.push({ entry, namedBy: journals.filter((j) => j.head.staged.has(file)) });
  }
  return out;
}

/** Chat's call log of questions (one file, and the one it is cut through), the extension's own. */
async function chatLog(storage: string): Promise<LocalFile[]> {
  return (await filesUnder(storage, callLogFolder(storage))).map((f) => ({
    ...f,
    kind: 'chat',
    root: storage,
    shared: true,
  }));
}

/** Snapshots of the portal in `folder`, which must be inside `root`. */
async function snapshotsIn(root: string, folder: string, origin: string): Promise<LocalFile[]> {
  try {
    await insideRoot(root, folder);
  } catch {
    return [];
  }
  const out: LocalFile[] = [];
  for (const s of await listSnapshots(folder))
    if (s.snapshot.portal === origin) out.push({ file: s.file, kind: 'snapshot', modified: s.snapshot.takenAt, root });
  return out;
}

/** Everything kept for the portal, and the extension's own; snapshots in the user's folder when it is given. */
export async function localDataOf(
  storage: string,
  portal: { readonly portalId: string; readonly baseUrl: string },
  snapshotFolder?: string,
): Promise<LocalFile[]> {
  const journals = await journalsOf(storage);
  const out: LocalFile[] = [];
  for (const j of journals) {
    if (j.running || j.head.portalId !== portal.portalId) continue;
    out.push(j.entry);
    const report = j.entry.kind === 'journal' ? await reportOf(storage, j.head) : undefined;
    if (report) out.push(report);
  }
  const access = portalFolder(path.join(storage, 'access'), portal.portalId);
  for (const a of await filesUnder(storage, access)) out.push({ ...a, kind: 'access', root: storage });
  for (const r of await filesUnder(storage, reviewsOf(storage, portal.portalId)))
    out.push({ ...r, kind: 'review', root: storage });
  const origin = originOf(portal.baseUrl);
  const own = snapshotsOf({ journalFolder: storage });
  out.push(...(await snapshotsIn(storage, own, origin)));
  if (snapshotFolder && path.resolve(snapshotFolder) !== path.resolve(own))
    out.push(...(await snapshotsIn(snapshotFolder, snapshotFolder, origin)));
  for (const d of await stagedDrops(storage, journals)) {
    if (d.namedBy.some((j) => j.running)) continue;
    if (d.namedBy.length === 0) out.push({ ...d.entry, shared: true });
    else if (d.namedBy.some((j) => j.head.portalId === portal.portalId)) out.push(d.entry);
  }
  out.push(...(await chatLog(storage)));
  return out;
}

/** Removes one listed file (or staged folder), unless it left its folder or its run started meanwhile. */
async function removeOne(f: LocalFile): Promise<boolean> {
  try {
    await insideRoot(f.root, f.file);
  } catch (error) {
    if (error instanceof UnsafePathError) return false;
    throw error;
  }
  const journal = f.kind === 'journal' || f.kind === 'upload' || f.kind === 'invitation' || f.kind === 'save';
  if (journal && (await isLocked(f.file))) return false;
  if (f.kind === 'dropped') await removeFolder(f.file);
  else await removeFile(f.file);
  // A journal's lock left by a crashed window goes with it.
  if (journal) await removeFile(lockFileOf(f.file));
  return true;
}

/** Removes the files (and the access store's emptied folder); answers how many went. */
export async function removeLocalData(files: readonly LocalFile[]): Promise<number> {
  let removed = 0;
  for (const f of files) if (await removeOne(f)) removed++;
  const emptied = files.filter((f) => f.kind === 'access' || f.kind === 'review').map((f) => path.dirname(f.file));
  for (const folder of new Set(emptied)) await removeEmptyFolder(folder);
  return removed;
}

/** The names the reports of these runs may have (see reportNames). */
const reportNamesOf = (applyIds: Iterable<string>): Set<string> =>
  new Set([...applyIds].flatMap((id) => Object.values(reportNames(id))));

/**
 * Removes what was last changed more than `keepDays` ago, of every portal: finished journals, reports, access
 * stores, snapshots in the storage's own folder, staged drops and chat's call log. What an unfinished or running run
 * still needs (its journal, its report, the drops it reads from) is kept whatever its age.
 */
export async function pruneLocalData(storage: string, keepDays: number, now: number): Promise<number> {
  if (!(keepDays > 0)) return 0;
  const before = now - keepDays * DAY_MS;
  const old = (f: { modified: number }) => f.modified < before;
  const journals = await journalsOf(storage);
  const kept = (j: FoundJournal) => j.running || !j.head.ended || !old(j.entry);
  const needed = reportNamesOf(journals.filter((j) => j.running || !j.head.ended).map((j) => j.head.applyId));
  const gone: LocalFile[] = journals.filter((j) => !kept(j)).map((j) => j.entry);
  const kinds = [
    ['report', reportsFolderOf(storage)],
    ['access', path.join(storage, 'access')],
    ['snapshot', snapshotsOf({ journalFolder: storage })],
  ] as const;
  for (const [kind, folder] of kinds)
    for (const f of await filesUnder(storage, folder))
      if (old(f) && !(kind === 'report' && needed.has(path.basename(f.file)))) gone.push({ ...f, kind, root: storage });
  for (const d of await stagedDrops(storage, journals)) if (old(d.entry) && !d.namedBy.some(kept)) gone.push(d.entry);
  gone.push(...(await chatLog(storage)).filter(old));
  return removeLocalData(gone);
}
