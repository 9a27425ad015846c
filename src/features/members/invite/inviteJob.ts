/**
 * Invitations as a job of the engine, from any entry point (Invite Members…, an import's "invite instead of
 * create"): the plan is read (the organisation's invitations; a portal that refuses them is told once, plainly, and
 * nothing else happens), shown in the confirmation with every person, what each invitation would grant (power named
 * as in a members plan) and who is left out and why, and that it cannot be undone, before anything is sent; then each
 * invitation is journaled and sent, the report is written and opened, and a run a reload cut off is offered again.
 */
import { Readable } from 'node:stream';
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import {
  discardInvitations,
  noInviteUndoText,
  notOfferedText,
  readInvitePlan,
  resumeInvitations,
  runInvitations,
  unfinishedInvitations,
  type InviteOrigin,
  type InvitePlan,
  type InviteRecord,
  type InviteResult,
  type InviteUnit,
  type Invitee,
  type LeftOutReason,
} from '../../../engine/invitations/index';
import { writeAtomically } from '../../../node/atomicFile';
import { inFolder, privateFolder, PRIVATE_FILE_MODE } from '../../../node/privateFiles';
import { count, fullDate } from '../../../shared/format';
import { accountPermissionWords, groupPermissionWords } from '../../../shared/permissions';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';

import { answered, type Ui } from '../../../ui/ui';
import { csvLine, UTF8_BOM } from '../csv/csv';
import { groupElevation, permissionElevation, type Elevation } from '../plan/core/elevation';
import type { GroupLevel } from '../plan/core/model';
import { reportsFolderOf } from '../plan/core/report';
import { elevationsText } from '../plan/planWords';
import { cancellableProgress } from '../../../ui/cancellableProgress';

export interface InviteDeps {
  readonly registry: PortalRegistry;
  /** The extension's storage folder: journals and reports. */
  readonly storage: string;
  readonly log: vscode.LogOutputChannel;
  /** Invitations were sent to this organisation (the Members view may show them). */
  readonly sent?: (account: AccountRef) => void;
}

/** People named in the confirmation before "and N more". */
const NAMED = 20;

/** What an invitation grants beyond a Member, in the words a members plan uses. */
export function inviteElevations(
  unit: Pick<InviteUnit, 'mask' | 'groups'>,
  groupName: (id: string) => string,
): Elevation[] {
  const out: Elevation[] = [];
  const own = permissionElevation(undefined, unit.mask);
  if (own) out.push(own);
  for (const [id, level] of Object.entries(unit.groups)) {
    const e = groupElevation(groupName(id), 0, level as GroupLevel);
    if (e) out.push(e);
  }
  return out;
}

function grantText(unit: InviteUnit, groupName: (id: string) => string): string {
  const groups = Object.entries(unit.groups).map(([id, level]) =>
    vscode.l10n.t('{0}: {1}', plain(groupName(id), { maxLength: 80 }), groupPermissionWords(level)),
  );
  return [accountPermissionWords(unit.mask), ...groups].join('; ');
}

function leftOutWords(reason: LeftOutReason): string {
  switch (reason) {
    case 'bad-address':
      return vscode.l10n.t('not an e-mail address');
    case 'twice':
      return vscode.l10n.t('named twice');
    case 'pending':
      return vscode.l10n.t('an invitation to this address is pending already');
    case 'member':
      return vscode.l10n.t('a member already');
  }
}

/** The confirmation's detail: cannot be undone first, then the power granted, then everyone invited and left out. */
export function planLines(plan: InvitePlan, groupName: (id: string) => string): string[] {
  const lines = [noInviteUndoText()];
  const powerful = plan.units.map((u) => ({ u, e: inviteElevations(u, groupName) })).filter((x) => x.e.length > 0);
  if (powerful.length > 0) {
    lines.push(vscode.l10n.t('ELEVATION: {0} invitations grant more power than a Member has:', count(powerful.length)));
    for (const { u, e } of powerful.slice(0, NAMED)) lines.push(`  ${plain(u.email)}: ${elevationsText(e)}`);
    if (powerful.length > NAMED) lines.push(`  ${vscode.l10n.t('and {0} more', count(powerful.length - NAMED))}`);
  }
  lines.push(vscode.l10n.t('To invite ({0}):', count(plan.units.length)));
  for (const u of plan.units.slice(0, NAMED)) lines.push(`  ${plain(u.email)}: ${grantText(u, groupName)}`);
  if (plan.units.length > NAMED) lines.push(`  ${vscode.l10n.t('and {0} more', count(plan.units.length - NAMED))}`);
  if (plan.leftOut.length > 0) {
    lines.push(vscode.l10n.t('Left out ({0}):', count(plan.leftOut.length)));
    for (const l of plan.leftOut.slice(0, NAMED)) lines.push(`  ${plain(l.email)}: ${leftOutWords(l.reason)}`);
    if (plan.leftOut.length > NAMED)
      lines.push(`  ${vscode.l10n.t('and {0} more', count(plan.leftOut.length - NAMED))}`);
  }
  return lines;
}

