/**
 * The mapping step, as a few quick picks: the columns' meanings (proposed; Enter accepts them), the date format
 * when the dates read both ways, the department → group table (proposed by the groups' friendly names), and the
 * username pattern, each choice showing the clashes it makes. Quick picks rather than a form: each step is one
 * keyboard choice on a proposal that is usually right, and a saved mapping skips every step it answers.
 * Sheet text is shown through the Ui, which shows it as plain text (no links, no icons).
 */
import * as vscode from 'vscode';
import type { PortalGroup } from '../plan/core/model';
import { groupPermissionWords, LEVEL_PERMISSION, LEVEL_WORDS, type LevelWord } from '../../../shared/permissions';
import { answered, type PickItem, type PickOptions, type Ui } from '../../../ui/ui';
import { convertSheet, type PortalEmails } from './convert';
import {
  detectDateFormat,
  departmentsOf,
  indexOf,
  MEANINGS,
  proposeDepartment,
  readSheetDate,
  USERNAME_PATTERNS,
  type DateFormat,
  type DepartmentGroup,
  type ImportMapping,
  type Meaning,
  type UsernamePattern,
} from './mapping';
import type { Sheet } from './sheet';

export function meaningWord(m: Meaning): string {
  switch (m) {
    case 'firstName':
      return vscode.l10n.t('First name');
    case 'lastName':
      return vscode.l10n.t('Last name');
    case 'name':
      return vscode.l10n.t('Full name');
    case 'email':
      return vscode.l10n.t('E-mail');
    case 'activationDate':
      return vscode.l10n.t('Start date (activation e-mail)');
    case 'department':
      return vscode.l10n.t('Department (groups)');
    case 'jobTitle':
      return vscode.l10n.t('Job title');
    case 'username':
      return vscode.l10n.t('Username');
    case 'ignore':
      return vscode.l10n.t('Not imported');
  }
}

function samples(sheet: Sheet, index: number): string {
  const values = [
    ...new Set(
      sheet.rows
        .slice(0, 20)
        .map((r) => r[index] ?? '')
        .filter((v) => v !== ''),
    ),
  ];
  return values.slice(0, 3).join(', ');
}

type Choice<T> = { readonly accept: true } | { readonly accept: false; readonly value: T };
const ACCEPT = { accept: true } as const;
type Row = Pick<PickItem<string>, 'label' | 'description' | 'detail' | 'value'>;

/**
 * A proposal shown with its accept button on top, changed one row at a time until the user accepts: `rows` lists it
 * as it is now (each row's value its key), `change` asks about the row chosen and changes it.
 */
async function changeUntilAccepted(
  ui: Ui,
  question: PickOptions & { readonly accept: string },
  rows: () => Row[],
  change: (key: string) => Promise<void>,
): Promise<void> {
  const { accept, ...options } = question;
  for (;;) {
    const items: PickItem<Choice<string>>[] = [
      { label: accept, icon: 'check', value: ACCEPT },
      ...rows().map((row) => ({ ...row, value: { accept: false, value: row.value } as const })),
    ];
    const choice = answered(await ui.pick(items, options));
    if (choice.accept) return;
    await change(choice.value);
  }
}

/** The columns' meanings: the proposal, changed one column at a time until the user accepts. */
export async function askColumns(
  ui: Ui,
  sheet: Sheet,
  proposed: Record<string, Meaning>,
): Promise<Record<string, Meaning>> {
  const columns = { ...proposed };
  const question = {
    id: 'import.columns' as const,
    title: vscode.l10n.t('Import Members: what each column holds'),
    placeHolder: vscode.l10n.t('Enter accepts; choose a column to change it'),
    accept: vscode.l10n.t('Use These Columns'),
  };
  const rows = (): Row[] =>
    sheet.headers.map((h, i) => ({
      label: h,
      description: `→ ${meaningWord(columns[h] ?? 'ignore')}`,
      detail: samples(sheet, i),
      value: h,
    }));
  await changeUntilAccepted(ui, question, rows, async (header) => {
    const meaning = answered(
      await ui.pick(
        MEANINGS.map((m) => ({ label: meaningWord(m), picked: columns[header] === m, value: m })),
        { id: 'import.meaning', title: header, placeHolder: vscode.l10n.t('What this column holds') },
      ),
    );
    // One column per meaning: the column that had it before is no longer imported.
    for (const h of Object.keys(columns)) if (columns[h] === meaning && meaning !== 'ignore') columns[h] = 'ignore';
    columns[header] = meaning;
  });
  return columns;
}

function longDate(iso: string): string {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString(vscode.env.language, { dateStyle: 'long', timeZone: 'UTC' });
}

