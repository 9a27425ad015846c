/**
 * "Download Folder…": a folder (or a group's whole root) with its subfolders, into a local folder the user picks.
 * Listing and downloading each show progress and can be cancelled; files already there are skipped or overwritten
 * as the user says (asked once, for all of them); no partial file is ever left behind (folderWriter.ts writes
 * each file atomically). The cores are folderPlan.ts and folderWriter.ts.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PortalClient } from '../../../api/index';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { markOfTheWeb } from '../../../node/markOfTheWeb';
import { count, humanSize } from '../../../shared/format';
import type { GroupRef } from '../../../shared/refs';
import { filesByName } from '../../../targets/pick';
import { groupFor } from '../../../targets/resolve';
import type { Run } from '../../../ui/commands';
import { answered, type PickItem, type Progress, type Ui } from '../../../ui/ui';
import { walkFolder, type FolderPlan, type FolderTarget } from './folderPlan';
import { downloadPlan, findClashes, type DownloadProgress, type DownloadSummary } from './folderWriter';
import { cancellableProgress } from '../../../ui/cancellableProgress';
import { askDownloadFolder } from './fileDownload';

/** The folder of the row the command ran on (a group row: the whole group); else one the user picks. */
export async function folderFor(run: Run, registry: PortalRegistry): Promise<FolderTarget> {
  const t = run.target;
  if (t?.kind === 'file' && t.isFolder) return { group: t.group, folderId: t.fileId, name: t.name };
  if (t?.kind === 'group') return { group: t, folderId: 0, name: t.label };
  return answered(await pickFolder(run.ui, registry, await groupFor(run, registry)));
}

function pickFolder(ui: Ui, registry: PortalRegistry, group: GroupRef): Promise<FolderTarget | undefined> {
  const client = registry.client(group.account.portalId);
  const whole: PickItem<FolderTarget> = {
    label: vscode.l10n.t('All of {0}', group.label),
    icon: 'project',
    description: vscode.l10n.t('every folder and file of the group'),
    value: { group, folderId: 0, name: group.label },
  };
  return ui.search(
    async function* folders(search, signal) {
      if (!search) yield [whole];
      const page = await filesByName(client, group, search, signal, true);
      // A portal that ignores foldersOnly lists files too.
      yield page.items
        .filter((f) => f.isFolder)
        .map((f): PickItem<FolderTarget> => ({
          label: f.friendlyName || f.name,
          icon: 'folder',
          value: { group, folderId: f.id, name: f.friendlyName || f.name },
        }));
    },
    { id: 'pick.folder', placeHolder: vscode.l10n.t('{0}: which folder? Type to search folders by name', group.label) },
  );
}

/** Progress in files and bytes, reported when a whole percent (or a file) more is done. */
function meter(progress: Progress): (p: DownloadProgress) => void {
  let reported = 0;
  let files = -1;
  return (p) => {
    const share = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.filesTotal > 0 ? p.filesDone / p.filesTotal : 1;
    const pct = Math.max(0, Math.min(100, share * 100));
    if (Math.floor(pct) === Math.floor(reported) && p.filesDone === files) return;
    files = p.filesDone;
    progress.report({
      increment: Math.max(0, pct - reported),
      message: vscode.l10n.t(
        '{0} of {1} files · {2} of {3}',
        count(p.filesDone),
        count(p.filesTotal),
        humanSize(p.bytesDone),
        humanSize(p.bytesTotal),
      ),
    });
    reported = Math.max(reported, pct);
  };
}

/** Skip or overwrite the files already there: asked once, for all of them. */
async function existingChoice(ui: Ui, plan: FolderPlan, dir: string): Promise<'skip' | 'overwrite'> {
  const clashes = await findClashes(plan, dir);
  if (clashes.blocked.length > 0) {
    ui.notify(
      'warning',
      vscode.l10n.t(
        '{0} paths in {1} are in the way (a folder where a file goes, or the other way round); those files will fail.',
        count(clashes.blocked.length),
        dir,
      ),
    );
  }
  if (clashes.existing.length === 0) return 'skip';
  return answered(
    await ui.choose<'skip' | 'overwrite'>({
      id: 'folderDownload.existing',
      severity: 'warning',
      modal: true,
      message: vscode.l10n.t(
        '{0} of the {1} files are already in {2}.',
        count(clashes.existing.length),
        count(plan.files.length),
        path.join(dir, plan.folders[0] ?? ''),
      ),
      detail: vscode.l10n.t("Skip keeps them as they are. Overwrite replaces them with the portal's content."),
      actions: [
        { id: 'skip', label: vscode.l10n.t('Skip Existing Files') },
        { id: 'overwrite', label: vscode.l10n.t('Overwrite') },
      ],
    }),
  );
}

