/**
 * What each content document's editor was given, and what a save must find on the portal, by version, never by when
 * the editor happened to look. The baseline (the record's `lastModified`, `versions`, size and a digest of the bytes)
 * is set when the content is read into a clean editor and when a save succeeds, and by nothing else: a stat, which
 * VS Code makes just before every write, only looks.
 *
 * VS Code refuses a write with its own *Compare / Overwrite* when a stat shows a later mtime *and* another size than
 * the copy it has (its etag is mtime and size). So a stat that finds the portal's copy moved from the baseline shows
 * VS Code a later mtime and a size it does not hold, even for a same-size change or one the portal's dates do not
 * mark; VS Code's check then fires every time. A write that still comes after such a stat was made without that
 * check: VS Code's *Overwrite* (or another extension's plain write), which may replace that copy and no other.
 * No VS Code here: the file system passes in what it knows (dirty or not, which documents are open).
 */
import type { FileRecord, PortalClient } from '../../../api/index';
import { digestOf } from '../../../engine/saves/index';
import { downloadBytes } from './contentBytes';
import { findRecord } from './recordRead';
import { saveBack, SaveConflict } from './saveBack';
import type { PortalTarget } from './uri';

type Content = Extract<PortalTarget, { kind: 'content' }>;

/** A copy of a record's content: how the portal dated it, its size, and a digest of its bytes where they were read. */
export interface Version {
  readonly lastModified: number | null;
  readonly versions: number | null;
  readonly size: number;
  readonly digest?: string;
}

/** What a stat tells VS Code: the two figures its own conflict check compares. */
export interface Shown {
  readonly mtime: number;
  readonly size: number;
}

interface Entry {
  /** What the editor was given: the baseline. */
  given?: Version;
  /** The figures of the last stat that found the baseline unmoved (what VS Code then holds). */
  shown?: Shown;
  /** The portal's copy a stat last showed VS Code as newer than the baseline (what an Overwrite may replace), and
   * the figures it was last shown with. */
  newer?: Version & { shown?: Shown };
  /** The highest mtime shown, so a newer copy is always later than anything VS Code was told before. */
  maxMtime: number;
  /** A save just succeeded: the next stat is the one VS Code makes after every write, to learn what it now holds. */
  written?: boolean;
}

/** Documents remembered at most, beyond the open ones (which are never dropped). */
const MAX_CLOSED = 32;

/** Another date, or (where both say) another version count. */
function metadataMoved(a: Pick<Version, 'lastModified' | 'versions'>, b: Pick<Version, 'lastModified' | 'versions'>) {
  if (a.lastModified !== b.lastModified) return true;
  return a.versions !== null && b.versions !== null && a.versions !== b.versions;
}

/** The same copy: the same dates, and the same bytes where both digests are known. */
function sameCopy(a: Version, b: Version): boolean {
  if (metadataMoved(a, b)) return false;
  return a.digest === undefined || b.digest === undefined || a.digest === b.digest;
}

/** `real`, or the nearest size above it that VS Code does not hold, so its etag comparison sees a change. */
function distinctSize(real: number, held: ReadonlyArray<number | undefined>): number {
  let size = real;
  while (held.includes(size)) size++;
  return size;
}

export function versionOf(r: Pick<FileRecord, 'lastModified' | 'versions' | 'size'>, digest?: string): Version {
  return { lastModified: r.lastModified, versions: r.versions, size: r.size ?? 0, ...(digest ? { digest } : {}) };
}

export class SaveBaselines {
  private readonly entries = new Map<string, Entry>();

  /**
   * `isOpen`: whether a document (by key) is open in an editor; an open document's baseline is never dropped.
   * `storage`: the extension's storage folder, where the write engine stages and journals each save.
   */
  constructor(
    private readonly isOpen: (key: string) => boolean,
    private readonly storage: string,
  ) {}