/** The date format, asked only when the values read both ways; undefined when the sheet has no date column. */
export async function askDateFormat(
  ui: Ui,
  sheet: Sheet,
  columns: Record<string, Meaning>,
  saved?: DateFormat,
): Promise<DateFormat | undefined> {
  const index = indexOf(sheet, columns, 'activationDate');
  if (index === undefined) return undefined;
  const values = sheet.rows.map((r) => r[index] ?? '');
  const detected = detectDateFormat(values);
  if (detected) return detected;
  if (saved) return saved;
  const example = values.find((v) => readSheetDate(v, 'dmy') !== readSheetDate(v, 'mdy')) ?? '05/01/2026';
  const option = (format: 'dmy' | 'mdy', label: string): PickItem<DateFormat> => ({
    label,
    description: vscode.l10n.t('{0} is {1}', example, longDate(readSheetDate(example, format) ?? '2026-01-05')),
    value: format,
  });
  return answered(
    await ui.pick([option('dmy', 'dd/mm/yyyy'), option('mdy', 'mm/dd/yyyy')], {
      id: 'import.dateFormat',
      title: vscode.l10n.t('Import Members: how are the start dates written?'),
      placeHolder: vscode.l10n.t('{0} reads two ways', example),
    }),
  );
}

function groupWord(groups: readonly PortalGroup[], g: DepartmentGroup): string {
  if (!g) return vscode.l10n.t('No group');
  const group = groups.find((x) => x.name === g.group);
  return `${group?.friendlyName ?? g.group} · ${levelWord(g.level)}`;
}

function levelWord(level: LevelWord): string {
  return groupPermissionWords(LEVEL_PERMISSION[level]);
}

async function askDepartment(ui: Ui, value: string, groups: readonly PortalGroup[]): Promise<DepartmentGroup> {
  const group = answered(
    await ui.pick<PortalGroup | null>(
      [
        { label: vscode.l10n.t('No group'), value: null },
        ...groups.map((g) => ({ label: g.friendlyName, description: g.name, value: g })),
      ],
      { id: 'import.department', title: value, placeHolder: vscode.l10n.t('The group for this department') },
    ),
  );
  if (!group) return null;
  const level = answered(
    await ui.pick(
      LEVEL_WORDS.map((l) => ({ label: levelWord(l), picked: l === 'Standard', value: l })),
      { id: 'import.level', title: group.friendlyName, placeHolder: vscode.l10n.t('Permission in the group') },
    ),
  );
  return { group: group.name, level };
}

/**
 * The department → group table. Values the saved table has and whose group still exists are not asked again; the
 * table is shown when any value is new (with its proposal) or the saved group is gone.
 */
export async function askDepartments(
  ui: Ui,
  sheet: Sheet,
  columns: Record<string, Meaning>,
  groups: readonly PortalGroup[],
  saved: ImportMapping['departments'] = {},
): Promise<Record<string, DepartmentGroup>> {
  const values = departmentsOf(sheet, indexOf(sheet, columns, 'department'));
  const table: Record<string, DepartmentGroup> = {};
  let complete = true;
  for (const [key, text] of values) {
    const known = saved[key];
    const exists = known === null || (known !== undefined && groups.some((g) => g.name === known.group));
    if (known !== undefined && exists) table[key] = known;
    else {
      complete = false;
      table[key] = proposeDepartment(text, groups);
    }
  }
  if (complete) return table;
  const question = {
    id: 'import.departments' as const,
    title: vscode.l10n.t("Import Members: each department's group"),
    placeHolder: vscode.l10n.t('Enter accepts; choose a department to change its group'),
    accept: vscode.l10n.t('Use This Table'),
  };
  const rows = (): Row[] =>
    [...values].map(([key, text]) => ({
      label: text,
      description: `→ ${groupWord(groups, table[key] ?? null)}`,
      value: key,
    }));
  await changeUntilAccepted(ui, question, rows, async (key) => {
    table[key] = await askDepartment(ui, values.get(key) ?? key, groups);
  });
  return table;
}

/** The username pattern, each option with the usernames it makes and the clashes it would number. */
export async function askUsernames(
  ui: Ui,
  sheet: Sheet,
  draft: Omit<ImportMapping, 'usernames'>,
  portal: PortalEmails,
): Promise<UsernamePattern> {
  const option = (pattern: UsernamePattern): PickItem<UsernamePattern> => {
    const converted = convertSheet(sheet, { ...draft, usernames: pattern }, { portal, today: '0000-00-00' });
    const first = converted.text
      .split('\r\n')
      .slice(1, 4)
      .map((l) => l.split(',')[0])
      .join(', ');
    const onPortal = converted.clashes.filter((c) => c.with === 'portal').length;
    const twice = converted.clashes.length - onPortal;
    return {
      label: pattern === 'email' ? vscode.l10n.t("The e-mail's local part") : 'first.last',
      description: first,
      detail: vscode.l10n.t(
        'Taken on the portal by someone else: {0} · twice in the sheet: {1} (numbered) · members already: {2}',
        onPortal,
        twice,
        converted.existing.length,
      ),
      value: pattern,
    };
  };
  return answered(
    await ui.pick(USERNAME_PATTERNS.map(option), {
      id: 'import.usernames',
      title: vscode.l10n.t('Import Members: usernames'),
      placeHolder: vscode.l10n.t('How usernames are made'),
    }),
  );
}
