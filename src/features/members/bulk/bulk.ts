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
import { PortalError } from '../../../api/index';
import { count } from '../../../shared/format';
import { answered } from '../../../ui/ui';
import { MEMBER_CHANGE_DONE, offerUndo, type UndoChange } from '../../../ui/undoOffer';
import { runBulk, unfinishedMembers, failedMembers, type BulkSummary } from './bulkRun';
import { bulkMemberOf, type BulkChange, type BulkMember } from './bulkChange';
import { changeWords, lastingRemovalWords, someNames, summaryWords, unusualWords, type ChangeWords } from './bulkWords';
import { typeCountWords } from '../plan/planWords';
import { unusualIn } from './unusual';
import type { MembersProvider } from '../view/membersProvider';
import { cancellableProgress } from '../../../ui/cancellableProgress';

export interface BulkDeps {
  readonly registry: PortalRegistry;
  readonly provider: MembersProvider;
  readonly log: vscode.LogOutputChannel;
  /** The extension's storage folder: every member change is journaled there, so it can be undone. */
  readonly storage: string;
  /** Undoes a journaled change (its plan, then the usual confirmation): what a summary's Undo button does. */
  readonly undo?: UndoChange;
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

/** The confirmation's detail: for a removal, whose user is deleted for good with it (from a fresh read). */
function confirmDetail(change: BulkChange, members: readonly BulkMember[]): string | undefined {
  if (change.kind !== 'delete') return undefined;
  const alone = members.filter((m) => m.deletesUser).map((m) => m.username);
  return [
    vscode.l10n.t('They lose access to the organisation and all its groups.'),
    alone.length === 0
      ? vscode.l10n.t('Each of them also belongs to another organisation, so their users stay on the portal.')
      : vscode.l10n.t(
          '{0} of them belong to no other organisation, so their users are DELETED FOR GOOD: {1}. A snapshot of each is kept first, so Undo can re-create them (everything but the password).',
          count(alone.length),
          someNames(alone, 20),
        ),
    lastingRemovalWords(members.length - alone.length),
  ]
    .filter((line) => line !== '')
    .join('\n\n');
}

/** Deleting users for good is confirmed by typing how many. */
async function typedCount(ui: Ui, members: readonly BulkMember[], title: string): Promise<boolean> {
  const n = members.filter((m) => m.deletesUser).length;
  if (n === 0) return true;
  const words = typeCountWords(n);
  const typed = await ui.input({
    id: 'members.bulk.typeCount',
    title,
    prompt: words.prompt,
    validate: (v) => (v.trim() === String(n) ? undefined : words.mistyped),
  });
  return answered(typed).trim() === String(n);
}

/**
 * The members as they are now: for a removal, as the portal has them (not as the view's cache does), since who would
 * be deleted for good is decided on this read (and checked again by the engine at the moment of sending); for other
 * changes, the view's rows.
 */
async function membersNow(
  deps: BulkDeps,
  account: AccountRef,
  refs: readonly MemberRef[],
  change: BulkChange,
): Promise<{ rows: MemberRow[]; members: BulkMember[] }> {
  if (change.kind !== 'delete') {
    const rows = (await currentMembers(deps, account, refs)).map((m) => m.row);
    return { rows, members: rows.map(bulkMember) };
  }
  const client = deps.registry.client(account.portalId);
  const read = await Promise.all(refs.map((r) => client.v3.members.get(account.accountId, r.username)));
  return { rows: read.map(memberRow), members: read.map(bulkMemberOf) };
}

/**
 * The one confirmation: the question, who is unusual in the selection (pending activation, already so,
 * administrators), and for a removal whose user is deleted for good; then the count typed when users go for good.
 */
async function confirmBulk(
  ui: Ui,
  change: BulkChange,
  now: { rows: readonly MemberRow[]; members: readonly BulkMember[] },
  words: ChangeWords,
): Promise<boolean> {
  const unusual = unusualWords(change, unusualIn(change, now.rows));
  const detail = [unusual.lines.join('\n'), confirmDetail(change, now.members) ?? '']
    .filter((d) => d !== '')
    .join('\n\n');
  const yes = await ui.confirm({
    id: 'members.bulk.confirm',
    message: unusual.sentence ? `${words.question} ${unusual.sentence}` : words.question,
    ...(detail ? { detail } : {}),
    action: words.action,
  });
  return yes && (await typedCount(ui, now.members, words.title));
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
  const summary = await cancellableProgress(ui, 'members.bulk.progress', words.progress, (progress, signal) =>
    runBulk(client, account.accountId, change, members, {
      signal,
      journal: { storageFolder: deps.storage, portalId: account.portalId, accountLabel: account.label },
      title: words.title,
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
  const now = await membersNow(deps, account, refs, change);
  let members: BulkMember[] = now.members;
  const words = changeWords(change, members.length, account.label, group);
  // One member (a tag command on one row) is a single change the user just asked for, as "Disable" is.
  if (members.length > 1 && !(await confirmBulk(ui, change, now, words))) return undefined;
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
    // A removal whose user lives on in another organisation cannot be undone: Undo is offered only for the rest.
    const putBack = summary.done.some((d) => change.kind !== 'delete' || d.member.deletesUser === true);
    const undoable = putBack ? summary.applyId : undefined;
    if (retry.length === 0 || attempt >= MAX_RETRIES) {
      void offerUndo(
        ui,
        MEMBER_CHANGE_DONE,
        deps.undo,
        undoable,
        summary.failed.length ? 'warning' : 'info',
        text.message,
      );
      return summary;
    }
    const choice = await ui.choose({
      id: 'members.bulk.summary',
      severity: 'warning',
      modal: true,
      message: text.message,
      detail: text.detail,
      actions: [
        { id: 'retry', label: vscode.l10n.t('Retry Failures') },
        ...(undoable && deps.undo ? [{ id: 'undo' as const, label: vscode.l10n.t('Undo') }] : []),
      ],
    });
    if (choice === 'undo' && undoable && deps.undo) await deps.undo(ui, undoable);
    if (choice !== 'retry') return summary;
    members = retry;
  }
}

/**
 * One member, one change, as a single command asks it: no confirmation beyond the command's own, no progress; the
 * member's new state in place, and a summary with Undo. Throws the portal's refusal.
 */
export async function changeOne(
  deps: BulkDeps,
  ui: Ui,
  ref: MemberRef,
  change: BulkChange,
  said: { readonly title: string; readonly done: string },
  known: Pick<BulkMember, 'groupPermissions'> = {},
): Promise<boolean> {
  const account = ref.account;
  const [read] = (await membersNow(deps, account, [ref], change)).members;
  if (!read) return false;
  const member: BulkMember = { ...read, ...known };
  const client = deps.registry.client(account.portalId);
  const journal = { storageFolder: deps.storage, portalId: account.portalId, accountLabel: account.label };
  const summary = await runBulk(client, account.accountId, change, [member], { journal, title: said.title });
  showInView(deps, account, summary);
  const failed = summary.failed[0];
  if (failed)
    throw new PortalError({
      kind: failed.kind === 'unexpected' ? 'invalid-response' : failed.kind,
      endpoint: '',
      message: failed.message,
    });
  const skipped = summary.skipped[0];
  if (skipped) {
    ui.notify('info', summaryWords(summary, changeWords(change, 1, account.label)).message);
    return false;
  }
  void offerUndo(ui, MEMBER_CHANGE_DONE, deps.undo, summary.applyId, 'info', said.done);
  return true;
}
