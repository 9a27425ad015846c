/**
 * The evidence of a finished review: a CSV with every row (what was read, when, the decision, its reason, who decided
 * and when), a Markdown summary, and a manifest with the SHA-256 of both. The manifest's own digest is kept in the
 * review, so an edit to either file or to the manifest shows when the review is reopened. Decisions on guests and
 * invitations have no observed write endpoint: the evidence says they are to be carried out on the portal and never
 * claims they were. Pure: the files' bytes are made and checked here, written and read by reviewFiles.ts.
 */
import { createHash } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import { jsonOrUndefined } from '../../../api/models/read';
import { text as mdText } from '../../../shared/markdown';
import type { Review } from './model';
import { decisionWords, kindWords, type Decision, type ReviewRow } from './review.protocol';

export const sha256 = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const iso = (ms: number | undefined): string => (ms === undefined || ms <= 0 ? '' : new Date(ms).toISOString());

/** A cell a spreadsheet reads as text: a leading formula character is made inert, and quotes where needed. */
function cell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n;]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
}

function carriedOut(row: ReviewRow, d: Decision | undefined): string {
  if (!d || d.kind === 'keep') return '';
  if (row.kind === 'member') return l10n.t('by a plan of member changes (see the summary)');
  return l10n.t('to be carried out on the portal');
}

/** Every row of the review, in its order, under a header; CRLF lines, UTF-8 with a byte order mark. */
export function evidenceCsv(review: Review): string {
  const scoped = review.head.scope !== undefined;
  const header = [
    l10n.t('Kind'),
    l10n.t('Identity'),
    l10n.t('Name'),
    l10n.t('Access as read'),
    l10n.t('Details as read'),
    l10n.t('Read at'),
    l10n.t('Decision'),
    l10n.t('Reason'),
    l10n.t('Decided by'),
    l10n.t('Decided at'),
    l10n.t('Carried out'),
  ];
  const lines = [header];
  for (const row of review.rows) {
    const d = review.decisions.get(row.key);
    lines.push([
      kindWords(row.kind),
      row.identity,
      row.name,
      row.access,
      row.detail,
      iso(row.readAt),
      d ? decisionWords(d, scoped) : l10n.t('undecided'),
      d?.reason ?? '',
      d?.by ?? '',
      iso(d?.at),
      carriedOut(row, d),
    ]);
  }
  return `\uFEFF${lines.map((l) => l.map(cell).join(',')).join('\r\n')}\r\n`;
}

export interface EvidenceNames {
  readonly csv: string;
  readonly summary: string;
  readonly manifest: string;
}

