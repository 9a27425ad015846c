/**
 * The documents a `portal:` URI shows when the portal does not give its data: why, in the portal's terms, and what to
 * do. VS Code's own file-system messages ("Unable to read file … Unable to resolve nonexistent file …") never reach
 * the user from a text document. No VS Code here.
 */
import * as l10n from '@vscode/l10n';
import type { PortalError } from '../../../api/index';
import { text } from '../../../shared/markdown';
import { shownName, type PortalTarget } from './uri';

type TextTarget = Exclude<PortalTarget, { kind: 'content' }>;

/** The heading: the name in the URI, without the "(record)" that only keeps editor tabs apart. */
function heading(target: TextTarget): string {
  return `# ${text(shownName(target.name))}`;
}

/** What a document of a portal that is signed out (or no longer listed) says instead of its data. */
function notSignedInText(kind: TextTarget['kind'], portalLabel: string, known: boolean): string {
  const portal = text(portalLabel);
  return known
    ? l10n.t(
        'This {0} is on {1}, which is signed out. Sign in (Portal view → "Sign in again…") and this document loads here.',
        noun(kind),
        portal,
      )
    : l10n.t(
        'This {0} is on a portal that is no longer in the Portal views ({1}). Add it again by signing in to it.',
        noun(kind),
        portal,
      );
}

export function renderNotSignedIn(target: TextTarget, portalLabel: string, known: boolean): string {
  return [heading(target), '', notSignedInText(target.kind, portalLabel, known), ''].join('\n');
}

/** "file record", "group", …: what the document is about, in words. */
function noun(kind: TextTarget['kind']): string {
  switch (kind) {
    case 'record':
      return l10n.t('file record');
    case 'group':
      return l10n.t('group');
    case 'account':
      return l10n.t('organisation');
    case 'application':
      return l10n.t('application');
  }
}

/** What happened, by the error's kind. */
function what(err: PortalError, thing: string): string {
  switch (err.kind) {
    case 'not-found':
      return l10n.t(
        'The portal did not give this {0}: it may have been deleted or moved, you may no longer have access to it, or the portal does not offer this read.',
        thing,
      );
    case 'forbidden':
      return l10n.t('The portal refused to show this {0} to you.', thing);
    default:
      return l10n.t('The portal could not be asked for this {0}.', thing);
  }
}

/** A document that says why the portal did not give its data; reopening it (or "Refresh") asks again. */
export function renderProblem(target: TextTarget, err: PortalError): string {
  return [
    heading(target),
    '',
    what(err, noun(target.kind)),
    '',
    `> ${text(err.message)}`,
    '',
    l10n.t('Close this document and open it again from the Portal views to ask the portal again.'),
    '',
  ].join('\n');
}
