/**
 * The documents a `portal:` URI shows when the portal does not give its data: why, in the portal's terms, and what to
 * do. VS Code's own file-system messages ("Unable to read file … Unable to resolve nonexistent file …") never reach
 * the user from a text document. No VS Code here.
 */
import * as l10n from '@vscode/l10n';
import type { PortalError } from '../../../api/index';
import { text } from './render';
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

/** What a link asks for, by ids only: its names and query are the link's word, not the portal's. */
export function linkAsks(target: PortalTarget): string {
  switch (target.kind) {
    case 'record':
      return l10n.t(
        'file record {0} in group {1} of organisation {2}',
        target.fileId,
        target.groupId,
        target.accountId,
      );
    case 'content':
      return l10n.t(
        'the content of file record {0} in group {1} of organisation {2}',
        target.fileId,
        target.groupId,
        target.accountId,
      );
    case 'group':
      return l10n.t('group {0} of organisation {1}', target.groupId, target.accountId);
    case 'account':
      return l10n.t('organisation {0}', target.accountId);
    case 'application':
      return l10n.t('application {0}', text(target.clientId));
  }
}

/**
 * The placeholder of a `portal:` URI this extension did not make (a link in a file, a JSON schema, another
 * extension): nothing was read from the portal. A person loads it with a click on "Load from the Portal" (a code
 * lens above the first line) or the command of that name.
 */
export function renderNotLoaded(target: PortalTarget, portalLabel: string | undefined): string {
  return [
    `# ${l10n.t('Not loaded from the portal')}`,
    '',
    l10n.t(
      'This portal: link was not opened from the Portal views: something else asked for it (a link in a file, a JSON schema, another extension), so nothing was read from the portal.',
    ),
    '',
    `- **${l10n.t('The link asks for')}:** ${linkAsks(target)}`,
    `- **${l10n.t('Portal')}:** ${
      portalLabel === undefined
        ? l10n.t('{0}, which is not one of your portals', text(target.portalId))
        : text(portalLabel)
    }`,
    '',
    l10n.t(
      'To read it from the portal, click "Load from the Portal" above the first line, or run "Portal: Load This Document from the Portal".',
    ),
    '',
  ].join('\n');
}
