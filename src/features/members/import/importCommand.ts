/**
 * Import Members from a Spreadsheet…: HR's `.xlsx` or `.csv` → the mapping (saved beside the sheet; asked only
 * for what it does not answer) → a members file beside the sheet, opened, for the Problems panel and Plan Changes….
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fileFacts, removeFile, UnsafePathError } from '../../../node/disk';
import { groupLevelsOf } from '../plan/core/portalState';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { count } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';
import { accountFor } from '../../../targets/resolve';
import type { Run } from '../../../ui/commands';
import { answered, type ConfirmOptions, type Ui } from '../../../ui/ui';
import { readPortalState } from '../plan/core/portalState';
import { runPool } from '../../../node/pool';
import { looksLikeMembersFile } from '../plan/core/file/membersFile';
import { parseOptions } from '../plan/editor/membersDocument';
import type { PortalGroup } from '../plan/core/model';
import { convertSheet, existingMemberOf, type Converted, type ExistingMember, type PortalEmails } from './convert';
import { indexOf, proposeColumns, type ImportMapping } from './mapping';
import { askColumns, askDateFormat, askDepartments, askUsernames } from './mappingSteps';
import { findMapping, fittingMappings, mappingPath, saveMapping, sheetStem, writePrivate } from './savedMapping';
import { readSheet, type Sheet } from './sheet';
import type { InviteDeps } from '../invite/inviteJob';
import { inviteInsteadStep, invitedSummary } from './inviteInstead';
import { cancellableProgress } from '../../../ui/cancellableProgress';

export interface ImportDeps {
  readonly registry: PortalRegistry;
  /** The members file is planned against this organisation without asking. */
  readonly rememberAccount: (file: vscode.Uri, account: AccountRef) => Promise<void>;
  /** Today as `yyyy-mm-dd` (injected so tests do not depend on the day they run). */
  readonly today?: () => string;
  /** The extension's storage folder: the sheet's reader keeps its temporary files under it, privately. */
  readonly storage: string;
  /** The invitation job's needs, for new people invited instead of created. */
  readonly invite: InviteDeps;
  /** Invite the people the file would create, instead of creating them. */
  readonly inviteNew?: boolean;
  /** The organisation the Members view shows, if any: the import's when no saved mapping names one. */
  readonly shownAccount?: () => AccountRef | undefined;
}

const SHEET = /\.(xlsx|csv)$/i;
const MAX_SHEETS_LISTED = 200;

/**
 * The sheet in the active tab: an `.xlsx` (VS Code shows it as binary), or a CSV that is not a members file (a
 * members file, or an apply's report, has a username column: importing it would make a members file of one).
 */
function activeSheet(): string | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri = input && typeof input === 'object' && 'uri' in input ? (input as { uri: unknown }).uri : undefined;
  if (!(uri instanceof vscode.Uri) || uri.scheme !== 'file' || !SHEET.test(uri.fsPath)) return undefined;
  if (/\.xlsx$/i.test(uri.fsPath)) return uri.fsPath;
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const first = doc && doc.lineCount > 0 ? doc.lineAt(0).text : undefined;
  return first !== undefined && !looksLikeMembersFile(first, parseOptions()) && !namesUsernames(first)
    ? uri.fsPath
    : undefined;
}

/**
 * A header with a `username` column is the portal's own (an apply's report, the access matrix's export), never HR's
 * sheet: the members-file check alone lets the report through, and the import would then read it without asking.
 */
function namesUsernames(header: string): boolean {
  return header.split(/[,;\t]/).some((cell) => cell.trim().replace(/^"|"$/g, '').toLowerCase() === 'username');
}

