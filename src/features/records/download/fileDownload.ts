/**
 * "Download…": streams a file record's content to a folder the user picks, with progress and cancel. A
 * cancelled or failed download leaves no partial file behind, and nothing is written through a link.
 */
import * as path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as vscode from 'vscode';
import type { PortalClient } from '../../../api/index';
import { createNewFile, removeFile, type FileHandle } from '../../../node/disk';
import { markOfTheWeb } from '../../../node/markOfTheWeb';
import { isCancellation } from '../../../shared/errors';
import { humanSize } from '../../../shared/format';
import type { FileRef } from '../../../shared/refs';
import type { FolderOptions, Progress, Ui } from '../../../ui/ui';
import { freeName, localFileName } from './fileNames';
import { announceFileWritten } from '../../../ui/fileWritten';
import { cancellableProgress } from '../../../ui/cancellableProgress';

/** The folder a download writes into, or undefined when the user cancelled. */
export function askDownloadFolder(ui: Ui, id: FolderOptions['id'], title: string): Promise<string | undefined> {
  return ui.pickFolder({ id, title, openLabel: vscode.l10n.t('Download here') });
}

/**
 * Asks where, then downloads. Resolves with the file written, or undefined when the user cancelled. The record's
 * size, when known, shows progress in percent rather than only bytes.
 */
export async function download(
  ui: Ui,
  client: PortalClient,
  target: Pick<FileRef, 'group' | 'fileId' | 'name' | 'size'>,
): Promise<string | undefined> {
  const dir = await askDownloadFolder(ui, 'download.folder', vscode.l10n.t('Download {0}', target.name));
  if (!dir) return undefined;
  // The name is claimed (created exclusively) before anything else, so the file removed after a failure is
  // always the one this download created: never another download's, never one that appeared meanwhile.
  const { file, handle } = await claimFreeName(dir, localFileName(target.name));
  try {
    await cancellableProgress(
      ui,
      'download.progress',
      vscode.l10n.t('Downloading {0}', target.name),
      (progress, signal) => streamTo(client, target, handle, progress, signal),
    );
  } catch (error) {
    await handle.close().catch(() => undefined);
    await removeFile(file).catch(() => undefined);
    if (!isCancellation(error)) throw error;
    ui.notify('info', vscode.l10n.t('Download of {0} cancelled; nothing was kept.', target.name));
    return undefined;
  }
  await markOfTheWeb(file, client.baseUrl);
  announce(ui, target.name, file);
  return file;
}

async function streamTo(
  client: PortalClient,
  target: Pick<FileRef, 'group' | 'fileId' | 'size'>,
  handle: FileHandle,
  progress: Progress,
  signal: AbortSignal,
): Promise<void> {
  const body = await client.v2.files.download(target.group.groupId, target.fileId, { signal });
  await pipeline(
    body.body,
    progressMeter(body.length ?? target.size ?? undefined, progress),
    handle.createWriteStream(),
    { signal },
  );
}

/** Passes the bytes through and reports how far: in percent when the size is known, else in KB. */
function progressMeter(total: number | undefined, progress: Progress): Transform {
  let received = 0;
  let reported = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (total && total > 0) {
        const pct = Math.min(100, (received / total) * 100);
        progress.report({ increment: pct - reported, message: vscode.l10n.t('{0}%', Math.round(pct)) });
        reported = pct;
      } else {
        progress.report({ message: humanSize(received) });
      }
      done(null, chunk);
    },
  });
}

/** Says where the file went and offers to open it; nobody has to answer. */
function announce(ui: Ui, name: string, file: string): void {
  announceFileWritten(ui, 'download.done', vscode.l10n.t('Downloaded {0} to {1}.', name, file), file);
}

/** Bounds the retries when other downloads keep taking the free name first. */
const MAX_CLAIMS = 20;

/**
 * Creates the first free "name", "name (1)"… in `dir` exclusively, so concurrent downloads never share one and a link
 * at the name (even one to nowhere) is a taken name, never written through.
 */
async function claimFreeName(dir: string, name: string): Promise<{ file: string; handle: FileHandle }> {
  for (let i = 0; ; i++) {
    const file = path.join(dir, freeName(dir, name));
    try {
      return { file, handle: await createNewFile(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || i + 1 >= MAX_CLAIMS) throw error;
    }
  }
}
