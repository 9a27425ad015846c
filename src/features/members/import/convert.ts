/**
 * HR's sheet and its mapping → the text of a members file: one row per person with a username made from the
 * mapping's pattern, their name, e-mail, job title, activation date and, from their department, a group column per
 * group the table names. Pure: the portal's members come in, text comes out.
 */
import { csvLine } from '../csv/csv';
import { GROUP_COLUMN_PREFIX } from '../plan/core/model';
import { USERNAME } from '../../../shared/memberRules';
import { KEEP_GROUP_WORD, readGroupWord } from '../plan/core/file/membersFile';
import type { GroupLevel } from '../../../shared/groupLevel';
import { departmentKey, indexOf, MEANINGS, readSheetDate, type ImportMapping, type Meaning } from './mapping';
import type { Sheet } from './sheet';

/** A username the sheet would have given twice, or that a different person holds on the portal: numbered. */
export interface Clash {
  /** 1-based data row of the sheet. */
  readonly row: number;
  readonly wanted: string;
  readonly given: string;
  readonly with: 'sheet' | 'portal';
}

export interface Converted {
  readonly text: string;
  readonly rows: number;
  /** Usernames given another number, and why. */
  readonly clashes: readonly Clash[];
  /** Rows whose username is a member already (same e-mail): the file updates them rather than adding them. */
  readonly existing: readonly string[];
  /** What the file changes for those members; it never removes one from a group or lowers a level. */
  readonly existingChanges: ExistingChanges;
  /** Start dates already past: left empty, so the activation e-mail goes out at once. */
  readonly pastDates: number;
  /** Department values the table has no entry for (their people get no group). */
  readonly unmapped: readonly string[];
}

/** The portal's members as the import needs them: lower-case username → e-mail. */
export type PortalEmails = ReadonlyMap<string, string>;

/** A member already on the portal, as the import compares them: lower-case group name → level. */
export interface ExistingMember {
  readonly name: string;
  readonly jobTitle: string | null;
  readonly groups: ReadonlyMap<string, GroupLevel>;
}

/** How many existing members the file changes, and how (one member may count under several). */
export interface ExistingChanges {
  readonly changed: number;
  readonly addedToGroup: number;
  readonly raisedInGroup: number;
  readonly newDetails: number;
}

