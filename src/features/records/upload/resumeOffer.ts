/**
 * The offer to go on with an upload a reload or crash cut off: it names where the files go, the folder they come
 * from and the first files left to send, so a resume sends only what its question showed (the engine refuses one
 * whose journal changed since, or that names a file outside that folder). *Leave It* marks the upload left alone;
 * either way, the drop's staged copies it no longer needs go.
 */
import * as vscode from 'vscode';
import type { UploadRecord } from '../../../engine/uploads/kind';
import {
  discardUploads,
  leftToSend,
  ResumeRefused,
  resumeUploads,
  unfinishedUploads,
  type UploadResult,
} from '../../../engine/uploads/run';
import { count } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import { answered, type Ui } from '../../../ui/ui';
import { releaseStaged, stagedFoldersOf } from './dropped';
import type { UploadDeps } from './uploadCommand';
import { cancellableProgress } from '../../../ui/cancellableProgress';

/** Files named in the question before "and N more". */
const NAMED = 3;

/** The question: where to, from where, which files (the first few and how many more). */
export function resumeQuestion(record: UploadRecord): string {
  const { begin } = record;
  const left = leftToSend(record);
  const names = left.slice(0, NAMED).map((u) => plain(u.path));
  const files =
    left.length > NAMED
      ? vscode.l10n.t('{0} and {1} more', names.join(', '), count(left.length - NAMED))
      : names.join(', ');
  const target = begin.targetName
    ? plain(begin.targetName)
    : vscode.l10n.t('group {0}, folder {1}', begin.target.groupId, begin.target.folderId);
  return vscode.l10n.t(
    'An upload to {0} stopped before it finished ({1} of {2} files done). Left to send from {3}: {4}. Resume it? Files already uploaded are not sent again, and a file changed since is not sent.',
    target,
    count(record.outcomes.size),
    count(record.begin.work.length),
    plain(begin.root),
    files,
  );
}

/** Offers to go on with the newest upload that stopped; asked outright from the command. */
export async function offerResume(ui: Ui, deps: UploadDeps, modal: boolean): Promise<void> {
  const [record] = await unfinishedUploads(deps.storageFolder);
  if (!record) {
    if (modal) ui.notify('info', vscode.l10n.t('No upload was interrupted: there is nothing to resume.'));
    return;
  }
  const choice = await ui.choose({
    id: 'upload.interrupted',
    severity: 'warning',
    modal,
    message: resumeQuestion(record),
    actions: [
      { id: 'resume', label: vscode.l10n.t('Resume') },
      { id: 'discard', label: vscode.l10n.t('Leave It') },
    ],
  });
  if (choice === 'resume') await resume(ui, deps, record);
  else if (choice === 'discard') await discardUploads(record);
  else if (modal) answered(undefined);
  if (choice !== undefined) await releaseStaged(deps.storageFolder, await stagedFoldersOf(deps.storageFolder, record));
}

async function resume(ui: Ui, deps: UploadDeps, record: UploadRecord): Promise<void> {
  const client = deps.client(record.begin.portalId);
  let result: UploadResult;
  try {
    result = await cancellableProgress(ui, 'upload.resume', vscode.l10n.t('Resuming an upload'), (progress, signal) =>
      resumeUploads(client, record, {
        storageFolder: deps.storageFolder,
        signal,
        onProgress: (p) => progress.report({ increment: 100 / Math.max(1, p.total) }),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResumeRefused)) throw error;
    ui.notify('error', plain(error.message));
    return;
  }
  deps.refresh();
  const outcomes = [...result.outcomes.values()];
  const done = outcomes.filter((o) => o.result === 'done').length;
  const failed = outcomes.filter((o) => o.result === 'failed');
  for (const f of failed) deps.log.warn(`upload: ${f.message}`);
  const parts = [vscode.l10n.t('{0} of {1} remaining files uploaded.', count(done), count(result.units.length))];
  if (failed.length > 0)
    parts.push(
      vscode.l10n.t('{0} failed (see the Portal log), the first: {1}', count(failed.length), plain(failed[0]?.message)),
    );
  ui.notify(failed.length > 0 ? 'warning' : 'info', parts.join(' '));
}
