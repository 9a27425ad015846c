/**
 * What was read of an organisation's access matrix, kept on disk: one JSON-lines file per organisation in the
 * extension's storage. Every member read is appended as its own line the moment it arrives, so a cancel, a reload
 * or a crash loses nothing that was read and the next open reads only what is missing or stale. A completed walk of
 * the member list is a line too. When a read ends the file is rewritten (atomically) to one line per member.
 * A torn last line (a crash mid-write) is skipped on load. Never written through a link: the folder and the file are
 * refused when one is planted there. No VS Code here.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { jsonOrUndefined } from '../../../../api/models/read';
import { appendPrivateSync, isTakenSync, readTextSync, removeFileSync } from '../../../../node/disk';
import { writeAtomically } from '../../../../node/atomicFile';
import { PRIVATE_FILE_MODE, privateFolder, privateFolderSync } from '../../../../node/privateFiles';
import { AccessMatrix, listedOf, listedTuple, type GroupMap, type ListedMember } from './accessMatrix';
import { ROW } from '../../../../shared/accessRow';
import type { OutsidersRecord, SignInRecord } from '../outsiders/outsiders.protocol';
import { keptOutsiders, keptSignIns } from '../outsiders/outsidersKept';

const VERSION = 1;

/** The folder of one portal's organisations: a hash of the portal, so its local data can be found and removed. */
export function portalFolder(folder: string, portalId: string): string {
  return path.join(folder, createHash('sha256').update(portalId).digest('hex').slice(0, 16));
}

/** The file of one organisation: hashes of the portal and account, so no server text names a file. */
export function storeFilePath(folder: string, portalId: string, accountId: number): string {
  const hash = createHash('sha256').update(`${portalId}\n${accountId}`).digest('hex').slice(0, 24);
  return path.join(portalFolder(folder, portalId), `${hash}.jsonl`);
}

function numMapOf(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [k, x] of Object.entries(v)) if (typeof x === 'number' && Number.isFinite(x)) out[k] = x;
  return out;
}

function strMapOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

export class AccessStoreFile {
  /** Whether the file's end was checked for a line a crash cut short (the next line must not join it). */
  private endChecked = false;

  constructor(readonly file: string) {}

  /** The matrix as the file holds it; an empty one when there is no file or it is not ours. */
  load(): AccessMatrix {
    const matrix = new AccessMatrix();
    let text: string | undefined;
    try {
      text = readTextSync(this.file);
    } catch {
      return matrix;
    }
    if (text === undefined) return matrix;
    const lines = text.split('\n');
    for (const line of lines) {
      if (!line) continue;
      const entry = jsonOrUndefined(line);
      // Not JSON (undefined): a line cut short by a crash.
      if (typeof entry !== 'object' || entry === null) continue;
      const e = entry as Record<string, unknown>;
      if (e.k === 'head' && e.v !== VERSION) return new AccessMatrix();
      if (e.k === 'read' && typeof e.at === 'number') {
        const m = listedOf(e.m);
        if (!m) continue;
        matrix.upsert(m);
        matrix.setGroups(m.username, numMapOf(e.g), e.at);
      } else if (e.k === 'names' && typeof e.at === 'number') {
        matrix.setNames(strMapOf(e.n), e.at);
      } else if (e.k === 'outsiders') {
        matrix.outsiders = keptOutsiders(e.o) ?? matrix.outsiders;
      } else if (e.k === 'signins') {
        matrix.signIns = keptSignIns(e.s) ?? matrix.signIns;
      } else if (e.k === 'stale' && Array.isArray(e.u)) {
        for (const u of e.u) if (typeof u === 'string') matrix.markStale(u);
      } else if (e.k === 'list' && typeof e.at === 'number' && Array.isArray(e.members)) {
        const seen = new Set<string>();
        for (const t of e.members) {
          const m = listedOf(t);
          if (!m) continue;
          matrix.upsert(m);
          seen.add(m.username);
        }
        const limit = typeof e.limit === 'number' ? e.limit : undefined;
        if (limit === undefined) matrix.keepOnly(seen);
        matrix.listedAt = e.at;
        matrix.listLimit = limit;
      }
    }
    return matrix;
  }

