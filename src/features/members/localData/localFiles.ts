/**
 * The files this extension keeps about a portal's people, found and removed: the journals of applies and bulk edits
 * (with their action reports), the access matrix's store, and the snapshots of members deleted for good (in the
 * folder the user chose). A running apply's journal is never listed for removal. Old journals, reports and access
 * stores are pruned after `keepDays`; snapshots are not, as they are the only way back for a deleted member and sit
 * in the user's own folder. No VS Code here.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { isLocked, lockFileOf } from '../../../node/fileLock';
import { portalFolder } from '../access/matrixJournal';
import { reportsFolderOf } from '../plan/core/report';
import { journalFolderOf } from '../../../engine/journalFile';
import { listSnapshots, originOf } from '../../../engine/members/snapshot';

export type LocalKind = 'journal' | 'report' | 'access' | 'snapshot';

export interface LocalFile {
  readonly file: string;
  readonly kind: LocalKind;
  readonly modified: number;
}

const DAY_MS = 86_400_000;

async function filesUnder(folder: string): Promise<Array<{ file: string; modified: number }>> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(folder, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  const out: Array<{ file: string; modified: number }> = [];
  for (const e of entries) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    const s = await fs.stat(file).catch(() => undefined);
    if (s) out.push({ file, modified: s.mtimeMs });
  }
  return out;
}

/** A journal's first line, parsed enough to say whose it is and whether it finished; undefined for a stranger. */
async function journalHead(file: string): Promise<{ portalId: string; applyId: string; ended: boolean } | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  try {
    const begin = JSON.parse(text.slice(0, text.indexOf('\n'))) as { portalId?: unknown; applyId?: unknown };
    if (typeof begin.portalId !== 'string' || typeof begin.applyId !== 'string') return undefined;
    return { portalId: begin.portalId, applyId: begin.applyId, ended: text.includes('"type":"end"') };
  } catch {
    return undefined;
  }
}

/** Journals (not running) with their reports, of one portal, or of every portal when `portalId` is undefined. */
async function journalsAndReports(storage: string, portalId: string | undefined): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  const reports = reportsFolderOf(storage);
  for (const j of await filesUnder(journalFolderOf(storage))) {
    if (!j.file.endsWith('.jsonl') || (await isLocked(j.file))) continue;
    const head = await journalHead(j.file);
    if (!head || (portalId !== undefined && head.portalId !== portalId)) continue;
    out.push({ file: j.file, kind: 'journal', modified: j.modified });
    const report = path.join(reports, `report-${head.applyId}.csv`);
    const s = await fs.stat(report).catch(() => undefined);
    if (s && path.dirname(report) === reports) out.push({ file: report, kind: 'report', modified: s.mtimeMs });
  }
  return out;
}

/** Everything kept for the portal; snapshots only when the folder they are kept in is given. */
export async function localDataOf(
  storage: string,
  portal: { readonly portalId: string; readonly baseUrl: string },
  snapshotFolder?: string,
): Promise<LocalFile[]> {
  const out = await journalsAndReports(storage, portal.portalId);
  for (const a of await filesUnder(portalFolder(path.join(storage, 'access'), portal.portalId)))
    out.push({ file: a.file, kind: 'access', modified: a.modified });
  if (snapshotFolder) {
    const origin = originOf(portal.baseUrl);
    for (const s of await listSnapshots(snapshotFolder))
      if (s.snapshot.portal === origin) out.push({ file: s.file, kind: 'snapshot', modified: s.snapshot.takenAt });
  }
  return out;
}

/** Removes the files (and the access store's emptied folder); answers how many went. */
export async function removeLocalData(files: readonly LocalFile[]): Promise<number> {
  let removed = 0;
  for (const f of files) {
    await fs.rm(f.file, { force: true });
    // A journal's lock left by a crashed window goes with it (a running apply's journal is never listed).
    if (f.kind === 'journal') await fs.rm(lockFileOf(f.file), { force: true });
    removed++;
  }
  for (const folder of new Set(files.filter((f) => f.kind === 'access').map((f) => path.dirname(f.file))))
    await fs.rmdir(folder).catch(() => undefined);
  return removed;
}

/**
 * Removes journals, reports and access stores last changed more than `keepDays` ago, of every portal. An unfinished
 * journal is kept whatever its age (it is still offered for resume or undo) and so is its report.
 */
export async function pruneLocalData(storage: string, keepDays: number, now: number): Promise<number> {
  if (!(keepDays > 0)) return 0;
  const before = now - keepDays * DAY_MS;
  const old: LocalFile[] = [];
  const journals = await journalsAndReports(storage, undefined);
  const unfinished = new Set<string>();
  for (const j of journals.filter((x) => x.kind === 'journal'))
    if (!(await journalHead(j.file))?.ended) unfinished.add(j.file);
  const kept = (f: LocalFile) => unfinished.has(f.file) || reportOfUnfinished(f.file, journals, unfinished);
  for (const f of journals) if (f.modified < before && !kept(f)) old.push(f);
  for (const a of await filesUnder(path.join(storage, 'access')))
    if (a.modified < before) old.push({ file: a.file, kind: 'access', modified: a.modified });
  for (const r of await filesUnder(reportsFolderOf(storage)))
    if (r.modified < before && !old.some((o) => o.file === r.file) && !reportOfUnfinished(r.file, journals, unfinished))
      old.push({ file: r.file, kind: 'report', modified: r.modified });
  return removeLocalData(old);
}

function reportOfUnfinished(report: string, journals: readonly LocalFile[], unfinished: ReadonlySet<string>): boolean {
  const id = path
    .basename(report)
    .replace(/^report-/, '')
    .replace(/\.csv$/, '');
  return journals.some(
    (j) => j.kind === 'journal' && unfinished.has(j.file) && path.basename(j.file) === `${id}.jsonl`,
  );
}
