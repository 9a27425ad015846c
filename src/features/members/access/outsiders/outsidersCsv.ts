/**
 * The guests and pending invitations in the access matrix's CSV: after the members, under a header line of their own,
 * the rows the page's outsiders filters show, every cell neutralised as the rest (csv.ts), server text as sent.
 * No VS Code here.
 */
import * as l10n from '@vscode/l10n';
import { csvLine } from '../../csv/csv';
import type { AccessMatrix } from '../store/accessMatrix';
import { outsiderRows } from './outsiders';
import { outsidersNote, outsidersShown, type OthersView } from './outsiders.protocol';

const isoDay = (ms: number): string => (ms >= 0 ? new Date(ms).toISOString().slice(0, 10) : '');

/** The members' "last sign-in" cell: the day, none in the audit read, or empty when the audit does not tell. */
export function signInCell(matrix: AccessMatrix, username: string): string {
  const s = matrix.signIns;
  if (s?.kind !== 'read') return '';
  const at = s.last[username.toLowerCase()];
  return at !== undefined ? isoDay(at) : s.complete ? l10n.t('none since {0}', s.dateStart) : '';
}

/** Whether the CSV has a sign-in column: only when the audit was read. */
export function hasSignIns(matrix: AccessMatrix): boolean {
  return matrix.signIns?.kind === 'read';
}

export function* outsiderCsvLines(
  matrix: AccessMatrix,
  others: OthersView,
  now: number,
  group: string | undefined,
): Generator<string> {
  if (others.hidden) return;
  const note = outsidersNote(matrix.outsiders);
  const shown = outsidersShown(outsiderRows(matrix.outsiders).rows, others, now, group);
  if (shown.length === 0 && note === '') return;
  yield csvLine([]);
  if (note !== '') yield csvLine([note]);
  if (shown.length === 0) return;
  yield csvLine([
    l10n.t('Who'),
    l10n.t('E-mail'),
    l10n.t('What is shared or granted'),
    l10n.t('Permission'),
    l10n.t('Can edit'),
    l10n.t('Grants power'),
    l10n.t('Created or sent'),
    l10n.t('Expires'),
    l10n.t('Password'),
  ]);
  const yesNo = (b: boolean) => (b ? l10n.t('yes') : l10n.t('no'));
  for (const r of shown) {
    yield csvLine([
      r.kind === 'guest' ? l10n.t('Guest') : l10n.t('Invited'),
      r.email,
      r.what,
      r.permission,
      r.kind === 'guest' ? yesNo(r.canEdit) : '',
      r.kind === 'invited' ? yesNo(r.power) : '',
      isoDay(r.created),
      r.kind === 'guest' ? (r.expires >= 0 ? isoDay(r.expires) : l10n.t('no expiry')) : '',
      r.kind === 'guest' && r.password >= 0 ? yesNo(r.password === 1) : '',
    ]);
  }
}
