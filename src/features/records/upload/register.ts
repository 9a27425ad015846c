/**
 * The upload commands (Upload Files…, Upload Folder… on group and folder rows), the Explorer's drop, and the offer
 * to resume an upload a reload or crash cut off (at start-up, and from Resume Interrupted Upload…: resumeOffer.ts).
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { Cancelled } from '../../../shared/errors';
import { count } from '../../../shared/format';
import { groupFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../../ui/commands';
import type { Ui } from '../../../ui/ui';
import { UploadDropController, type Dropped } from './dropController';
import { releaseStaged, stageDropped } from './dropped';
import { offerResume } from './resumeOffer';
import { placeAt, type UploadPlace } from './place';
import { upload, type UploadDeps } from './uploadCommand';

/** The folder row the command ran on, else its group (the row's, or one asked for, portal and organisation first). */
async function placeFor(run: Run, registry: PortalRegistry): Promise<UploadPlace> {
  const row = run.target;
  return placeAt(row?.kind === 'file' && row.isFolder ? row : await groupFor(run, registry));
}

/**
 * A drop: local paths as they are, files that came as bytes through a staged copy. A folder that came without its
 * files (VS Code in a browser) is named back with the folder dialog one click away.
 */
async function uploadDropped(ui: Ui, deps: UploadDeps, place: UploadPlace, dropped: Dropped): Promise<void> {
  if (dropped.others > 0)
    ui.notify(
      'warning',
      vscode.l10n.t('{0} dropped items are not local files and were left out.', count(dropped.others)),
    );
  // Not awaited: the files go now, while the notification waits for a click that may never come.
  if (dropped.folders.length > 0)
    void offerFolderDialog(ui, deps, place, dropped.folders).catch((error: unknown) => failed(ui, deps, error));
  const staged = dropped.files.length > 0 ? await stageDropped(deps.storageFolder, dropped.files) : undefined;
  try {
    if (staged && staged.refused.length > 0)
      ui.notify(
        'warning',
        vscode.l10n.t(
          '{0} dropped files were left out: a name that is not a plain file name, or the same name twice.',
          count(staged.refused.length),
        ),
      );
    const paths = [...dropped.paths, ...(staged?.paths ?? [])];
    if (paths.length > 0) await upload(ui, deps, place, paths);
  } finally {
    if (staged) await releaseStaged(deps.storageFolder, [staged.folder]);
  }
}

/** A drop has no command around it to report its failure: said here; a question left unanswered ends it quietly. */
function failed(ui: Ui, deps: UploadDeps, error: unknown): void {
  if (error instanceof Cancelled) return;
  deps.log.warn(`upload (drop) failed: ${String(error)}`);
  ui.notify('error', error instanceof Error ? error.message : String(error));
}

async function offerFolderDialog(ui: Ui, deps: UploadDeps, place: UploadPlace, folders: string[]): Promise<void> {
  const choice = await ui.choose({
    id: 'upload.droppedFolder',
    severity: 'warning',
    modal: false,
    message: vscode.l10n.t(
      '{0} came without its files: VS Code in a browser does not hand a dropped folder’s contents to extensions. Choose it with Upload Folder… to upload it.',
      folders.join(', '),
    ),
    actions: [{ id: 'folder', label: vscode.l10n.t('Upload Folder…') }],
  });
  if (choice === 'folder') await upload(ui, deps, place, 'folder');
}

/** Upload Files… / Upload Folder…: where to (placeFor), then the upload, which asks for the files in `dialog`. */
async function uploadChosen(
  run: Run,
  deps: UploadDeps,
  registry: PortalRegistry,
  dialog: 'files' | 'folder',
): Promise<unknown> {
  const place = await placeFor(run, registry);
  return upload(run.ui, deps, place, dialog);
}

export function registerUploads(
  env: CommandEnv,
  registry: PortalRegistry,
  storageFolder: string,
  refresh: () => void,
): { disposables: vscode.Disposable[]; drop: UploadDropController } {
  const deps: UploadDeps = {
    client: (portalId) => registry.client(portalId),
    storageFolder,
    log: env.log,
    refresh,
  };
  const drop = new UploadDropController((place, dropped) => {
    const ui = env.ui();
    return uploadDropped(ui, deps, place, dropped).catch((error: unknown) => failed(ui, deps, error));
  });
  void offerResume(env.ui(), deps, false).catch((error: unknown) =>
    env.log.warn(`upload: the check for an interrupted upload failed: ${String(error)}`),
  );
  return {
    drop,
    disposables: [
      registerCommand(env, 'portal.upload.files', (run) => uploadChosen(run, deps, registry, 'files')),
      registerCommand(env, 'portal.upload.folder', (run) => uploadChosen(run, deps, registry, 'folder')),
      registerCommand(env, 'portal.upload.resume', (run) => offerResume(run.ui, deps, true)),
    ],
  };
}