/** Forget Saved Mapping: the mappings that fit the sheet are removed, so its next import asks the mapping again. */
export async function forgetMapping(run: Run, deps: ImportDeps): Promise<number> {
  const ui = run.ui;
  const sheetFile = await sheetFor(ui);
  const fitting = await fittingMappings(sheetFile, await readSheet(sheetFile, importTemp(deps.storage)));
  const name = path.basename(sheetFile);
  if (fitting.length === 0) {
    ui.notify('info', vscode.l10n.t('No saved mapping fits {0}: its next import asks the mapping.', name));
    return 0;
  }
  await confirmed(ui, {
    id: 'import.forget',
    message:
      fitting.length === 1
        ? vscode.l10n.t('Forget the saved mapping that fits {0}?', name)
        : vscode.l10n.t('Forget {0} saved mappings that fit {1}?', count(fitting.length), name),
    detail: vscode.l10n.t(
      '{0} will be removed. The next import of a sheet with these columns asks the mapping again.',
      fitting.map((f) => path.basename(f.file)).join(', '),
    ),
    action: vscode.l10n.t('Forget'),
  });
  for (const f of fitting) await removeFile(f.file);
  return fitting.length;
}

/** The sheet: the active tab's, else one of the workspace's `.xlsx` and `.csv` files, newest first. */
async function sheetFor(ui: Ui): Promise<string> {
  const active = activeSheet();
  if (active) return active;
  const found = await vscode.workspace.findFiles('**/*.{xlsx,csv,XLSX,CSV}', '**/node_modules/**', MAX_SHEETS_LISTED);
  const files = found.filter((u) => u.scheme === 'file' && !u.fsPath.endsWith('.members.csv'));
  const dated = await Promise.all(
    files.map(async (u) => ({ u, mtime: (await fileFacts(u.fsPath).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  dated.sort((a, b) => b.mtime - a.mtime);
  if (dated.length === 0)
    throw new Error(vscode.l10n.t('No .xlsx or .csv file in this workspace: open the sheet first.'));
  return answered(
    await ui.pick(
      dated.map(({ u }) => ({
        label: path.basename(u.fsPath),
        description: vscode.workspace.asRelativePath(u),
        value: u.fsPath,
      })),
      {
        id: 'import.sheet',
        title: vscode.l10n.t('Import Members from a Spreadsheet'),
        placeHolder: vscode.l10n.t('Which sheet?'),
      },
    ),
  );
}

interface PortalRead {
  readonly emails: PortalEmails;
  readonly groups: readonly PortalGroup[];
  readonly members: ReadonlyMap<
    string,
    { readonly username: string; readonly name: string; readonly jobTitle: string | null }
  >;
}

async function readPortal(ui: Ui, deps: ImportDeps, account: AccountRef): Promise<PortalRead> {
  const client = deps.registry.client(account.portalId);
  const state = await cancellableProgress(
    ui,
    'import.read',
    vscode.l10n.t('Reading the members and groups of {0}…', plain(account.label)),
    (_progress, signal) => readPortalState(client, account.accountId, undefined, { signal }),
  );
  const emails = new Map<string, string>();
  for (const [key, m] of state.members) emails.set(key, m.email);
  return { emails, groups: state.groups, members: state.members };
}

/**
 * The groups of the members the sheet names who are members already (one read each): their rows must keep every
 * group the sheet does not decide, and the import must know their levels never to lower one.
 */
async function existingMembers(
  ui: Ui,
  deps: ImportDeps,
  account: AccountRef,
  portal: PortalRead,
  usernames: readonly string[],
): Promise<Map<string, ExistingMember>> {
  const client = deps.registry.client(account.portalId);
  const out = new Map<string, ExistingMember>();
  if (usernames.length === 0) return out;
  await cancellableProgress(
    ui,
    'import.existing',
    vscode.l10n.t('Reading the groups of {0} members already in {1}…', count(usernames.length), plain(account.label)),
    (_progress, signal) =>
      runPool(
        usernames,
        4,
        async (username) => {
          const key = username.toLowerCase();
          const member = portal.members.get(key);
          if (!member) return;
          const v2 = await client.v2.members.get(account.accountId, member.username, { signal });
          out.set(key, existingMemberOf(member, groupLevelsOf(v2.groups, portal.groups), portal.groups));
        },
        signal,
      ),
  );
  return out;
}

/**
 * The saved mapping's organisation when the signed-in user belongs to it on that portal, with the label the portal
 * gives it (a mapping file is anyone's text: its label is never shown); else the one the Members view shows, while
 * its portal is signed in; else the one the user picks.
 */
async function accountOf(run: Run, deps: ImportDeps, saved: ImportMapping | undefined): Promise<AccountRef> {
  if (saved && deps.registry.get(saved.portalId)) {
    const info = await deps.registry.client(saved.portalId).v3.userinfo();
    const a = info.accounts.find((x) => x.account.id === saved.accountId)?.account;
    if (a) return { kind: 'account', portalId: saved.portalId, accountId: a.id, label: a.friendlyName || a.name };
  }
  const shown = deps.shownAccount?.();
  if (shown && deps.registry.get(shown.portalId)?.client) return shown;
  return accountFor(run, deps.registry, vscode.l10n.t('Import Members from a Spreadsheet'));
}

/** The mapping: the saved one where it answers, a question for each part it does not. */
async function mappingFor(
  ui: Ui,
  sheet: Sheet,
  account: AccountRef,
  portal: PortalRead,
  saved: ImportMapping | undefined,
): Promise<ImportMapping> {
  const columns = saved?.columns ?? (await askColumns(ui, sheet, proposeColumns(sheet)));
  const dateFormat = await askDateFormat(ui, sheet, { ...columns }, saved?.dateFormat);
  const departments = await askDepartments(ui, sheet, { ...columns }, portal.groups, saved?.departments);
  const draft = {
    portalId: account.portalId,
    accountId: account.accountId,
    accountLabel: account.label,
    columns,
    departments,
    ...(dateFormat ? { dateFormat } : {}),
  };
  const ownUsernames = indexOf(sheet, columns, 'username') !== undefined;
  const usernames =
    saved?.usernames ?? (ownUsernames ? 'first.last' : await askUsernames(ui, sheet, draft, portal.emails));
  return { ...draft, usernames };
}

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A path the import writes is refused when it is a link: said in the user's words, and nothing is written. */
function refusedLink(target: string): Error {
  return new Error(
    vscode.l10n.t(
      '{0} is a symbolic link: the import writes nothing through it. Remove the link and import again.',
      path.basename(target),
    ),
  );
}

async function writeRefusingLinks(target: string, text: string): Promise<void> {
  try {
    await writePrivate(target, text);
  } catch (error) {
    throw error instanceof UnsafePathError ? refusedLink(target) : error;
  }
}

async function writeMembersFile(ui: Ui, target: string, text: string): Promise<void> {
  const facts = await fileFacts(target);
  // Refused before the question: replacing a link would write where it points, which is never the members file.
  if (facts?.isLink) throw refusedLink(target);
  if (facts)
    await confirmed(ui, {
      id: 'import.replace',
      message: vscode.l10n.t('Replace {0}?', path.basename(target)),
      detail: vscode.l10n.t(
        'The members file made from this sheet before is written again; edits made to it are lost.',
      ),
      action: vscode.l10n.t('Replace'),
    });
  await writeRefusingLinks(target, text);
}

/** How many members already there the file changes, and how; it never removes or lowers, and says so. */
function existingSummary(result: Converted): string {
  const c = result.existingChanges;
  const how = [
    c.addedToGroup > 0 ? vscode.l10n.t('{0} added to a group', count(c.addedToGroup)) : undefined,
    c.raisedInGroup > 0 ? vscode.l10n.t('{0} given a higher level in a group', count(c.raisedInGroup)) : undefined,
    c.newDetails > 0 ? vscode.l10n.t('{0} with a new name or job title', count(c.newDetails)) : undefined,
  ].filter((p): p is string => p !== undefined);
  return how.length === 0
    ? vscode.l10n.t(
        'Members already: {0}; the file changes none of them, and keeps every group they are in.',
        count(result.existing.length),
      )
    : vscode.l10n.t(
        'Members already: {0}; the file changes {1} of them ({2}), and removes none from a group or lowers a level.',
        count(result.existing.length),
        count(c.changed),
        how.join(', '),
      );
}

function summary(sheetFile: string, target: string, result: Converted): string {
  const parts = [
    result.rows === 1
      ? vscode.l10n.t(
          '1 person from {0} is in {1}. Next: Plan Changes….',
          path.basename(sheetFile),
          path.basename(target),
        )
      : vscode.l10n.t(
          '{0} people from {1} are in {2}. Next: Plan Changes….',
          count(result.rows),
          path.basename(sheetFile),
          path.basename(target),
        ),
  ];
  if (result.clashes.length > 0)
    parts.push(
      vscode.l10n.t(
        'Usernames numbered: {0}.',
        result.clashes
          .slice(0, 3)
          .map((c) => `${c.wanted} → ${c.given}`)
          .join(', ') + (result.clashes.length > 3 ? ', …' : ''),
      ),
    );
  if (result.existing.length > 0) parts.push(existingSummary(result));
  if (result.pastDates > 0)
    parts.push(vscode.l10n.t('Start dates already past: {0} (activation at once).', count(result.pastDates)));
  return plain(parts.join(' '));
}

/** Goes on when the user confirms; otherwise the import stops, cancelled. */
async function confirmed(ui: Ui, question: ConfirmOptions): Promise<void> {
  answered((await ui.confirm(question)) || undefined);
}

/**
 * In Restricted Mode the import asks first: it writes two files beside a sheet the workspace holds (the mapping and
 * the members file), and an untrusted workspace chose where that sheet is. Asked rather than refused, because the
 * import acts only when a person starts it and writes nothing through a link wherever it runs.
 */
async function trustedOrAsked(ui: Ui, sheetFile: string): Promise<void> {
  if (vscode.workspace.isTrusted) return;
  await confirmed(ui, {
    id: 'import.untrusted',
    message: vscode.l10n.t('Import {0} in Restricted Mode?', path.basename(sheetFile)),
    detail: vscode.l10n.t(
      'This workspace is not trusted. The import writes its mapping and a members file beside the sheet.',
    ),
    action: vscode.l10n.t('Import'),
  });
}

/** Where the sheet's reader keeps its temporary folders, under the extension's storage. */
export function importTemp(storage: string): string {
  return path.join(storage, 'import-temp');
}

/** The whole import; returns the members file written. */
export async function importSheet(run: Run, deps: ImportDeps): Promise<vscode.Uri> {
  const ui = run.ui;
  const sheetFile = await sheetFor(ui);
  await trustedOrAsked(ui, sheetFile);
  const sheet = await readSheet(sheetFile, importTemp(deps.storage));
  const found = await findMapping(sheetFile, sheet);
  const saved = found?.mapping;
  const account = await accountOf(run, deps, saved);
  const portal = await readPortal(ui, deps, account);
  const mapping = await mappingFor(ui, sheet, account, portal, saved);
  try {
    await saveMapping(sheetFile, mapping);
  } catch (error) {
    throw error instanceof UnsafePathError ? refusedLink(mappingPath(sheetFile)) : error;
  }
  const options = { portal: portal.emails, today: (deps.today ?? todayUtc)() };
  const existing = await existingMembers(ui, deps, account, portal, convertSheet(sheet, mapping, options).existing);
  const result = convertSheet(sheet, mapping, { ...options, existing });
  const invited = deps.inviteNew ? await inviteInsteadStep(ui, deps.invite, account, result, portal.groups) : undefined;
  const target = vscode.Uri.file(`${sheetStem(sheetFile)}.members.csv`);
  await writeMembersFile(ui, target.fsPath, invited?.text ?? result.text);
  await deps.rememberAccount(target, account);
  await vscode.window.showTextDocument(target, { preview: false });
  const used = found
    ? vscode.l10n.t(
        'Imported with the mapping saved in {0}: to change it, run Forget Saved Mapping and import again.',
        path.basename(found.file),
      )
    : undefined;
  const told = invited
    ? invitedSummary(path.basename(target.fsPath), invited)
    : summary(sheetFile, target.fsPath, result);
  ui.notify('info', [told, ...(used ? [used] : [])].join(' '));
  return target;
}
