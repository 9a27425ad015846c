/**
 * The file name an access export suggests: what kind of export, whose, which filters and which day, so two exports
 * of different views never suggest the same name and the second never overwrites the first unasked
 * ("access-Acme-Corporation-inactive-90d-2027-02-03.csv"). The words are fixed ASCII, as a file name passed between
 * systems is safest. Pure.
 */
import { accountLevelOf } from '../../../shared/permissions';
import type { MatrixView } from './matrix.protocol';

/** The matrix of every group, or one group's list of members. */
export type AccessExportKind = 'access' | 'group-members';

export interface ExportNameParts {
  readonly organisation: string;
  /** The group's name where people read it (its friendly name), for a group's list. */
  readonly group?: string | undefined;
  /** Tag names by index, for a tag filter. */
  readonly tags: readonly string[];
  /** The time the export is made: its local day ends the name. */
  readonly now: number;
}

const MAX_PART = 40;
const LEVELS = ['', 'basic', 'standard', 'administrator'] as const;
const PERMISSIONS: Readonly<Record<number, string>> = { 1: 'member', 4: 'group-creator', 16: 'super-administrator' };

/** A part of a file name: letters without their accents, digits, dots and dashes, at most MAX_PART characters. */
function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_PART)
    .replace(/[-.]+$/g, '');
}

function day(now: number): string {
  const d = new Date(now);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The view's filters as name parts, in the order the page shows them. */
function filterParts(view: MatrixView, tags: readonly string[]): string[] {
  const parts: string[] = [];
  if (view.level) parts.push(LEVELS[view.level] ?? `level-${view.level}`);
  if (view.inactiveDays !== undefined) parts.push(`inactive-${view.inactiveDays}d`);
  if (view.state !== undefined) parts.push(slug(view.state.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)));
  if (view.notStarted && (view.inactiveDays !== undefined || view.state === 'neverActive'))
    parts.push('with-not-started');
  if (view.permission !== undefined)
    parts.push(PERMISSIONS[accountLevelOf(view.permission)] ?? `permission-${view.permission}`);
  if (view.tag !== undefined) parts.push(`tag-${slug(tags[view.tag] ?? String(view.tag))}`);
  const text = view.text?.trim();
  if (text) parts.push(`matching-${slug(text)}`);
  return parts.filter((p) => p !== '');
}

/** "access-Acme-Corporation-inactive-90d-2027-02-03.csv", "group-members-Engineering-Acme-Corporation-2027-02-03.csv". */
export function exportFileName(kind: AccessExportKind, view: MatrixView, parts: ExportNameParts): string {
  const who = [parts.group !== undefined ? slug(parts.group) : '', slug(parts.organisation)].filter((p) => p !== '');
  return `${[kind, ...who, ...filterParts(view, parts.tags), day(parts.now)].join('-')}.csv`;
}
