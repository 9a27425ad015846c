/**
 * Downloads a planned folder (folderPlan.ts) into a local folder: bounded concurrency, progress in files and
 * bytes, an existing file skipped or overwritten as the caller chose, and no partial file ever left behind (each
 * file is written through atomicFile.ts). Cancelling aborts the downloads in flight: reading is safe to abort.
 */
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DEFAULT_MAX_CONCURRENT,
  isPortalError,
  PortalError,
  type PortalErrorKind,
  type V2Api,
} from '../../../api/index';
import { exists, LengthMismatchError, writeAtomically } from '../../../node/atomicFile';
import { entryOf, makeFolderHere } from '../../../node/disk';
import type { FolderPlan } from './folderPlan';
import { runPool, withLinkedSignal } from '../../../node/pool';

/** What a download needs of a PortalClient. */
interface FolderDownloadClient {
  readonly v2: { readonly files: Pick<V2Api['files'], 'download'> };
}

interface Clashes {
  /** Planned files whose local path is already taken by a file (or a link): skip or overwrite them. */
  readonly existing: FolderPlan['files'];
  /** Local paths in the way that neither choice can use: a folder where a file goes, or a file or link where a folder goes. */
  readonly blocked: readonly string[];
}

export interface DownloadProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
}

interface DownloadOptions {
  /** What to do with a file already at a planned path. */
  readonly existing: 'skip' | 'overwrite';
  /** Files downloaded at once; default the client's default concurrency. */
  readonly concurrency?: number;
  /** Stops starting files and aborts the ones in flight (their temporary files are removed). */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
  /** Called with each file written, before it counts as done: marks it as downloaded (markOfTheWeb.ts). */
  readonly mark?: (file: string) => Promise<unknown>;
}

interface DownloadFailure {
  readonly file: FolderPlan['files'][number];
  readonly kind: PortalErrorKind | 'file-system';
  readonly message: string;
}

export interface DownloadSummary {
  readonly written: FolderPlan['files'];
  /** Already there and kept (the caller chose skip). */
  readonly skipped: FolderPlan['files'];
  readonly failed: readonly DownloadFailure[];
  /** Not downloaded because of the abort: never started, or stopped and removed. */
  readonly cancelled: FolderPlan['files'];
  /** Bytes of the files written. */
  readonly bytes: number;
}

const localPath = (target: string, relative: string) => path.join(target, ...relative.split('/'));

/** What is already at the plan's paths below `target`, for the one question the UI asks before downloading. */
export async function findClashes(plan: FolderPlan, target: string): Promise<Clashes> {
  const blocked: string[] = [];
  for (const folder of plan.folders) {
    const s = await entryOf(localPath(target, folder));
    if (s && !s.isDirectory()) blocked.push(folder);
  }
  const existing: Array<FolderPlan['files'][number]> = [];
  for (const file of plan.files) {
    const s = await entryOf(localPath(target, file.path));
    if (s?.isDirectory()) blocked.push(file.path);
    else if (s) existing.push(file);
  }
  return { existing, blocked };
}

/**
 * Creates the plan's folders one segment at a time. A segment that exists must be a real folder: a link to a
 * folder elsewhere would let the download write outside the target.
 */
class Folders {
  private readonly made = new Map<string, Promise<void>>();
  constructor(private readonly target: string) {}

  ensure(relative: string): Promise<void> {
    let done = this.made.get(relative);
    if (!done) {
      const parent = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
      done = (parent ? this.ensure(parent) : Promise.resolve()).then(() => this.makeOne(relative));
      this.made.set(relative, done);
    }
    return done;
  }

  private makeOne(relative: string): Promise<void> {
    return makeFolderHere(localPath(this.target, relative));
  }
}

function failure(file: FolderPlan['files'][number], error: unknown): DownloadFailure {
  if (error instanceof PortalError) return { file, kind: error.kind, message: error.message };
  if (error instanceof LengthMismatchError) {
    return {
      file,
      kind: 'network',
      message: `The download of ${file.name} ended early (${error.message}). Try again.`,
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { file, kind: 'file-system', message: `Could not write ${file.path}: ${text}` };
}

/** Downloads every planned file below `target`. Resolves with what happened to each file; never rejects for one file. */
export function downloadPlan(
  client: FolderDownloadClient,
  plan: FolderPlan,
  target: string,
  options: DownloadOptions,
): Promise<DownloadSummary> {
  const concurrency = options.concurrency ?? DEFAULT_MAX_CONCURRENT;
  return withLinkedSignal(options.signal, concurrency, (signal) =>
    downloadAll(client, plan, target, options, concurrency, signal),
  );
}

async function downloadAll(
  client: FolderDownloadClient,
  plan: FolderPlan,
  target: string,
  options: DownloadOptions,
  concurrency: number,
  signal: AbortSignal,
): Promise<DownloadSummary> {
  const folders = new Folders(target);
  const outcome: Array<'written' | 'skipped' | DownloadFailure | undefined> = [];
  const progress = { filesDone: 0, filesTotal: plan.files.length, bytesDone: 0, bytesTotal: plan.bytes };
  const report = () => options.onProgress?.({ ...progress });
  const replace = options.existing === 'overwrite';

  const written: number[] = [];
  await runPool(
    plan.files,
    concurrency,
    async (file, i) => {
      let received = 0;
      let body: Readable | undefined;
      try {
        await folders.ensure(file.path.slice(0, file.path.lastIndexOf('/')));
        const to = localPath(target, file.path);
        let result: 'written' | 'exists' = 'exists';
        if (replace || !(await exists(to))) {
          const download = await client.v2.files.download(file.groupId, file.fileId, { signal });
          body = download.body;
          result = await writeAtomically(to, body, {
            replace,
            signal,
            expectedBytes: download.length,
            onBytes: (n) => {
              received += n;
              progress.bytesDone += n;
              report();
            },
          });
        }
        if (result === 'written') await options.mark?.(to);
        outcome[i] = result === 'written' ? 'written' : 'skipped';
        if (result === 'written') written[i] = received;
        else progress.bytesDone += file.size - received;
      } catch (error) {
        // An unread body holds one of the client's connections until it is destroyed.
        body?.destroy();
        progress.bytesDone -= received;
        if (signal.aborted || isPortalError(error, 'cancelled')) return;
        outcome[i] = failure(file, error);
      }
      progress.filesDone++;
      report();
    },
    signal,
  );

  return summarise(plan, outcome, written);
}

/** Sorts the plan's files by what became of each; a file with no outcome was cut short by cancelling. */
function summarise(
  plan: FolderPlan,
  outcome: ReadonlyArray<'written' | 'skipped' | DownloadFailure | undefined>,
  written: readonly number[],
): DownloadSummary {
  const summary = {
    written: [] as Array<FolderPlan['files'][number]>,
    skipped: [] as Array<FolderPlan['files'][number]>,
    failed: [] as DownloadFailure[],
    cancelled: [] as Array<FolderPlan['files'][number]>,
    bytes: 0,
  };
  plan.files.forEach((file, i) => {
    const o = outcome[i];
    if (o === 'written') {
      summary.written.push(file);
      summary.bytes += written[i] ?? 0;
    } else if (o === 'skipped') summary.skipped.push(file);
    else if (o) summary.failed.push(o);
    else summary.cancelled.push(file);
  });
  return summary;
}
