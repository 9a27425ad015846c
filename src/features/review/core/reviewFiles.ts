/**
 * Reviews on disk, through the door (src/node/): one folder per portal under the extension's storage (`reviews/`, a
 * hash of the portal, as the access store names its folders), and per review its state (`<id>.json`), the decisions
 * made since that was written (`<id>.decisions.jsonl`, one line per batch, so a decision is kept the moment it is
 * made and a reload or another day resumes it), and once finished its evidence (`<id>-evidence.csv`,
 * `<id>-summary.md`, `<id>-manifest.json`). Every file is 0600 in a 0700 folder, written without following a link.
 * A file may have been edited: what is read is parsed as untrusted (model.ts), and names stay inside their folder.
 * No VS Code here.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { appendPrivate, isNotFound, listFolder, readText, removeFile, writeFileSafely } from '../../../node/disk';
import { inFolder, privateFolder } from '../../../node/privateFiles';
import { evidenceCsv, evidenceSummary, manifestText, sha256, tampered, type EvidenceNames } from './evidence';
import { parseBatch, parseHead, parseReview, reviewJson, type Review, type ReviewHead } from './model';

/** The folder of every portal's reviews, below the extension's storage (Remove Local Data finds them here). */
export const reviewsRoot = (storage: string): string => path.join(storage, 'reviews');

export function reviewsFolder(storage: string, portalId: string): string {
  return path.join(reviewsRoot(storage), createHash('sha256').update(portalId).digest('hex').slice(0, 16));
}

/** A review id names files: letters, digits and dashes only, whatever a file says. */
const ID = /^[a-z0-9-]{1,80}$/;

export function newReviewId(accountId: number, at: number): string {
  return `${accountId}-${at}-${randomBytes(4).toString('hex')}`;
}

export function evidenceNames(id: string): EvidenceNames {
  return { csv: `${id}-evidence.csv`, summary: `${id}-summary.md`, manifest: `${id}-manifest.json` };
}

function fileOf(folder: string, id: string, suffix: string): string {
  if (!ID.test(id)) throw new Error(`Not a review id: ${JSON.stringify(id)}`);
  return inFolder(folder, `${id}${suffix}`);
}

export class ReviewFiles {
  constructor(private readonly storage: string) {}

  folderOf(head: Pick<ReviewHead, 'portalId'>): string {
    return reviewsFolder(this.storage, head.portalId);
  }

  /** Writes the whole review and drops the decisions kept beside it (they are in it now). */
  async save(review: Review): Promise<void> {
    const folder = await privateFolder(this.folderOf(review.head));
    await writeFileSafely(fileOf(folder, review.head.id, '.json'), reviewJson(review), { replace: true });
    await removeFile(fileOf(folder, review.head.id, '.decisions.jsonl'));
  }

  /** Keeps one batch of decisions, appended: a decision survives a reload the moment it is made. */
  async append(review: Review, batch: unknown): Promise<void> {
    const folder = await privateFolder(this.folderOf(review.head));
    await appendPrivate(fileOf(folder, review.head.id, '.decisions.jsonl'), `${JSON.stringify(batch)}\n`);
  }

  /** The review in `file`, with the decisions appended since; undefined when it is not one of ours. */
  async load(file: string): Promise<Review | undefined> {
    let review: Review | undefined;
    try {
      review = parseReview(JSON.parse(await readText(file)));
    } catch {
      return undefined;
    }
    if (!review) return undefined;
    const log = await readText(file.replace(/\.json$/, '.decisions.jsonl')).catch((e: unknown) => {
      if (isNotFound(e)) return '';
      throw e;
    });
    for (const line of log.split('\n')) {
      try {
        const batch = line ? parseBatch(JSON.parse(line)) : undefined;
        if (batch) review.replay(batch);
      } catch {
        // A line a crash cut short: the decisions before it stand.
      }
    }
    return review;
  }

  /** Every review kept, of every portal (or of one), with its file; newest first. */
  async list(portalId?: string): Promise<Array<{ readonly head: ReviewHead; readonly file: string }>> {
    const root = reviewsRoot(this.storage);
    const folders = portalId
      ? [this.folderOf({ portalId })]
      : (await listFolder(root)).filter((e) => e.isDirectory()).map((e) => path.join(root, e.name));
    const out: Array<{ head: ReviewHead; file: string }> = [];
    for (const folder of folders)
      for (const e of await listFolder(folder)) {
        if (!e.isFile() || !e.name.endsWith('.json') || e.name.endsWith('-manifest.json')) continue;
        const file = path.join(folder, e.name);
        const head = await readText(file).then(
          (t) => parseHead(JSON.parse(t)),
          () => undefined,
        );
        if (head && `${head.id}.json` === e.name) out.push({ head, file });
      }
    return out.sort((a, b) => b.head.startedAt - a.head.startedAt);
  }

  /** The newest unfinished review of the organisation (and scope), to resume. */
  async unfinished(portalId: string, accountId: number, scope: string | undefined): Promise<Review | undefined> {
    const found = (await this.list(portalId)).find(
      (r) => r.head.accountId === accountId && r.head.scope?.name === scope && r.head.finishedAt === undefined,
    );
    return found ? this.load(found.file) : undefined;
  }

  /** Writes the evidence (CSV, summary, manifest) and answers the manifest's digest and the files' paths. */
  async writeEvidence(review: Review): Promise<{ digest: string; files: EvidenceNames & { folder: string } }> {
    const folder = await privateFolder(this.folderOf(review.head));
    const names = evidenceNames(review.head.id);
    const csv = Buffer.from(evidenceCsv(review), 'utf8');
    const summary = Buffer.from(evidenceSummary(review, names), 'utf8');
    const manifest = manifestText(review.head.id, [
      { name: names.csv, bytes: csv },
      { name: names.summary, bytes: summary },
    ]);
    await writeFileSafely(inFolder(folder, names.csv), csv, { replace: true });
    await writeFileSafely(inFolder(folder, names.summary), summary, { replace: true });
    await writeFileSafely(inFolder(folder, names.manifest), manifest, { replace: true });
    return { digest: sha256(manifest), files: { ...names, folder } };
  }

  /** The evidence files that no longer match what was written ('manifest' when the manifest itself changed). */
  async verify(head: ReviewHead): Promise<string[]> {
    const folder = this.folderOf(head);
    const names = evidenceNames(head.id);
    const read = async (name: string): Promise<Buffer | undefined> =>
      readText(inFolder(folder, name)).then(
        (t) => Buffer.from(t, 'utf8'),
        () => undefined,
      );
    const bytes = new Map<string, Buffer | undefined>();
    for (const name of [names.csv, names.summary]) bytes.set(name, await read(name));
    const manifest = (await read(names.manifest))?.toString('utf8');
    return tampered(head.evidenceDigest, manifest, (name) => bytes.get(name));
  }
}
