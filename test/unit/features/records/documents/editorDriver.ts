// An editor of a content document as VS Code drives the `portal:` file system, without VS Code: stat then read to
// open; on save, stat, VS Code's own conflict check (copied from its file service's validateWriteFile), then write;
// *Overwrite* writes with that check switched off. The file system passes the same calls on to SaveBaselines, so the
// outcomes here are the ones the workbench shows: 'saved', 'compare' (VS Code's Compare / Overwrite), or 'refused'
// (the write itself found a conflict: an error, and saving again compares).
import type { PortalClient } from '../../../../../src/api';
import { downloadBytes } from '../../../../../src/features/records/documents/contentBytes';
import { SaveBaselines, type Shown } from '../../../../../src/features/records/documents/baselines';
import { findRecord } from '../../../../../src/features/records/documents/recordRead';
import { SaveConflict, seenOf } from '../../../../../src/features/records/documents/saveBack';
import type { PortalTarget } from '../../../../../src/features/records/documents/uri';

export type Content = Extract<PortalTarget, { kind: 'content' }>;
export type Outcome = 'saved' | 'compare' | 'refused';

/** VS Code's etag of a stat (files.ts): its conflict check compares these. */
const etag = (mtime: number, size: number): string => mtime.toString(29) + size.toString(31);

export class EditorDriver {
  /** The stat VS Code holds for the document (its lastResolvedFileStat). */
  private held: Shown | undefined;
  private dirty = false;
  text = '';

  constructor(
    private readonly baselines: SaveBaselines,
    private readonly client: PortalClient,
    readonly target: Content,
    readonly key: string,
  ) {}

  /** Opens (or reverts): a stat, then the read that gives the editor its text. */
  async open(): Promise<void> {
    this.held = await this.baselines.stat(this.key, this.client, this.target, this.dirty);
    const { record } = await findRecord(this.client, this.target);
    const bytes = await downloadBytes(this.client, this.target.groupId, this.target.fileId);
    this.baselines.read(this.key, seenOf(record), bytes, this.dirty);
    this.text = Buffer.from(bytes).toString('utf8');
    this.dirty = false;
  }

  edit(text: string): void {
    this.text = text;
    this.dirty = true;
  }

  /** Any other stat of the document (the Explorer, another extension): it must change nothing. */
  stat(): Promise<Shown> {
    return this.baselines.stat(this.key, this.client, this.target, this.dirty);
  }

  /** *Compare*: the conflict editor reads the portal's copy while the document stays dirty. */
  async compare(): Promise<string> {
    await this.baselines.stat(this.key, this.client, this.target, this.dirty);
    const bytes = await downloadBytes(this.client, this.target.groupId, this.target.fileId);
    const { record } = await findRecord(this.client, this.target);
    this.baselines.read(this.key, seenOf(record), bytes, this.dirty);
    return Buffer.from(bytes).toString('utf8');
  }

  /**
   * `meanwhile` runs between the write and the stat VS Code makes after it (another's change landing then, or
   * another stat of the document).
   */
  save(meanwhile?: () => unknown): Promise<Outcome> {
    return this.write(true, meanwhile);
  }

  /** *Overwrite*: the same save with VS Code's check off. */
  overwrite(): Promise<Outcome> {
    return this.write(false);
  }

  private async write(checked: boolean, meanwhile?: () => unknown): Promise<Outcome> {
    const bytes = new TextEncoder().encode(this.text);
    const stat = await this.baselines.stat(this.key, this.client, this.target, this.dirty);
    const held = this.held;
    if (checked && held && held.mtime < stat.mtime && etag(held.mtime, held.size) !== etag(held.mtime, stat.size)) {
      // VS Code lets the write through when the bytes on disk are the ones it is about to write.
      const same =
        bytes.length === stat.size &&
        Buffer.from(await downloadBytes(this.client, this.target.groupId, this.target.fileId)).equals(bytes);
      if (!same) return 'compare';
    }
    try {
      await this.baselines.write(this.key, this.client, this.target, bytes);
    } catch (error) {
      if (error instanceof SaveConflict) return 'refused';
      throw error;
    }
    this.dirty = false;
    await meanwhile?.();
    this.held = await this.baselines.stat(this.key, this.client, this.target, this.dirty);
    return 'saved';
  }
}

export async function portalText(client: PortalClient, t: Content): Promise<string> {
  return Buffer.from(await downloadBytes(client, t.groupId, t.fileId)).toString('utf8');
}
