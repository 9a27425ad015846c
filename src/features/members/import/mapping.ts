/**
 * What each column of HR's sheet means for a members file, proposed from its header and values, and the mapping as
 * saved beside the sheet so next quarter's sheet needs no question. A saved mapping is a file anyone could have
 * written: it is read through `parseMapping`, which keeps only what it recognises and bounds every size.
 */
import { jsonOrUndefined } from '../../../api/models/read';
import { LEVEL_WORDS, type LevelWord } from '../../../shared/permissions';
import type { Sheet } from './sheet';

export const MEANINGS = [
  'firstName',
  'lastName',
  'name',
  'email',
  'activationDate',
  'department',
  'jobTitle',
  'username',
  'ignore',
] as const;
export type Meaning = (typeof MEANINGS)[number];

export const DATE_FORMATS = ['ymd', 'dmy', 'mdy'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export const USERNAME_PATTERNS = ['first.last', 'email'] as const;
export type UsernamePattern = (typeof USERNAME_PATTERNS)[number];

/** A department's group: the group's unique name and the level; null = in no group. */
export type DepartmentGroup = { readonly group: string; readonly level: LevelWord } | null;

export interface ImportMapping {
  readonly portalId: string;
  readonly accountId: number;
  readonly accountLabel: string;
  /** Header text → meaning. */
  readonly columns: Readonly<Record<string, Meaning>>;
  readonly dateFormat?: DateFormat;
  readonly usernames: UsernamePattern;
  /** Department value, folded (departmentKey) → its group. */
  readonly departments: Readonly<Record<string, DepartmentGroup>>;
}

export const MAPPING_KIND = 'portal-members-import-mapping';
const MAX_TEXT = 200;
const MAX_DEPARTMENTS = 2_000;

export function departmentKey(value: string): string {
  return value.trim().toLowerCase().replace(/\s+/g, ' ');
}

const HEADER_RULES: ReadonlyArray<readonly [Meaning, RegExp]> = [
  ['firstName', /^(first|given|fore)[\s_-]*name$|^first$|^vorname$|^prénom$/i],
  ['lastName', /^(last|family|sur)[\s_-]*name$|^surname$|^last$|^nachname$|^nom$/i],
  ['username', /^user[\s_-]*name$|^login$|^user[\s_-]*id$/i],
  ['email', /e-?mail|^mail$/i],
  ['activationDate', /start|hire|join|begin|date/i],
  ['department', /depart|^dept|team|division|^unit$|^group$/i],
  ['jobTitle', /job|title|position|role/i],
  ['name', /^(full[\s_-]*)?name$|display[\s_-]*name/i],
];

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SLASHED = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

function mostly(values: readonly string[], test: (v: string) => boolean): boolean {
  const filled = values.filter((v) => v !== '');
  return filled.length > 0 && filled.filter(test).length >= filled.length * 0.8;
}

function columnValues(sheet: Sheet, index: number, limit = Infinity): string[] {
  const out: string[] = [];
  for (const row of sheet.rows) {
    if (out.length >= limit) break;
    out.push(row[index] ?? '');
  }
  return out;
}

function meaningOf(header: string, values: readonly string[]): Meaning {
  const byHeader = HEADER_RULES.find(([, re]) => re.test(header.trim()))?.[0];
  if (byHeader) return byHeader;
  if (mostly(values, (v) => EMAIL_LIKE.test(v))) return 'email';
  if (mostly(values, (v) => SLASHED.test(v) || ISO.test(v))) return 'activationDate';
  return 'ignore';
}

/** Each header's proposed meaning; a meaning other than `ignore` goes to its first column only. */
export function proposeColumns(sheet: Sheet): Record<string, Meaning> {
  const taken = new Set<Meaning>();
  const out: Record<string, Meaning> = {};
  sheet.headers.forEach((header, i) => {
    let meaning = meaningOf(header, columnValues(sheet, i, 200));
    if (taken.has(meaning)) meaning = 'ignore';
    if (meaning !== 'ignore') taken.add(meaning);
    out[header] = meaning;
  });
  return out;
}

/** The header index of a meaning, or undefined. */
export function indexOf(
  sheet: Sheet,
  columns: Readonly<Record<string, Meaning>>,
  meaning: Meaning,
): number | undefined {
  const i = sheet.headers.findIndex((h) => columns[h] === meaning);
  return i < 0 ? undefined : i;
}

/**
 * The date format the values say: `ymd` for ISO dates (also what date cells read as); `dmy` or `mdy` when one
 * value's first or second part is over 12; undefined when every slashed date reads both ways (`05/01/2026`).
 */
export function detectDateFormat(values: readonly string[]): DateFormat | undefined {
  let slashed = false;
  for (const v of values) {
    const m = SLASHED.exec(v.trim());
    if (!m) continue;
    slashed = true;
    if (Number(m[1]) > 12) return 'dmy';
    if (Number(m[2]) > 12) return 'mdy';
  }
  return slashed ? undefined : 'ymd';
}

/** `yyyy-mm-dd`, or undefined when the text is no date in that format. */
export function readSheetDate(text: string, format: DateFormat | undefined): string | undefined {
  const t = text.trim();
  let y: number, m: number, d: number;
  const iso = ISO.exec(t);
  const slashed = SLASHED.exec(t);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (slashed && (format === 'dmy' || format === 'mdy')) {
    y = Number(slashed[3]);
    [d, m] = format === 'dmy' ? [Number(slashed[1]), Number(slashed[2])] : [Number(slashed[2]), Number(slashed[1])];
  } else return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

/** The department values of the sheet, folded, each with the text first seen for it, in sheet order. */
export function departmentsOf(sheet: Sheet, index: number | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (index === undefined) return out;
  for (const row of sheet.rows) {
    const value = (row[index] ?? '').trim();
    const key = departmentKey(value);
    if (key !== '' && !out.has(key)) out.set(key, value);
  }
  return out;
}

/** A department's proposed group: the group whose friendly or unique name is the department's, at Standard. */
export function proposeDepartment(
  value: string,
  groups: ReadonlyArray<{ readonly name: string; readonly friendlyName: string }>,
): DepartmentGroup {
  const key = departmentKey(value);
  const group = groups.find((g) => departmentKey(g.friendlyName) === key || departmentKey(g.name) === key);
  return group ? { group: group.name, level: 'Standard' } : null;
}

/** Whether a saved mapping fits a sheet: every header it names is the sheet's, and the sheet has no other one. */
export function mappingFits(mapping: ImportMapping, sheet: Sheet): boolean {
  const saved = Object.keys(mapping.columns).sort();
  const headers = [...new Set(sheet.headers)].sort();
  return saved.length === headers.length && saved.every((h, i) => h === headers[i]);
}

// ---------------------------------------------------------------------------------------------------------------
// The saved file
// ---------------------------------------------------------------------------------------------------------------

function isText(v: unknown, max = MAX_TEXT): v is string {
  return typeof v === 'string' && v.length <= max;
}

function oneOf<T extends string>(list: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (list as readonly string[]).includes(v);
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function parseColumns(v: unknown): Record<string, Meaning> | undefined {
  const r = record(v);
  if (!r || Object.keys(r).length > 200) return undefined;
  const out: Record<string, Meaning> = {};
  for (const [header, meaning] of Object.entries(r)) {
    if (!isText(header) || !oneOf(MEANINGS, meaning)) return undefined;
    out[header] = meaning;
  }
  return out;
}

function parseDepartments(v: unknown): Record<string, DepartmentGroup> | undefined {
  const r = record(v);
  if (!r || Object.keys(r).length > MAX_DEPARTMENTS) return undefined;
  const out: Record<string, DepartmentGroup> = {};
  for (const [key, value] of Object.entries(r)) {
    if (!isText(key)) return undefined;
    const g = record(value);
    if (value === null) out[departmentKey(key)] = null;
    else if (g && isText(g.group) && g.group !== '' && oneOf(LEVEL_WORDS, g.level))
      out[departmentKey(key)] = { group: g.group, level: g.level };
    else return undefined;
  }
  return out;
}

/** A saved mapping's JSON text, checked; undefined when it is not one (or not one this version understands). */
export function parseMapping(text: string): ImportMapping | undefined {
  const r = record(jsonOrUndefined(text));
  if (!r || r.kind !== MAPPING_KIND || r.version !== 1) return undefined;
  const columns = parseColumns(r.columns);
  const departments = parseDepartments(r.departments);
  const { portalId, accountId, accountLabel, dateFormat, usernames } = r;
  if (!columns || !departments || !isText(portalId) || !isText(accountLabel)) return undefined;
  if (typeof accountId !== 'number' || !Number.isSafeInteger(accountId) || accountId < 0) return undefined;
  if (!oneOf(USERNAME_PATTERNS, usernames)) return undefined;
  if (dateFormat !== undefined && !oneOf(DATE_FORMATS, dateFormat)) return undefined;
  return {
    portalId,
    accountId,
    accountLabel,
    columns,
    usernames,
    departments,
    ...(dateFormat ? { dateFormat } : {}),
  };
}

export function mappingText(mapping: ImportMapping): string {
  return `${JSON.stringify({ kind: MAPPING_KIND, version: 1, ...mapping }, null, 2)}\n`;
}
