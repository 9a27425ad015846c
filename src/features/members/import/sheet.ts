/**
 * HR's spreadsheet as a header and rows of plain text, read by a worker thread (sheetWorker.ts, sheetReader.ts)
 * with a heap of its own, limited: a hostile sheet ends that worker with one clear message, and the extension host's
 * memory never holds more than the rows kept. What a library spools goes to a private temporary folder (0700) under
 * the folder the caller names, removed when the read ends, and by `sweepSheetTemp` at the next start after a crash.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { privateTempFolder, sweepTempFolders } from '../../../node/disk';

export interface Sheet {
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** More rows than MAX_ROWS: reading stopped there, the rest left out. */
  readonly truncated: boolean;
}

export const MAX_ROWS = 50_000;
export const MAX_COLUMNS = 200;
/** The reading worker's heap: ample for MAX_ROWS rows of people, far below what would strain the host. */
export const WORKER_HEAP_MB = 128;

export class SheetError extends Error {}

/** What the worker answers: the sheet, or why not. */
export type SheetAnswer =
  | { readonly type: 'sheet'; readonly sheet: Sheet }
  | { readonly type: 'error'; readonly message: string; readonly known: boolean };

const TEMP_PREFIX = 'sheet-';

/**
 * The worker: the bundle's `sheetWorker.js` beside the extension's; from the sources (the tests and benchmarks run
 * them through tsx), the TypeScript entry with tsx registered first.
 */
function startWorker(file: string, temp: string): Worker {
  const options = {
    workerData: { file },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
    // A library's temporary files (exceljs spools through `tmp`) land in the private folder, never in /tmp.
    env: { ...process.env, TMPDIR: temp, TMP: temp, TEMP: temp },
  };
  if (!__filename.endsWith('.ts')) return new Worker(join(__dirname, 'sheetWorker.js'), options);
  const source = join(__dirname, 'sheetWorker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { ...options, eval: true });
}

function answerOf(worker: Worker): Promise<Sheet> {
  return new Promise<Sheet>((resolve, reject) => {
    worker.once('message', (answer: SheetAnswer) => {
      if (answer.type === 'sheet') resolve(answer.sheet);
      else reject(new SheetError(answer.known ? answer.message : `The sheet could not be read: ${answer.message}`));
    });
    worker.once('error', (error: Error & { code?: string }) =>
      reject(
        new SheetError(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? 'The sheet needs more memory to read than a sheet of people could; it was not read.'
            : `The sheet could not be read: ${error.message}`,
        ),
      ),
    );
    worker.once('exit', () => reject(new SheetError('The sheet could not be read: its reader stopped.')));
  });
}

/**
 * The sheet's header and rows; rejects with a SheetError a person can act on. `tempParent` is the extension's own
 * storage folder for temporary files.
 */
export async function readSheet(file: string, tempParent: string): Promise<Sheet> {
  if (!/\.(xlsx|csv)$/i.test(file)) throw new SheetError('Only .xlsx and .csv sheets can be imported.');
  const temp = await privateTempFolder(tempParent, TEMP_PREFIX);
  try {
    const worker = startWorker(file, temp.folder);
    try {
      return await answerOf(worker);
    } finally {
      await worker.terminate();
    }
  } finally {
    await temp.dispose();
  }
}

/** Removes what a read the host did not live to finish left under `tempParent`. */
export function sweepSheetTemp(tempParent: string): Promise<number> {
  return sweepTempFolders(tempParent, TEMP_PREFIX);
}