  /**
   * The editor was given `bytes` of the record as `seen`. A dirty document keeps its baseline: what its edits
   * started from is still what the portal must hold (a read while dirty is a Compare, or another extension's).
   */
  read(key: string, seen: Pick<FileRecord, 'lastModified' | 'versions'>, bytes: Uint8Array, dirty: boolean): void {
    const entry = this.entry(key);
    if (dirty && entry.given) return;
    entry.given = {
      lastModified: seen.lastModified,
      versions: seen.versions,
      size: bytes.length,
      digest: digestOf(bytes),
    };
    entry.newer = undefined;
  }

  /**
   * What a stat shows VS Code for a text file record's content. The portal's copy is read afresh; where its dates
   * say nothing and a dirty document is about to be saved or compared, its bytes are compared too.
   */
  async stat(key: string, client: PortalClient, t: Content, dirty: boolean): Promise<Shown> {
    const entry = this.entry(key);
    const given = entry.given;
    // VS Code takes what this stat shows as the copy it holds: the copy written, with no request. Another's change
    // that landed since is left to the next stat, which shows it with new figures for VS Code's check.
    if (entry.written && given) {
      entry.written = false;
      return this.unmoved(entry, { mtime: given.lastModified ?? t.known?.lastModified ?? 0, size: given.size });
    }
    const { record, source } = await findRecord(client, t);
    const mtime = record.lastModified ?? t.known?.lastModified ?? 0;
    if (source === 'row') return this.unmoved(entry, { mtime, size: record.size ?? given?.size ?? 0 });
    // Never read (a write with no editor behind it): VS Code's own check judges the copy this stat shows.
    if (!given) {
      entry.newer = versionOf(record);
      return this.unmoved(entry, { mtime, size: record.size ?? 0 });
    }
    const digest = dirty && !metadataMoved(given, record) ? await this.portalDigest(client, t) : undefined;
    const current = versionOf(record, digest);
    if (sameCopy(given, current)) return this.unmoved(entry, { mtime, size: given.size });
    // Figures VS Code was never shown, each time: VS Code may have taken the last ones as the copy it holds (the stat
    // after a write, when another stat used up the one above), and the same figures again would pass its check.
    entry.maxMtime = Math.max(mtime, entry.maxMtime + 1);
    const size = distinctSize(current.size, [given.size, entry.shown?.size, entry.newer?.shown?.size]);
    const shown = { mtime: entry.maxMtime, size };
    entry.newer = { ...current, shown };
    return shown;
  }

  /**
   * Saves `bytes` as a new version if the portal still holds the baseline, or the newer copy a stat showed VS Code
   * (its check refused that copy, so a write that still comes is an Overwrite); anything else is a SaveConflict.
   */
  async write(key: string, client: PortalClient, t: Content, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
    const entry = this.entry(key);
    const check = async (record: FileRecord): Promise<void> => {
      const { given, newer } = entry;
      const silent = (v: Version | undefined): boolean => v !== undefined && !metadataMoved(v, record);
      const digest =
        (silent(given) && given?.digest) || (silent(newer) && newer?.digest)
          ? await this.portalDigest(client, t)
          : undefined;
      const current = versionOf(record, digest);
      if ((given && sameCopy(given, current)) || (newer && sameCopy(newer, current))) return;
      throw new SaveConflict(record);
    };
    const saved = await saveBack(client, t, check, bytes, this.storage, signal);
    entry.given = versionOf({ ...saved, size: bytes.length }, digestOf(bytes));
    entry.newer = undefined;
    entry.written = true;
  }

  private unmoved(entry: Entry, shown: Shown): Shown {
    entry.shown = shown;
    entry.maxMtime = Math.max(entry.maxMtime, shown.mtime);
    return shown;
  }

  private async portalDigest(client: PortalClient, t: Content): Promise<string> {
    return digestOf(await downloadBytes(client, t.groupId, t.fileId));
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { maxMtime: 0 };
      this.entries.set(key, entry);
      this.forgetClosed();
    }
    return entry;
  }

  /** Bounded by the open documents: only those no editor holds are dropped, oldest first. */
  private forgetClosed(): void {
    const closed = [...this.entries.keys()].filter((k) => !this.isOpen(k));
    for (const k of closed.slice(0, Math.max(0, closed.length - MAX_CLOSED))) this.entries.delete(k);
  }
}