/** Asks where, lists the folder, asks about existing files, downloads. The summary, or undefined when nothing was done. */
export async function downloadFolder(
  ui: Ui,
  client: PortalClient,
  log: vscode.LogOutputChannel,
  target: FolderTarget,
): Promise<DownloadSummary | undefined> {
  const dir = await askDownloadFolder(
    ui,
    'folderDownload.folder',
    vscode.l10n.t('Download {0} with its subfolders', target.name),
  );
  if (!dir) return undefined;
  const plan = await cancellableProgress(
    ui,
    'folderDownload.walk',
    vscode.l10n.t('Listing {0}…', target.name),
    (_progress, signal) => walkFolder(client, target, { signal }),
  );
  if (plan.files.length === 0) {
    ui.notify('info', vscode.l10n.t('{0} holds no files to download.', target.name));
    return undefined;
  }
  const existing = await existingChoice(ui, plan, dir);
  const summary = await cancellableProgress(
    ui,
    'folderDownload.progress',
    vscode.l10n.t('Downloading {0}', target.name),
    (progress, signal) =>
      downloadPlan(client, plan, dir, {
        existing,
        signal,
        onProgress: meter(progress),
        mark: (file) => markOfTheWeb(file, client.baseUrl),
      }),
  );
  for (const f of summary.failed) log.warn(`folder download: ${f.file.path}: ${f.message}`);
  tell(ui, target.name, path.join(dir, plan.folders[0] ?? ''), plan, summary);
  return summary;
}

/** The first few renamed paths, as the download wrote them. */
function renamedList(renamed: readonly string[]): string {
  const shown = renamed.slice(0, 3).join(', ');
  return renamed.length > 3 ? vscode.l10n.t('{0} and {1} more', shown, count(renamed.length - 3)) : shown;
}

/** The end: what was written, kept, not downloaded or failed, and what the walk left out. */
function tell(ui: Ui, name: string, local: string, plan: FolderPlan, s: DownloadSummary): void {
  const parts = [vscode.l10n.t('{0} files written ({1}).', count(s.written.length), humanSize(s.bytes))];
  if (s.skipped.length > 0) parts.push(vscode.l10n.t('{0} already there were kept.', count(s.skipped.length)));
  if (s.cancelled.length > 0)
    parts.push(vscode.l10n.t('{0} not downloaded: cancelled. No partial file was left.', count(s.cancelled.length)));
  if (s.failed.length > 0)
    parts.push(
      vscode.l10n.t(
        '{0} failed (see the Portal log), the first: {1}',
        count(s.failed.length),
        s.failed[0]?.message ?? '',
      ),
    );
  if (plan.depthLimited) parts.push(vscode.l10n.t('Subfolders nested too deep were left out.'));
  if (plan.countLimited)
    parts.push(vscode.l10n.t('The folder holds more than could be downloaded at once; the rest was left out.'));
  if (plan.renamed.length > 0)
    parts.push(
      vscode.l10n.t(
        '{0} renamed so that Git and VS Code run nothing from them: {1}.',
        count(plan.renamed.length),
        renamedList(plan.renamed),
      ),
    );
  const title =
    s.cancelled.length > 0
      ? vscode.l10n.t('Download of {0} cancelled.', name)
      : vscode.l10n.t('Downloaded {0} to {1}.', name, local);
  const severity =
    s.failed.length > 0 || plan.depthLimited || plan.countLimited || plan.renamed.length > 0 ? 'warning' : 'info';
  void ui
    .choose({
      id: 'folderDownload.done',
      severity,
      modal: false,
      message: `${title} ${parts.join(' ')}`,
      actions: [{ id: 'reveal', label: vscode.l10n.t('Reveal in Explorer') }],
    })
    .then((choice) => {
      if (choice === 'reveal') void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(local));
    });
}
