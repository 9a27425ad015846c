/**
 * The worker that reads HR's sheet (sheetReader.ts) with a heap of its own, limited by the host (sheet.ts): the
 * sheet's path comes in, its header and rows, or why they could not be read, go out, and the worker ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UnsafePathError } from '../../../node/disk';
import { ZipRefused } from '../../../node/zipEntries';
import { SheetError, type SheetAnswer } from './sheet';
import { readSheetHere } from './sheetReader';

function answer(message: SheetAnswer): void {
  parentPort?.postMessage(message);
}

function refusal(error: unknown): SheetAnswer {
  if (error instanceof ZipRefused)
    return { type: 'error', known: true, message: `The workbook was not read: ${error.message}` };
  if (error instanceof SheetError || error instanceof UnsafePathError || error instanceof RangeError)
    return { type: 'error', known: true, message: error.message };
  return { type: 'error', known: false, message: error instanceof Error ? error.message : String(error) };
}

// exceljs pipes its input without passing its errors on: a workbook stopped for outgrowing its declared sizes
// surfaces here, and is answered like any other refusal (the host then ends this worker).
process.on('uncaughtException', (error) => answer(refusal(error)));

const { file } = workerData as { file: string };
readSheetHere(file).then(
  (sheet) => answer({ type: 'sheet', sheet }),
  (error: unknown) => answer(refusal(error)),
);
