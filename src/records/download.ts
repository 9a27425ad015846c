/**
 * "Download…": streams a file record's content to a folder the user picks, with progress and cancel. A
 * cancelled or failed download leaves no partial file behind.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as vscode from 'vscode';
import type { PortalClient } from '../api';
import { freeName, localFileName } from './fileNames';
import { isCancellation } from '../shared/errors';
import * as notify from '../shared/notify';
import { plain } from '../shared/plainText';

export interface DownloadTarget {
  readonly groupId: number;
  readonly fileId: number;
  readonly name: string;
  /** From the record, when known: progress in percent rather than only bytes. */
  readonly size?: number | undefined;
}

/** Asks where, then downloads. Resolves with the file written, or undefined when the user cancelled. */
export async function downloadWithProgress(client: PortalClient, target: DownloadTarget, folder?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const chosen = folder ?? (await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    openLabel: 'Download here',
    title: plain(`Download ${target.name}`),
  }))?.[0];
  if (!chosen) return undefined;
  if (chosen.scheme !== 'file') {
    void notify.error('Downloads go to a folder on this machine; pick a local folder.');
    return undefined;
  }
  const dir = chosen.fsPath;

  return notify.progress(
    { location: vscode.ProgressLocation.Notification, title: `Downloading ${target.name}`, cancellable: true },
    async (progress, token) => {
      // The name is claimed (created exclusively) before anything else, so the file removed after a failure is
      // always the one this download created: never another download's, never one that appeared meanwhile.
      const { file, handle } = await claimFreeName(dir, localFileName(target.name));
      const controller = new AbortController();
      const onCancel = token.onCancellationRequested(() => controller.abort());
      try {
        const download = await client.v2.files.download(target.groupId, target.fileId, { signal: controller.signal });
        const total = download.length ?? target.size;
        let received = 0;
        let reported = 0;
        const meter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            received += chunk.length;
            if (total && total > 0) {
              const pct = Math.min(100, (received / total) * 100);
              progress.report({ increment: pct - reported, message: `${Math.round(pct)}%` });
              reported = pct;
            } else {
              progress.report({ message: `${Math.round(received / 1024)} KB` });
            }
            done(null, chunk);
          },
        });
        await pipeline(download.body, meter, handle.createWriteStream(), { signal: controller.signal });
        const uri = vscode.Uri.file(file);
        void notify.info(`Downloaded ${target.name} to ${file}.`, 'Open', 'Reveal in Explorer').then((choice) => {
          if (choice === 'Open') void vscode.commands.executeCommand('vscode.open', uri);
          if (choice === 'Reveal in Explorer') void vscode.commands.executeCommand('revealFileInOS', uri);
        });
        return uri;
      } catch (error) {
        await handle.close().catch(() => undefined);
        await fs.promises.rm(file, { force: true }).catch(() => undefined);
        if (token.isCancellationRequested || isCancellation(error)) {
          void notify.info(`Download of ${target.name} cancelled; nothing was kept.`);
          return undefined;
        }
        throw error;
      } finally {
        onCancel.dispose();
      }
    },
  );
}

/** Bounds the retries when other downloads keep taking the free name first. */
const MAX_CLAIMS = 20;

/** Creates the first free "name", "name (1)"… in `dir` exclusively ('wx'), so concurrent downloads never share one. */
async function claimFreeName(dir: string, name: string): Promise<{ file: string; handle: fs.promises.FileHandle }> {
  for (let i = 0; ; i++) {
    const file = path.join(dir, freeName(dir, name));
    try {
      return { file, handle: await fs.promises.open(file, 'wx') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || i + 1 >= MAX_CLAIMS) throw error;
    }
  }
}