/** Text as the portal's username rule allows: ASCII letters without accents, digits, `.`, `-`, `_`, lower case. */
export function usernamePart(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      // O'Brien is obrien; a space between names is a dot.
      .replace(/['’`]/g, '')
      .replace(/\s+/g, '.')
      .replace(/[^a-z0-9._-]/g, '')
      .replace(/\.{2,}/g, '.')
      .replace(/^[._-]+|[._-]+$/g, '')
  );
}

/** The username a pattern makes from a person's names and e-mail ('' when there is nothing to make it from). */
export function makeUsername(
  pattern: ImportMapping['usernames'],
  person: { readonly first: string; readonly last: string; readonly email: string },
): string {
  const made =
    pattern === 'email'
      ? usernamePart(person.email.split('@')[0] ?? '')
      : [usernamePart(person.first), usernamePart(person.last)].filter((p) => p !== '').join('.');
  return made.slice(0, 64).replace(/[._-]+$/, '');
}

/** The first `wanted`, `wanted2`, `wanted3`… no one has, within the username rule's 64 characters. */
function numbered(wanted: string, taken: (u: string) => boolean): string {
  for (let n = 2; ; n++) {
    const candidate = `${wanted.slice(0, 64 - String(n).length)}${n}`;
    if (!taken(candidate)) return candidate;
  }
}

interface Cols {
  readonly at: (row: readonly string[], m: Meaning) => string;
}

function columnsOf(sheet: Sheet, mapping: ImportMapping): Cols {
  const index = new Map<Meaning, number>();
  for (const m of MEANINGS) {
    const i = m === 'ignore' ? undefined : indexOf(sheet, mapping.columns, m);
    if (i !== undefined) index.set(m, i);
  }
  return { at: (row, m) => (index.has(m) ? (row[index.get(m) ?? 0] ?? '').trim() : '') };
}

/** First and last name: their own columns, else the first and last word of the name column. */
function namesOf(cols: Cols, row: readonly string[]): { first: string; last: string; full: string } {
  const first = cols.at(row, 'firstName');
  const last = cols.at(row, 'lastName');
  const name = cols.at(row, 'name');
  if (first !== '' || last !== '') return { first, last, full: name || [first, last].filter(Boolean).join(' ') };
  const words = name.split(/\s+/).filter(Boolean);
  return { first: words[0] ?? '', last: words.length > 1 ? (words[words.length - 1] ?? '') : '', full: name };
}

/** The group columns of the file: each group the table names, in the table's order. */
function groupColumns(mapping: ImportMapping): string[] {
  const out = new Set<string>();
  for (const g of Object.values(mapping.departments)) if (g) out.add(g.group);
  return [...out];
}

export interface ConvertOptions {
  /** The portal's members: usernames a different person holds get numbered. */
  readonly portal: PortalEmails;
  /** Today's date (`yyyy-mm-dd`): a start date on or before it is left empty. */
  readonly today: string;
  /**
   * Existing members' names, job titles and groups (lower-case username →): their rows keep every group the sheet
   * does not decide, and never lower one it does. One the map does not hold is taken to be in no group.
   */
  readonly existing?: ReadonlyMap<string, ExistingMember>;
}

const NO_GROUPS: ReadonlyMap<string, GroupLevel> = new Map();

/** A portal member as the import compares them, their groups (id → level) by the groups' unique names. */
export function existingMemberOf(
  member: { readonly name: string; readonly jobTitle: string | null },
  levels: ReadonlyMap<number, GroupLevel>,
  groups: readonly { readonly id: number; readonly name: string }[],
): ExistingMember {
  const byName = new Map<string, GroupLevel>();
  for (const g of groups) {
    const level = levels.get(g.id);
    if (level) byName.set(g.name.toLowerCase(), level);
  }
  return { name: member.name, jobTitle: member.jobTitle, groups: byName };
}

/**
 * An existing member's group cells: `keep` in every group, but the one their department maps to when that adds them
 * or raises their level. The sheet says where a starter belongs; it never says where a member no longer does.
 */
function existingGroupCells(
  groups: readonly string[],
  mapped: { readonly group: string; readonly level: string } | null | undefined,
  member: ExistingMember | undefined,
  tally: { added: boolean; raised: boolean },
): string[] {
  return groups.map((g) => {
    const now = member?.groups.get(g.toLowerCase()) ?? 0;
    const wanted = mapped?.group === g ? (readGroupWord(mapped.level) ?? 0) : 0;
    if (wanted <= now) return KEEP_GROUP_WORD;
    if (now === 0) tally.added = true;
    else tally.raised = true;
    return mapped?.level ?? KEEP_GROUP_WORD;
  });
}

interface Layout {
  readonly cols: Cols;
  readonly groups: readonly string[];
  readonly hasJob: boolean;
  readonly hasDate: boolean;
}

interface ExistingRow {
  readonly username: string;
  readonly email: string;
  readonly names: { readonly full: string };
  readonly row: readonly string[];
  readonly member: ExistingMember;
  readonly group: { readonly group: string; readonly level: string } | null | undefined;
}

/**
 * An existing member's row: what the sheet leaves empty stays as the portal has it, what it says is a change the
 * plan shows; no activation date (they are active already); their groups kept, but the one the sheet adds or raises.
 * `changes` counts what the row changes.
 */
function existingCells(r: ExistingRow, layout: Layout, changes: Record<keyof ExistingChanges, number>): string[] {
  const name = r.names.full || r.member.name || '';
  const job = layout.cols.at(r.row, 'jobTitle') || r.member.jobTitle || '';
  const tally = { added: false, raised: false };
  const cells = [r.username, name, r.email];
  if (layout.hasJob) cells.push(job);
  if (layout.hasDate) cells.push('');
  cells.push(...existingGroupCells(layout.groups, r.group, r.member, tally));
  const details = name !== r.member.name || (layout.hasJob && job !== (r.member.jobTitle ?? ''));
  if (tally.added) changes.addedToGroup++;
  if (tally.raised) changes.raisedInGroup++;
  if (details) changes.newDetails++;
  if (tally.added || tally.raised || details) changes.changed++;
  return cells;
}

/**
 * A new member's start date cell: one that has passed is left empty (activation now); one that reads as no date
 * stays as written, for the Problems panel.
 */
function startDate(raw: string, format: ImportMapping['dateFormat'], today: string): { cell: string; past: boolean } {
  const date = raw === '' ? '' : readSheetDate(raw, format);
  if (date === undefined) return { cell: raw, past: false };
  const past = date !== '' && date <= today;
  return { cell: past ? '' : date, past };
}

/** The members file for the sheet. */
export function convertSheet(sheet: Sheet, mapping: ImportMapping, options: ConvertOptions): Converted {
  const cols = columnsOf(sheet, mapping);
  const groups = groupColumns(mapping);
  const hasJob = indexOf(sheet, mapping.columns, 'jobTitle') !== undefined;
  const hasDate = indexOf(sheet, mapping.columns, 'activationDate') !== undefined;
  const header = ['username', 'name', 'email', ...(hasJob ? ['jobTitle'] : []), ...(hasDate ? ['activationDate'] : [])];
  const lines = [csvLine([...header, ...groups.map((g) => `${GROUP_COLUMN_PREFIX}${g}`)])];
  const given = new Set<string>();
  const clashes: Clash[] = [];
  const existing: string[] = [];
  const unmapped = new Set<string>();
  let pastDates = 0;
  const changes = { changed: 0, addedToGroup: 0, raisedInGroup: 0, newDetails: 0 };
  const layout: Layout = { cols, groups, hasJob, hasDate };
  sheet.rows.forEach((row, i) => {
    const names = namesOf(cols, row);
    const email = cols.at(row, 'email');
    let username = cols.at(row, 'username') || makeUsername(mapping.usernames, { ...names, email });
    const wanted = username;
    const portalEmail = options.portal.get(username.toLowerCase());
    const otherPerson = portalEmail !== undefined && portalEmail.toLowerCase() !== email.toLowerCase();
    const taken = (u: string) => given.has(u.toLowerCase()) || options.portal.has(u.toLowerCase());
    let member: ExistingMember | undefined;
    if (username !== '' && (given.has(username.toLowerCase()) || otherPerson) && USERNAME.test(username)) {
      username = numbered(username, taken);
      clashes.push({ row: i + 1, wanted, given: username, with: otherPerson ? 'portal' : 'sheet' });
    } else if (portalEmail !== undefined) {
      existing.push(username);
      member = options.existing?.get(username.toLowerCase()) ?? { name: '', jobTitle: null, groups: NO_GROUPS };
    }
    given.add(username.toLowerCase());
    const department = cols.at(row, 'department');
    const group = mapping.departments[departmentKey(department)];
    if (department !== '' && group === undefined) unmapped.add(department);
    if (member)
      return void lines.push(
        csvLine(existingCells({ username, email: portalEmail ?? email, names, row, member, group }, layout, changes)),
      );
    const cells = [username, names.full, email];
    if (hasJob) cells.push(cols.at(row, 'jobTitle'));
    if (hasDate) {
      const date = startDate(cols.at(row, 'activationDate'), mapping.dateFormat, options.today);
      if (date.past) pastDates++;
      cells.push(date.cell);
    }
    for (const g of groups) cells.push(group?.group === g ? group.level : '');
    lines.push(csvLine(cells));
  });
  const text = lines.join('');
  return {
    text,
    rows: sheet.rows.length,
    clashes,
    existing,
    existingChanges: changes,
    pastDates,
    unmapped: [...unmapped],
  };
}

/** An empty members file for an organisation: the columns a new member needs, and one column per group. */
export function emptyMembersFile(groups: readonly string[]): string {
  return csvLine([
    'username',
    'name',
    'email',
    'jobTitle',
    'activationDate',
    ...groups.map((g) => `${GROUP_COLUMN_PREFIX}${g}`),
  ]);
}