  /** One member read. Synchronous, so it is on disk before the next read starts. */
  read(m: ListedMember, groups: GroupMap, at: number): void {
    this.append({ k: 'read', at, m: listedTuple(m), g: groups });
  }

  /** The groups' friendly names, read from the portal's group list at `at`. */
  names(names: Readonly<Record<string, string>>, at: number): void {
    this.append({ k: 'names', at, n: names });
  }

  /** The guests and pending invitations as read at `record.at`. */
  outsiders(record: OutsidersRecord): void {
    this.append({ k: 'outsiders', o: record });
  }

  /** The members' sign-ins as read at `record.at`. */
  signIns(record: SignInRecord): void {
    this.append({ k: 'signins', s: record });
  }

  /** These members' groups are about to change (a plan): read them again next time, whatever their age. */
  stale(usernames: readonly string[]): void {
    this.append({ k: 'stale', u: usernames });
  }

  /** A walk of the member list ended (`limit`: it stopped after that many members). */
  listed(members: readonly ListedMember[], at: number, limit: number | undefined): void {
    this.append({ k: 'list', at, ...(limit !== undefined ? { limit } : {}), members: members.map(listedTuple) });
  }

  /** Rewrites the file from the matrix: the list, then one line per read member. */
  async compact(matrix: AccessMatrix): Promise<void> {
    const rows = [...matrix.all()];
    const file = this.file;
    async function* lines(): AsyncGenerator<string> {
      yield `${JSON.stringify({ k: 'head', v: VERSION })}\n`;
      if (matrix.namesAt > 0) yield `${JSON.stringify({ k: 'names', at: matrix.namesAt, n: matrix.names() })}\n`;
      if (matrix.outsiders) yield `${JSON.stringify({ k: 'outsiders', o: matrix.outsiders })}\n`;
      if (matrix.signIns) yield `${JSON.stringify({ k: 'signins', s: matrix.signIns })}\n`;
      if (matrix.listedAt > 0) {
        yield `${JSON.stringify({
          k: 'list',
          at: matrix.listedAt,
          ...(matrix.listLimit !== undefined ? { limit: matrix.listLimit } : {}),
          members: rows.map((r) => listedTuple(matrix.listedOf(r))),
        })}\n`;
      }
      for (const r of rows) {
        if (r[ROW.readAt] <= 0) continue;
        yield `${JSON.stringify({ k: 'read', at: r[ROW.readAt], m: listedTuple(matrix.listedOf(r)), g: matrix.groupsOf(r) })}\n`;
      }
    }
    await privateFolder(path.dirname(file));
    await writeAtomically(file, lines(), { replace: true, mode: PRIVATE_FILE_MODE });
  }

  /** Forgets the organisation's matrix. */
  clear(): void {
    removeFileSync(this.file);
    this.endChecked = false;
  }

  private append(entry: object): void {
    privateFolderSync(path.dirname(this.file));
    let prefix = '';
    if (!this.endChecked) {
      this.endChecked = true;
      prefix = endsMidLine(this.file) ? '\n' : '';
    }
    if (!isTakenSync(this.file)) prefix = `${JSON.stringify({ k: 'head', v: VERSION })}\n`;
    // The people and their access are the user's alone: 0600 from the first line, set on the handle.
    appendPrivateSync(this.file, `${prefix}${JSON.stringify(entry)}\n`);
  }
}

/** True when the file's last byte is not a line end (a crash cut its last line); read once per journal. */
function endsMidLine(file: string): boolean {
  try {
    const text = readTextSync(file);
    return text !== undefined && text !== '' && !text.endsWith('\n');
  } catch {
    return false;
  }
}