const REPORT_COLUMNS = ['row', 'email', 'action', 'result', 'message'] as const;

/** The report: one row per planned invitation, its outcome or not started. */
export function inviteReportCsv(result: Pick<InviteResult, 'work' | 'outcomes'>): string {
  let text = UTF8_BOM + csvLine([...REPORT_COLUMNS]);
  for (const u of result.work) {
    const o = result.outcomes.get(u.seq);
    text += csvLine([String(u.seq + 1), u.email, 'invite', o?.result ?? 'not-started', o?.message ?? '']);
  }
  return text;
}

async function writeReport(deps: InviteDeps, result: InviteResult): Promise<vscode.Uri> {
  const folder = await privateFolder(reportsFolderOf(deps.storage));
  // The id comes from a journal, a file that can be edited: the name may not leave the reports folder.
  const file = inFolder(folder, `report-${result.applyId}.csv`);
  await writeAtomically(file, Readable.from([inviteReportCsv(result)]), { replace: true, mode: PRIVATE_FILE_MODE });
  return vscode.Uri.file(file);
}

async function finish(ui: Ui, deps: InviteDeps, account: AccountRef, result: InviteResult): Promise<void> {
  deps.sent?.(account);
  const report = await writeReport(deps, result);
  await vscode.window.showTextDocument(report, { preview: false });
  const n = { done: 0, failed: 0, skipped: 0, notStarted: 0 };
  for (const u of result.work) {
    const r = result.outcomes.get(u.seq)?.result;
    if (r === 'done') n.done++;
    else if (r === 'failed') n.failed++;
    else if (r === 'skipped') n.skipped++;
    else n.notStarted++;
  }
  for (const [seq, o] of result.outcomes) if (o.result === 'failed') deps.log.warn(`invite ${seq + 1}: ${o.message}`);
  const parts = [
    vscode.l10n.t('Invitations to {0}: {1} sent.', plain(account.label), count(n.done)),
    n.failed ? vscode.l10n.t('Failed: {0}.', count(n.failed)) : '',
    n.skipped ? vscode.l10n.t('Skipped: {0}.', count(n.skipped)) : '',
    n.notStarted ? vscode.l10n.t('Not started: {0}.', count(n.notStarted)) : '',
    result.unconfirmed
      ? vscode.l10n.t('The window closed under a request: the next start offers to resume.')
      : result.cancelled
        ? vscode.l10n.t('Cancelled: invitations already sent were finished, the rest not sent.')
        : '',
  ].filter((p) => p !== '');
  ui.notify(n.failed > 0 ? 'warning' : 'info', parts.join(' '));
}

/** Group names by id for the words; an id the list does not hold is shown as one. */
export type GroupNames = ReadonlyMap<string, string>;
const nameIn = (names: GroupNames) => (id: string) => names.get(id) ?? vscode.l10n.t('group {0}', id);

/**
 * Plans, confirms and sends invitations to `account`. Returns what was sent, or undefined when nothing was (the portal
 * refused, nothing was left to send, or the person said no).
 */
