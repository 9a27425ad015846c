/** What the upload plan says about a name it refuses, in a person's words. */
import * as vscode from 'vscode';
import type { RefusalReason } from '../../../engine/uploads/plan';
import { plain } from '../../../shared/plainText';

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
export function refusalText(r: { readonly path: string; readonly reason: RefusalReason }): string {
  const why = reasonText(r.reason);
  return vscode.l10n.t('{0} not uploaded: {1}.', plain(r.path), why);
}
