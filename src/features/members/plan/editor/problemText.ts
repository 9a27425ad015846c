/**
 * The engine's problems in the user's language: each code has one message, its arguments (file or portal text)
 * made plain, so a cell that reads like a link or an icon is shown as typed.
 */
import * as vscode from 'vscode';
import { plain } from '../../../../shared/plainText';
import type { ElevationKind, SignInField } from '../core/elevation';
import type { Problem } from '../core/model';
import { elevationText } from '../planWords';

/** A cell or header as it is shown inside a message: plain, one line, cut when long. */
const q = (value: string | number | undefined): string => plain(value ?? '', { maxLength: 80 });

type Words = (a: string | number | undefined, b: string | number | undefined) => string;

/** One message builder per code; each string stays a literal `vscode.l10n.t` call so the l10n export finds it. */
const MESSAGES: Record<Problem['code'], Words> = {
  'csv-malformed': (a) => vscode.l10n.t('This line is not valid CSV: {0}', q(a)),
  'no-username-column': () =>
    vscode.l10n.t('The file needs a "username" column: it names the member each row is about.'),
  'unknown-column': (a) =>
    vscode.l10n.t(
      'Unknown column "{0}": it is not a member field, a read-only column or "group:" followed by a group name.',
      q(a),
    ),
  'duplicate-column': (a) => vscode.l10n.t('The column "{0}" appears twice.', q(a)),
  'unknown-group': (a) => vscode.l10n.t('The organisation has no group named "{0}".', q(a)),
  'read-only-column': (a) => vscode.l10n.t('The column "{0}" is read-only: edits to it are ignored.', q(a)),
  'bad-group-permission': (a) =>
    vscode.l10n.t(
      '"{0}" is not a group permission: write Basic, Standard, Administrator, keep (as the portal has it), or leave the cell empty.',
      q(a),
    ),
  'bad-account-permission': (a) =>
    vscode.l10n.t('"{0}" is not an organisation permission: write Member, Group creator or Super administrator.', q(a)),
  'bad-boolean': (a, b) => vscode.l10n.t('{0}: "{1}" is not true or false.', q(a), q(b)),
  'bad-date': (a, b) =>
    vscode.l10n.t('{0}: "{1}" is not a date (write it as 2026-01-31 or 2026-01-31T09:00).', q(a), q(b)),
  'empty-username': () => vscode.l10n.t('The username is empty.'),
  'bad-username': (a) => vscode.l10n.t('"{0}" cannot be a username on the portal.', q(a)),
  'duplicate-username': (a, b) =>
    vscode.l10n.t('The username "{0}" is also on line {1}: neither row is planned until one is removed.', q(a), q(b)),
  'bad-email': (a) => vscode.l10n.t('"{0}" is not an e-mail address.', q(a)),
  'too-long': (a, b) => vscode.l10n.t('{0} is longer than the portal holds ({1} characters at most).', q(a), q(b)),
  'bad-tag': (a) => vscode.l10n.t('The tag "{0}" cannot be stored by the portal.', q(a)),
  'missing-for-create': (a, b) =>
    vscode.l10n.t('{0} is a new member: the portal needs "{1}" to create them.', q(a), q(b)),
  'cannot-enable-two-factor': () =>
    vscode.l10n.t(
      'Two-factor authentication can be turned off from a file, not on: the member turns it on themselves.',
    ),
  'extra-cells': (a) => vscode.l10n.t('This row has {0} more cells than the header: they are ignored.', q(a)),
  'blank-value': (a) => vscode.l10n.t('{0} cannot be empty: every member has one.', q(a)),
  'no-lastmodified-column': () =>
    vscode.l10n.t(
      'Without a "lastModified" column, changes made on the portal after the export cannot be told apart: export again to have it.',
    ),
  'future-last-modified': (a) =>
    vscode.l10n.t(
      'lastModified "{0}" is later than the portal was read: it cannot be the export\'s, so the row is not planned. Export again.',
      q(a),
    ),
  elevation: (a, b) =>
    vscode.l10n.t(
      'This row grants {0}.',
      elevationText({ kind: a as ElevationKind, group: String(b ?? ''), field: b as SignInField }),
    ),
};

export function problemMessage(p: Problem): string {
  const [a, b] = p.args;
  return MESSAGES[p.code](a, b);
}

export function problemSeverity(p: Problem): vscode.DiagnosticSeverity {
  return p.severity === 'error'
    ? vscode.DiagnosticSeverity.Error
    : p.severity === 'warning'
      ? vscode.DiagnosticSeverity.Warning
      : vscode.DiagnosticSeverity.Information;
}

export function problemDiagnostic(p: Problem): vscode.Diagnostic {
  const range = new vscode.Range(
    p.line,
    p.column,
    p.endLine,
    Math.max(p.endColumn, p.line === p.endLine ? p.column + 1 : 0),
  );
  const d = new vscode.Diagnostic(range, problemMessage(p), problemSeverity(p));
  d.source = vscode.l10n.t('Portal members file');
  d.code = p.code;
  return d;
}