export async function inviteJob(
  ui: Ui,
  deps: InviteDeps,
  account: AccountRef,
  people: readonly Invitee[],
  options: { readonly origin: InviteOrigin; readonly groupNames: GroupNames; readonly members?: ReadonlySet<string> },
): Promise<InviteResult | undefined> {
  const client = deps.registry.client(account.portalId);
  const read = await cancellableProgress(
    ui,
    'invite.read',
    vscode.l10n.t('Reading the invitations of {0}…', plain(account.label)),
    (_progress, signal) =>
      readInvitePlan(client, account.accountId, people, {
        signal,
        ...(options.members ? { members: options.members } : {}),
      }),
  );
  if (read.kind === 'not-offered') {
    ui.notify('warning', notOfferedText(read.reason));
    return undefined;
  }
  const { plan } = read;
  const groupName = nameIn(options.groupNames);
  if (plan.units.length === 0) {
    ui.notify('info', [vscode.l10n.t('Nobody is left to invite.'), ...planLines(plan, groupName).slice(1)].join('\n'));
    return undefined;
  }
  const title =
    plan.units.length === 1
      ? vscode.l10n.t('Invite {0} to {1}', plain(plan.units[0]?.email ?? ''), plain(account.label))
      : vscode.l10n.t('Invite {0} people to {1}', count(plan.units.length), plain(account.label));
  const yes = await ui.confirm({
    id: 'invite.confirm',
    message: vscode.l10n.t('{0}? This cannot be undone.', title),
    detail: planLines(plan, groupName).join('\n'),
    action: vscode.l10n.t('Send Invitations'),
  });
  if (!yes) return undefined;
  const result = await cancellableProgress(ui, 'invite.progress', vscode.l10n.t('{0}…', title), (progress, signal) =>
    runInvitations(client, plan.units, {
      storageFolder: deps.storage,
      portalId: account.portalId,
      accountId: account.accountId,
      origin: options.origin,
      title,
      signal,
      onProgress: (p) => progress.report({ increment: 100 / Math.max(1, p.total) }),
    }),
  );
  await finish(ui, deps, account, result);
  return result;
}

/** The organisation of a stopped run, by the portal's own label when signed in; else its id. */
async function accountOfRecord(deps: InviteDeps, record: InviteRecord): Promise<AccountRef> {
  const { portalId, accountId } = record.begin;
  const label = await deps.registry
    .client(portalId)
    .v3.userinfo()
    .then((info) => info.accounts.find((a) => a.account.id === accountId)?.account)
    .then((a) => (a ? a.friendlyName || a.name : undefined))
    .catch(() => undefined);
  return { kind: 'account', portalId, accountId, label: label ?? vscode.l10n.t('organisation {0}', accountId) };
}

/**
 * Offers to go on with invitations a reload or a crash cut off. At start-up a notification nobody has to answer;
 * from the command, asked outright. A resume sends only what the portal does not show pending already.
 */
export async function offerInviteResume(ui: Ui, deps: InviteDeps, modal: boolean): Promise<InviteResult | undefined> {
  const [record] = await unfinishedInvitations(deps.storage);
  if (!record) {
    if (modal) ui.notify('info', vscode.l10n.t('No invitations were interrupted: there is nothing to resume.'));
    return undefined;
  }
  if (!deps.registry.get(record.begin.portalId)) return undefined;
  const account = await accountOfRecord(deps, record);
  const choice = await ui.choose({
    id: 'invite.interrupted',
    severity: 'warning',
    modal,
    message: vscode.l10n.t(
      'Invitations to {0} stopped before they finished (started {1}; {2} of {3} done). Resume them? An address the portal shows invited already is not invited again.',
      plain(account.label),
      fullDate(record.begin.startedAt),
      count(record.outcomes.size),
      count(record.begin.work.length),
    ),
    actions: [
      { id: 'resume', label: vscode.l10n.t('Resume') },
      { id: 'discard', label: vscode.l10n.t('Leave It') },
    ],
  });
  // A notification may be answered long after it was shown: by then the run may have been resumed another way.
  if (choice && !(await unfinishedInvitations(deps.storage)).some((r) => r.applyId === record.applyId)) {
    ui.notify('info', vscode.l10n.t('Those invitations have been finished already.'));
    return undefined;
  }
  if (choice === 'discard') {
    await discardInvitations(record);
    return undefined;
  }
  if (choice !== 'resume') {
    if (modal) answered(undefined);
    return undefined;
  }
  const client = deps.registry.client(record.begin.portalId);
  const result = await cancellableProgress(
    ui,
    'invite.resume',
    vscode.l10n.t('Resuming invitations to {0}…', plain(account.label)),
    (progress, signal) =>
      resumeInvitations(client, record, {
        signal,
        onProgress: (p) => progress.report({ increment: 100 / Math.max(1, p.total) }),
      }),
  );
  await finish(ui, deps, account, result);
  return result;
}
