/**
 * What an upload says of its plan, in a person's words: the names refused and why, that there is nothing to upload,
 * and the plan as the confirmation puts it. Texts name the portal's things as they are: the Ui makes every text plain
 * (no link, no icon) on its way to VS Code.
 */
import * as vscode from 'vscode';
import type { RefusalReason, UploadPlan } from '../../../engine/uploads/plan';
import { count, humanSize } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import type { ConfirmOptions } from '../../../ui/ui';
import type { UploadPlace } from './place';

function reasonText(reason: RefusalReason): string {
  switch (reason) {
    case 'empty':
      return vscode.l10n.t('the name is empty');
    case 'too-long':
      return vscode.l10n.t('the name is longer than 255 characters');
    case 'separator':
      return vscode.l10n.t('the name holds a slash, a backslash or a control character');
    case 'dots':
      return vscode.l10n.t('"." and ".." name no file');
    case 'spaces':
      return vscode.l10n.t('the name starts or ends with a space');
    case 'markup':
      return vscode.l10n.t('the name reads as a command link or an icon');
    case 'not-a-file':
      return vscode.l10n.t('it is neither a file nor a folder (a link or a device)');
    case 'empty-folder':
      return vscode.l10n.t('the portal offers no way to create an empty folder');
  }
}

/** "x.txt not uploaded: the name …"; the path is shown defused, as the name may be the very markup refused. */
function refusalText(r: { readonly path: string; readonly reason: RefusalReason }): string {
  const why = reasonText(r.reason);
  return vscode.l10n.t('{0} not uploaded: {1}.', plain(r.path), why);
}

/** A plan without a file: the first name refused and why, or that none was chosen. */
export function nothingToUpload(place: UploadPlace, plan: UploadPlan): string {
  const first = plan.refused[0];
  return first
    ? vscode.l10n.t('Nothing to upload to {0}: {1}', place.label, refusalText(first))
    : vscode.l10n.t('Nothing to upload to {0}: no files were chosen.', place.label);
}

const filesWord = (n: number): string => (n === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', count(n)));

/**
 * The plan in words, before anything is sent: where the files land (`into`), what is already there, what is not
 * uploaded and why; it says that an upload cannot be undone.
 */
export function confirmation(
  place: UploadPlace,
  plan: UploadPlan,
  units: number,
  into: string,
): Omit<ConfirmOptions, 'id'> {
  const refused = plan.refused.slice(0, 5).map(refusalText);
  const clashes = plan.files.filter((f) => f.existingId !== undefined).length;
  const folders = plan.folders.length;
  const lines = [
    folders === 0
      ? vscode.l10n.t('{0} into {1}, {2}.', filesWord(plan.files.length), into, humanSize(plan.bytes))
      : vscode.l10n.t(
          '{0} into {1} ({2}), {3}.',
          filesWord(plan.files.length),
          into,
          folders === 1 ? vscode.l10n.t('1 folder') : vscode.l10n.t('{0} folders', count(folders)),
          humanSize(plan.bytes),
        ),
  ];
  if (clashes > 0)
    lines.push(
      clashes === 1
        ? vscode.l10n.t('1 name is already there; {0} will be sent.', filesWord(units))
        : vscode.l10n.t('{0} names are already there; {1} will be sent.', count(clashes), filesWord(units)),
    );
  lines.push(...refused);
  if (plan.refused.length > 5)
    lines.push(vscode.l10n.t('… and {0} more not uploaded.', count(plan.refused.length - 5)));
  lines.push(
    vscode.l10n.t('An upload cannot be undone: the portal offers no way to delete or take back an uploaded file.'),
  );
  return {
    message: vscode.l10n.t('Upload {0} files to {1}?', count(units), place.label),
    detail: lines.join('\n'),
    action: vscode.l10n.t('Upload'),
  };
}
