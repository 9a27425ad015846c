/**
 * Upload Files… / Upload Folder… (and a drop on a group or folder row), once its place is known: ask for the files
 * (ask.ts), read the target folder's index, plan the upload (files, folders, size, each clash, the names refused and
 * why), ask about the clashes and confirm (ask.ts), then run it as a job of the engine, with progress, time left and
 * cancel, and report how it went (report.ts). A portal without the upload endpoints (a spec-only one) is told once,
 * plainly, and nothing changes. The engine's uploads kind does the work (src/engine/uploads).
 */
import * as vscode from 'vscode';
import { refusesUploads, type PortalClient } from '../../../api/index';
import { planUpload } from '../../../engine/uploads/plan';
import { runUploads, type UploadResult } from '../../../engine/uploads/run';
import { cancellableProgress } from '../../../ui/cancellableProgress';
import type { Ui } from '../../../ui/ui';
import { askFiles, confirmPlan } from './ask';
import type { UploadPlace } from './place';
import { meter, tell } from './report';
import { nothingToUpload } from './words';

export interface UploadDeps {
  readonly client: (portalId: string) => PortalClient;
  readonly storageFolder: string;
  readonly log: vscode.LogOutputChannel;
  /** The Explorer reads the place again once files landed. */
  readonly refresh: () => void;
}

/** The local paths a drop brought, or the dialog that asks for them. */
export type UploadFiles = readonly string[] | 'files' | 'folder';

/**
 * Asks for the files (unless a drop brought them), plans, confirms, runs, reports. The result, or undefined when
 * nothing was sent.
 */
export async function upload(
  ui: Ui,
  deps: UploadDeps,
  place: UploadPlace,
  files: UploadFiles,
): Promise<UploadResult | undefined> {
  const localPaths = typeof files === 'string' ? await askFiles(ui, place, files) : files;
  const client = deps.client(place.target.portalId);
  let index: ReadonlyMap<string, number>;
  try {
    index = await client.uploads.index(place.target);
  } catch (e) {
    if (!refusesUploads(e)) throw e;
    // The spec has no file writes: said once per portal, then the same sentence each time it is tried again.
    ui.notify(
      'warning',
      vscode.l10n.t(
        '{0} does not accept uploads: the upload endpoints other clients of this service use are not there. Nothing was changed.',
        place.group.account.label,
      ),
    );
    return undefined;
  }
  const plan = await planUpload(place.target, localPaths, index);
  if (plan.files.length === 0) {
    ui.notify('warning', nothingToUpload(place, plan));
    return undefined;
  }
  const units = await confirmPlan(ui, place, plan);
  if (!units) return undefined;
  const result = await cancellableProgress(
    ui,
    'upload.progress',
    vscode.l10n.t('Uploading to {0}', place.label),
    (progress, signal) =>
      runUploads(client, plan, units, {
        storageFolder: deps.storageFolder,
        signal,
        onProgress: meter(progress, plan),
        title: vscode.l10n.t('Upload to {0}', place.label),
        targetName: place.fullLabel,
      }),
  );
  deps.refresh();
  tell(ui, deps.log, place, result);
  return result;
}
