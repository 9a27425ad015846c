// Uploaded bytes live on disk, never in the emulator's memory: a 1 GB upload must not grow the process that
// measures the client. A record's blob is the list of its part files in offset order; a new version replaces it.
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One chunk of an upload in progress: where its bytes are, and which bytes of the file they are. */
export interface Part {
  start: number;
  end: number;
  path: string;
}

/** A request body spooled to disk (upload routes only). */
export interface Spooled {
  path: string;
  size: number;
  tooLarge: boolean;
  aborted: boolean;
}

export class Blobs {
  readonly dir: string;
  private owned: boolean;

  /** `dir` given (a data file's neighbour) keeps blobs across restarts; otherwise a temp folder removed on stop. */
  constructor(dir?: string) {
    this.owned = dir === undefined;
    this.dir = dir ?? join(tmpdir(), `portal-emulator-blobs-${randomUUID()}`);
  }

  /** Streams a body to a new file, with backpressure; past `limit` bytes the rest is drained and dropped. */
  spool(req: IncomingMessage, limit: number): Promise<Spooled> {
    // Made on the first upload: a portal nobody uploads to leaves no folder behind.
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const path = join(this.dir, `spool-${randomUUID()}`);
    const out = createWriteStream(path, { mode: 0o600 });
    let size = 0;
    let tooLarge = false;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (aborted: boolean): void => {
        if (settled) return;
        settled = true;
        out.end(() => {
          if (tooLarge || aborted) rmSync(path, { force: true });
          resolve({ path, size, tooLarge, aborted });
        });
      };
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) tooLarge = true;
        if (tooLarge) return;
        if (!out.write(chunk)) {
          req.pause();
          out.once('drain', () => req.resume());
        }
      });
      req.on('end', () => settle(false));
      req.on('error', () => settle(true));
      req.on('close', () => settle(!req.complete));
    });
  }

  /** Moves a spooled body under the blob folder for good. */
  keep(spooled: string): string {
    const path = join(this.dir, `blob-${randomUUID()}`);
    renameSync(spooled, path);
    return path;
  }

  writeOver(path: string, bytes: Buffer): void {
    writeFileSync(path, bytes, { mode: 0o600 });
  }

  discard(paths: readonly string[]): void {
    for (const p of paths) rmSync(p, { force: true });
  }

  read(paths: readonly string[]): Buffer {
    return Buffer.concat(paths.map((p) => readFileSync(p)));
  }

  close(): void {
    if (this.owned) rmSync(this.dir, { recursive: true, force: true });
  }
}
