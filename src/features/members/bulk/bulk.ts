/**
 * Bulk member edits on the Members view's selection: one confirmation naming the count, a progress notification
 * with cancel, the changed rows redrawn in place, and a summary that offers to retry the failures. The run itself
 * (one request per member, the budget, what cancelling leaves) is bulkRun.ts.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { memberRow, type MemberRow } from '../../../shared/members';
import { memberOf, type AccountRef, type MemberRef } from '../../../shared/refs';
import type { Run } from '../../../ui/commands';
import type { Ui } from '../../../ui/ui';
import { runBulk, unfinishedMembers, failedMembers, type BulkSummary } from './bulkRun';
import { type BulkChange, type BulkMember } from './bulkChange';
import { changeWords, someNames, summaryWords, unusualWords, type ChangeWords } from './bulkWords';
import { unusualIn } from './unusual';
import type { MembersProvider } from '../view/membersProvider';

export interface BulkDeps {
  readonly registry: PortalRegistry;
  readonly provider: MembersProvider;
  readonly log: vscode.LogOutputChannel;
  /** The extension's storage folder: bulk edits are journaled there, like a plan's apply, so they can be undone. */
  readonly storage?: string;
}

/** Runs of "Retry Failures" in a row at most; each one is a click, this only bounds the loop. */
const MAX_RETRIES = 20;

const sameAccount = (a: AccountRef, b: AccountRef): boolean => a.portalId === b.portalId && a.accountId === b.accountId;

/**
 * The members a command acts on when it runs on a selection of several rows that includes the one clicked (VS Code
 * passes the clicked row and the selection); undefined for a single row, so the command acts on that row alone.
 */
export function selectedMembers(run: Run): MemberRef[] | undefined {
  const clicked = memberOf(run.target);
  if (!clicked) return undefined;
  const members = run.selection.flatMap((r) =>
    r.kind === 'member' && sameAccount(r.account, clicked.account) ? [r] : [],
  );
  if (members.length < 2 || !members.some((m) => m.username === clicked.username)) return undefined;
  return members;
}

function bulkMember(row: MemberRow): BulkMember {
  return {
    username: row.username,
    enabled: row.enabled,
    locked: row.locked,
    pendingUnlock: row.pendingUnlock,
    tags: row.tags,
  };
}

/** What each member is now, from the view's rows; a member the view no longer holds is read from the portal. */
export async function currentMembers(
  deps: BulkDeps,
  account: AccountRef,
  members: readonly MemberRef[],
): Promise<Array<{ ref: MemberRef; row: MemberRow }>> {
  const client = deps.registry.client(account.portalId);
  return Promise.all(
    members.map(async (ref) => ({
      ref,
      row:
        deps.provider.rowOf(account, ref.username) ??
        memberRow(await client.v3.members.get(account.accountId, ref.username)),
    })),
  );
}

/** The confirmation's detail: for a removal, whose user is deleted for good with it. */
function confirmDetail(change: BulkChange, rows: readonly MemberRow[]): string | undefined {
  if (change.kind !== 'delete') return undefined;
  const alone = rows.filter((r) => !r.multipleAccounts).map((r) => r.username);
  return [
    vscode.l10n.t('They lose access to the organisation and all its groups.'),
    alone.length === 0
      ? vscode.l10n.t('Each of them also belongs to another organisation, so their users stay on the portal.')
      : vscode.l10n.t(
          '{0} of them belong to no other organisation, so their users are DELETED FOR GOOD and cannot be restored: {1}',
          alone.length,
          someNames(alone, 20),
        ),
  ].join('\n\n');
}

/** The one confirmation: the question, who is unusual in the selection (from the rows' data), and for a removal who is deleted for good. */
function confirmBulk(ui: Ui, change: BulkChange, rows: readonly MemberRow[], words: ChangeWords): Promise<boolean> {
  const unusual = unusualWords(change, unusualIn(change, rows));
  const detail = [unusual.lines.join('\n'), confirmDetail(change, rows) ?? ''].filter((d) => d !== '').join('\n\n');
  return ui.confirm({
    id: 'members.bulk.confirm',
    message: unusual.sentence ? `${words.question} ${unusual.sentence}` : words.question,
    ...(detail ? { detail } : {}),
    action: words.action,
  });
}

/** Shows the run's result in the view: changed rows in place, removed ones gone. */
function showInView(deps: BulkDeps, account: AccountRef, summary: BulkSummary): void {
  const changed = summary.done.flatMap((d) => (d.answer ? [memberRow(d.answer)] : []));
  const removed =
    summary.change.kind === 'delete'
      ? [
          ...summary.done.map((d) => d.member.username),
          ...summary.skipped.filter((s) => s.reason === 'already-removed').map((s) => s.member.username),
        ]
      : [];
  if (changed.length) deps.provider.memberChanged(account, ...changed);
  if (removed.length) deps.provider.memberRemoved(account, ...removed);
}

async function runOnce(
  deps: BulkDeps,
  ui: Ui,
  account: AccountRef,
  change: BulkChange,
  members: readonly BulkMember[],
  words: ChangeWords,
): Promise<BulkSummary> {
  const client = deps.registry.client(account.portalId);
  const summary = await ui.progress(
    { id: 'members.bulk.progress', title: words.progress, where: 'notification', cancellable: true },
    (progress, signal) =>
      runBulk(client, account.accountId, change, members, {
        signal,
        ...(deps.storage ? { journal: { storageFolder: deps.storage, portalId: account.portalId } } : {}),
        onProgress: (p) =>
          progress.report({ increment: 100 / p.total, message: vscode.l10n.t('{0} of {1}', p.done, p.total) }),
      }),
  );
  showInView(deps, account, summary);
  for (const f of summary.failed)
    deps.log.warn(`bulk ${change.kind}: ${f.member.username} failed (${f.kind}): ${f.message}`);
  return summary;
}

/**
 * Confirms once, runs, and summarises; "Retry Failures" runs the failed members again (and, when the portal stopped
 * the run, those it never started). Returns the last run's summary, or undefined when the user said no.
 */
export async function bulkEdit(
  deps: BulkDeps,
  ui: Ui,
  account: AccountRef,
  refs: readonly MemberRef[],
  change: BulkChange,
  group = '',
): Promise<BulkSummary | undefined> {
  const rows = (await currentMembers(deps, account, refs)).map((m) => m.row);
  const words = changeWords(change, rows.length, account.label, group);
  // One member (a tag command on one row) is a single change the user just asked for, as "Disable" is.
  if (rows.length > 1 && !(await confirmBulk(ui, change, rows, words))) return undefined;
  let members: BulkMember[] = rows.map(bulkMember);
  for (let attempt = 0; ; attempt++) {
    const summary = await runOnce(
      deps,
      ui,
      account,
      change,
      members,
      attempt === 0 ? words : changeWords(change, members.length, account.label, group),
    );
    const text = summaryWords(summary, words);
    const retry = summary.cancelled ? failedMembers(summary) : unfinishedMembers(summary);
    if (retry.length === 0 || attempt >= MAX_RETRIES) {
      ui.notify(summary.failed.length ? 'warning' : 'info', text.message);
      return summary;
    }
    const choice = await ui.choose({
      id: 'members.bulk.summary',
      severity: 'warning',
      modal: true,
      message: text.message,
      detail: text.detail,
      actions: [{ id: 'retry', label: vscode.l10n.t('Retry Failures') }],
    });
    if (choice !== 'retry') return summary;
    members = retry;
  }
}