function countsTable(review: Review): string[] {
  const c = review.counts();
  const columns = ['keep', 'remove', 'lower', 'expire', 'withdraw', 'undecided'] as const;
  const scoped = review.head.scope !== undefined;
  const heading = columns.map((k) => (k === 'undecided' ? l10n.t('Undecided') : decisionWords({ kind: k }, scoped)));
  const line = (label: string, kind: 'member' | 'guest' | 'invitation') =>
    `| ${label} | ${columns.map((k) => String(c[kind][k])).join(' | ')} |`;
  return [
    `| | ${heading.join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    line(l10n.t('Members'), 'member'),
    line(l10n.t('Guests'), 'guest'),
    line(l10n.t('Invitations'), 'invitation'),
  ];
}

function appliedLines(review: Review): string[] {
  const h = review.head;
  const members = review.memberChanges().length;
  if (members === 0) return [l10n.t('- No member is to be removed or lowered.')];
  const planned = l10n.t(
    '- {0} members to remove or lower: put in the Plan view as {1} changes at the finish.',
    members,
    h.planned ?? 0,
  );
  if (!h.applied) return [planned, l10n.t('- Not applied yet when this summary was written.')];
  return [
    planned,
    l10n.t(
      '- Applied {0}: {1} done, {2} failed or not started. Action report: {3}',
      iso(h.applied.at),
      h.applied.done,
      h.applied.failed,
      mdText(h.applied.report),
    ),
  ];
}

function portalOnlyLines(review: Review): string[] {
  const c = review.counts();
  const expire = c.guest.expire;
  const withdraw = c.invitation.withdraw;
  if (expire + withdraw === 0) return [];
  return [
    l10n.t(
      '- {0} guest shares to expire and {1} invitations to withdraw: to be carried out on the portal. The API offers no observed way to do either, so nothing here claims they were.',
      expire,
      withdraw,
    ),
  ];
}

function refusedLines(review: Review): string[] {
  const words = (r: 'absent' | 'capability') =>
    r === 'absent'
      ? l10n.t('this portal does not offer them')
      : l10n.t('your sign-in lacks the capability for them here');
  const { guests, invitations } = review.head.refused;
  return [
    ...(guests ? [l10n.t('- Guests: not reviewed, {0}.', words(guests))] : []),
    ...(invitations ? [l10n.t('- Invitations: not reviewed, {0}.', words(invitations))] : []),
  ];
}

/** The summary in Markdown; server text escaped so it stays text. */
export function evidenceSummary(review: Review, names: EvidenceNames): string {
  const h = review.head;
  const scope = h.scope ? l10n.t('group {0}', mdText(h.scope.label)) : l10n.t('the whole organisation');
  const refused = refusedLines(review);
  return [
    `# ${l10n.t('Access review: {0}', mdText(h.accountLabel))}`,
    '',
    `- **${l10n.t('Portal')}:** ${mdText(h.portalLabel)}`,
    `- **${l10n.t('Organisation')}:** ${mdText(h.accountLabel)}`,
    `- **${l10n.t('Scope')}:** ${scope}`,
    `- **${l10n.t('Reviewer')}:** ${mdText(h.reviewer)}`,
    `- **${l10n.t('Started')}:** ${iso(h.startedAt)}`,
    `- **${l10n.t('Finished')}:** ${iso(h.finishedAt)}`,
    `- **${l10n.t('Rows')}:** ${review.rows.length}`,
    '',
    `## ${l10n.t('Decisions')}`,
    '',
    ...countsTable(review),
    '',
    `## ${l10n.t('What was carried out')}`,
    '',
    ...appliedLines(review),
    ...portalOnlyLines(review),
    ...(refused.length > 0 ? ['', `## ${l10n.t('Not reviewed')}`, '', ...refused] : []),
    '',
    `## ${l10n.t('Evidence')}`,
    '',
    l10n.t('- Every row, with its decision: {0}', mdText(names.csv)),
    l10n.t(
      '- The SHA-256 of this summary and of that file: {0}. A change to any of them no longer matches.',
      mdText(names.manifest),
    ),
    '',
  ].join('\n');
}

export interface Manifest {
  readonly algorithm: 'SHA-256';
  readonly review: string;
  readonly files: ReadonlyArray<{ readonly name: string; readonly sha256: string; readonly bytes: number }>;
}

/** The manifest's text over the files' bytes. */
export function manifestText(reviewId: string, files: ReadonlyArray<{ name: string; bytes: Uint8Array }>): string {
  const manifest: Manifest = {
    algorithm: 'SHA-256',
    review: reviewId,
    files: files.map((f) => ({ name: f.name, sha256: sha256(f.bytes), bytes: f.bytes.length })),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** What no longer matches: the manifest itself, or files by name (changed, or missing: undefined bytes). */
export function tampered(
  expectedDigest: string | undefined,
  manifest: string | undefined,
  read: (name: string) => Uint8Array | undefined,
): string[] {
  if (manifest === undefined || expectedDigest === undefined || sha256(manifest) !== expectedDigest)
    return ['manifest'];
  const parsed = jsonOrUndefined(manifest);
  if (parsed === undefined) return ['manifest'];
  const files = (parsed as Partial<Manifest>).files;
  if (!Array.isArray(files)) return ['manifest'];
  const changed: string[] = [];
  for (const f of files) {
    const bytes = read(f.name);
    if (!bytes || sha256(bytes) !== f.sha256) changed.push(f.name);
  }
  return changed;
}
