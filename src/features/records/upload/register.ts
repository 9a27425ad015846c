/**
 * The upload commands (Upload Files…, Upload Folder… on group and folder rows), the Explorer's drop, and the offer
 * to resume an upload a reload or crash cut off (at start-up, and from Resume Interrupted Upload…: resumeOffer.ts).
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { Cancelled } from '../../../shared/errors';
import { count } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import { groupFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../../ui/commands';
import { answered, type Ui } from '../../../ui/ui';
import { UploadDropController, type Dropped } from './dropController';
import { releaseStaged, stageDropped } from './dropped';
import { offerResume } from './resumeOffer';
import { placeOf, upload, type UploadDeps, type UploadPlace } from './uploadCommand';

async function placeFor(run: Run, registry: PortalRegistry): Promise<UploadPlace> {
  const place = placeOf(run.target) ?? placeOf(await groupFor(run, registry));
  if (!place) throw new Error('No group to upload to.');
  return place;
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
      plain(folders.join(', ')),
    ),
    actions: [{ id: 'folder', label: vscode.l10n.t('Upload Folder…') }],
  });
  if (choice === 'folder') await chooseAndUpload(ui, deps, place, true);
}

async function chooseAndUpload(ui: Ui, deps: UploadDeps, place: UploadPlace, folders: boolean): Promise<unknown> {
  const title = vscode.l10n.t('Upload to {0}', place.label);
  const openLabel = vscode.l10n.t('Upload');
  const paths = folders
    ? [answered(await ui.pickFolder({ id: 'upload.folder', title, openLabel }))]
    : answered(await ui.pickFiles({ id: 'upload.files', title, openLabel }));
  return upload(ui, deps, place, paths);
}

async function uploadChosen(run: Run, deps: UploadDeps, registry: PortalRegistry, folders: boolean): Promise<unknown> {
  return chooseAndUpload(run.ui, deps, await placeFor(run, registry), folders);
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
      registerCommand(env, 'portal.upload.files', (run) => uploadChosen(run, deps, registry, false)),
      registerCommand(env, 'portal.upload.folder', (run) => uploadChosen(run, deps, registry, true)),
      registerCommand(env, 'portal.upload.resume', (run) => offerResume(run.ui, deps, true)),
    ],
  };
}
