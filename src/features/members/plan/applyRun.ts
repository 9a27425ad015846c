/**
 * Apply, resume and their ending: one confirmation naming the counts, a cancellable progress with an estimate of
 * the time left, then the action report (a CSV opened in an editor) and a summary offering Retry Failed.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { count } from '../../../shared/format';
import { errorMessage } from '../../../shared/errors';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';
import type { Progress, Ui } from '../../../ui/ui';
import { isFolder } from '../../../node/disk';
import { privateFolder } from '../../../node/privateFiles';
import {
  applyPlan,
  chosenChanges,
  countPlan,
  type ApplyProgress,
  type ApplyResult,
  type PlanCounts,
} from '../../../engine/members/apply';
import { resumeApply } from '../../../engine/members/index';
import { allChanges, type JournalRecord, type Plan } from './core/model';
import { newReportFile, reportCounts, reportsFolderOf, retryFailed, writeReport } from './core/report';
import { aboutDuration } from '../../../shared/duration';
import type { PlanStore, ShownPlan } from './planStore';
import { confirmTruth, typeCountWords, undoableRows, undoText } from './planWords';
import { planTitle, whatChanges } from './changeNames';
import { cancellableProgress } from '../../../ui/cancellableProgress';

export interface ApplyDeps {
  readonly registry: PortalRegistry;
  readonly store: PlanStore;
  /** The extension's global storage folder: journals and reports live under it. */
  readonly storage: string;
  readonly memento: vscode.Memento;
  /** The members of this organisation changed: the Members view reads them again. */
  readonly reload: (account: AccountRef) => void;
  /** Undoes a journaled change (the summary's Undo button). */
  readonly undo: (ui: Ui, applyId: string) => Promise<void>;
}

const SNAPSHOT_FOLDER = 'portal.plan.snapshotFolder';

/** Where action reports are written: the extension's storage, not the user's folders. */
export const reportsFolder = reportsFolderOf;

/** The confirmation's counts, after the sentence that says what changes ("Disable 3, remove from 9 group places."). */
function confirmDetail(c: PlanCounts, snapshotFolder: string | undefined, what: string): string {
  const lines = [
    what,
    c.create
      ? vscode.l10n.t('New members: {0} (each gets an activation e-mail; no password is set)', count(c.create))
      : '',
    c.remove ? vscode.l10n.t('Members removed: {0}', count(c.remove)) : '',
    c.permanent
      ? vscode.l10n.t(
          'Of those, deleted for good (in no other organisation): {0}. A snapshot of each is kept in {1}',
          count(c.permanent),
          plain(snapshotFolder ?? ''),
        )
      : '',
    c.conflictsChosen ? vscode.l10n.t('Conflicting rows you chose to apply anyway: {0}', count(c.conflictsChosen)) : '',
    ...undoText(c.remove, c.permanent),
  ];
  return lines.filter((l) => l !== '').join('\n');
}

/** Where snapshots of members deleted for good go: the user's choice, asked once and remembered. */
export async function snapshotFolder(ui: Ui, memento: vscode.Memento, ask: boolean): Promise<string | undefined> {
  const known = memento.get<string>(SNAPSHOT_FOLDER);
  // A folder that has gone since (deleted, a drive unplugged) is asked again rather than made anew.
  const exists = known ? await isFolder(known) : false;
  if (known && exists && !ask) return known;
  const folder = await ui.pickFolder({
    id: 'plan.snapshot.folder',
    title: vscode.l10n.t('Where should snapshots of members deleted for good be kept?'),
    openLabel: vscode.l10n.t('Keep Snapshots Here'),
  });
  if (folder) await memento.update(SNAPSHOT_FOLDER, folder);
  return folder;
}

export function knownSnapshotFolder(memento: vscode.Memento): string | undefined {
  return memento.get<string>(SNAPSHOT_FOLDER);
}

function reportProgress(progress: Progress, p: ApplyProgress, last: { share: number }): void {
  const share = p.total ? (100 * p.done) / p.total : 0;
  const eta = p.etaMs === undefined ? '' : ` · ${vscode.l10n.t('{0} left', aboutDuration(p.etaMs))}`;
  const failed = p.failed ? ` · ${vscode.l10n.t('{0} failed', count(p.failed))}` : '';
  progress.report({
    increment: share - last.share,
    message: `${vscode.l10n.t('{0} of {1} members', count(p.done), count(p.total))}${eta}${failed}`,
  });
  last.share = share;
}

/** Applies the plan on show after one confirmation; false when the user said no. */
export async function applyShown(ui: Ui, deps: ApplyDeps, shown: ShownPlan): Promise<boolean> {
  const { plan, account, leftOut } = shown;
  const counts = countPlan(plan, leftOut);
  if (counts.members === 0) {
    ui.notify('info', vscode.l10n.t('No change is chosen: nothing to apply.'));
    return false;
  }
  const chosen = chosenChanges(plan, leftOut);
  // Named from what the user chose to apply, so the history says what was done.
  const title = plan.title ?? (plan.naming ? planTitle(plan.naming, chosen) : undefined);
  const folder = counts.permanent > 0 ? await snapshotFolder(ui, deps.memento, false) : undefined;
  if (counts.permanent > 0 && !folder) return false;
  const yes = await ui.confirm({
    id: 'plan.apply.confirm',
    message:
      counts.members === 1
        ? vscode.l10n.t('Apply changes to 1 member of {0}?', plain(account.label))
        : vscode.l10n.t('Apply changes to {0} members of {1}?', count(counts.members), plain(account.label)),
    detail: [
      ...(shown.proposedInChat
        ? [vscode.l10n.t('Proposed in chat: a language model wrote its rows, not you in a members file.')]
        : []),
      ...confirmTruth(plan, chosen),
      confirmDetail(
        counts,
        folder,
        whatChanges(chosen, plan.naming?.kind === 'offboard' ? plan.naming.tag : undefined),
      ),
    ].join('\n'),
    action:
      counts.members === 1
        ? vscode.l10n.t('Apply to 1 Member')
        : vscode.l10n.t('Apply to {0} Members', count(counts.members)),
  });
  if (!yes || !(await typedCount(ui, counts.permanent))) return false;
  const client = deps.registry.client(account.portalId);
  const last = { share: 0 };
  const result = await cancellableProgress(
    ui,
    'plan.apply.progress',
    vscode.l10n.t('Applying changes to {0}…', plain(account.label)),
    (progress, signal) =>
      applyPlan(client, plan, {
        journalFolder: deps.storage,
        portalId: account.portalId,
        accountLabel: account.label,
        ...(folder ? { snapshotFolder: folder } : {}),
        ...(title ? { title } : {}),
        leftOut,
        signal,
        onProgress: (p) => reportProgress(progress, p, last),
      }),
  );
  deps.store.clear();
  await finish(ui, deps, plan, account, result);
  return true;
}

/** The question before a resume: what remains of the run, read from its journal under its lock. */
function confirmResume(ui: Ui, account: AccountRef, remaining: Plan): Promise<boolean> {
  const counts = countPlan(remaining, new Set());
  const names = allChanges(remaining).map((c) => plain(c.username));
  return ui.confirm({
    id: 'plan.resume.confirm',
    message: vscode.l10n.t(
      'Resume the interrupted apply to {0}? {1} members remain.',
      plain(account.label),
      count(counts.members),
    ),
    detail: [
      [
        ...confirmTruth(remaining, allChanges(remaining)),
        confirmDetail(counts, undefined, whatChanges(allChanges(remaining))),
      ].join('\n'),
      [...new Set(names)].slice(0, 20).join(', '),
    ].join('\n\n'),
    action: vscode.l10n.t('Resume {0} Members', count(counts.members)),
  });
}

/**
 * Finishes an apply that stopped before its end (a reload or a crash): the journal is locked and checked, what
 * remains is confirmed, and only then does the progress start.
 */
export async function resumeRecord(ui: Ui, deps: ApplyDeps, record: JournalRecord, account: AccountRef): Promise<void> {
  const client = deps.registry.client(account.portalId);
  const folder = knownSnapshotFolder(deps.memento);
  const abort = new AbortController();
  const last = { share: 0 };
  let report: ((p: ApplyProgress) => void) | undefined;
  let settle = (): void => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const startProgress = (): void =>
    void cancellableProgress(
      ui,
      'plan.resume.progress',
      vscode.l10n.t('Resuming the interrupted apply to {0}…', plain(account.label)),
      (progress, signal) => {
        signal.addEventListener('abort', () => abort.abort(), { once: true });
        report = (p) => reportProgress(progress, p, last);
        return settled;
      },
    );
  try {
    const result = await resumeApply(client, record, {
      journalFolder: deps.storage,
      ...(folder ? { snapshotFolder: folder } : {}),
      signal: abort.signal,
      onProgress: (p) => report?.(p),
      confirm: async (remaining) => {
        const yes = await confirmResume(ui, account, remaining);
        if (yes) startProgress();
        return yes;
      },
    });
    settle();
    await finish(ui, deps, undefined, account, result);
  } finally {
    settle();
  }
}

/** Writes and opens the report, remembers it for Retry Failed, and says what happened. */
async function finish(
  ui: Ui,
  deps: ApplyDeps,
  plan: Plan | undefined,
  account: AccountRef,
  result: ApplyResult,
): Promise<void> {
  deps.reload(account);
  const reports = await privateFolder(reportsFolder(deps.storage));
  // The id comes from a journal, a file that can be edited: the name may not leave the reports folder.
  const file = await newReportFile(reports, result.applyId);
  await writeReport(file, result.rows);
  const report = vscode.Uri.file(file);
  deps.store.setLastApply(plan ? { plan, account, rows: result.rows, report } : undefined);
  await vscode.window.showTextDocument(report, { preview: false });
  const n = reportCounts(result.rows);
  const parts = [
    vscode.l10n.t('Done: {0}.', count(n.done)),
    n.failed ? vscode.l10n.t('Failed: {0}.', count(n.failed)) : '',
    n.skipped ? vscode.l10n.t('Skipped: {0}.', count(n.skipped)) : '',
    n['not-started'] ? vscode.l10n.t('Not started: {0}.', count(n['not-started'])) : '',
    result.cancelled
      ? vscode.l10n.t('The apply was cancelled: members already sent were finished, the rest left untouched.')
      : '',
  ].filter((p) => p !== '');
  const message = vscode.l10n.t('Applied to {0}. {1}', plain(account.label), parts.join(' '));
  const retryable = plan !== undefined && (n.failed > 0 || n['not-started'] > 0);
  const undoable = plan?.origin !== 'undo' && undoableRows(plan, result.rows);
  // Not awaited: a notification's promise settles only when it closes, and the command is over already.
  void ui
    .choose({
      id: 'plan.apply.done',
      severity: n.failed ? 'warning' : 'info',
      modal: false,
      message,
      actions: [
        ...(retryable ? [{ id: 'retry' as const, label: vscode.l10n.t('Retry Failed') }] : []),
        ...(undoable ? [{ id: 'undo' as const, label: vscode.l10n.t('Undo') }] : []),
      ],
    })
    .then((choice) =>
      choice === 'retry' ? retryLast(ui, deps) : choice === 'undo' ? deps.undo(ui, result.applyId) : undefined,
    )
    .catch((error: unknown) => ui.notify('error', errorMessage(error)));
}

/** Deleting users for good is confirmed by typing how many. */
async function typedCount(ui: Ui, permanent: number): Promise<boolean> {
  if (permanent === 0) return true;
  const words = typeCountWords(permanent);
  const typed = await ui.input({
    id: 'plan.apply.typeCount',
    title: vscode.l10n.t('Delete users for good'),
    prompt: words.prompt,
    validate: (v) => (v.trim() === String(permanent) ? undefined : words.mistyped),
  });
  return typed?.trim() === String(permanent);
}

/** Retry Failed: the last apply's failed and never-started changes, as a plan of their own, applied after the confirmation. */
export async function retryLast(ui: Ui, deps: ApplyDeps): Promise<void> {
  const last = deps.store.lastApply;
  if (!last) {
    ui.notify('info', vscode.l10n.t('The last apply left nothing to retry.'));
    return;
  }
  const retry = deps.store.show(retryFailed(last.plan, last.rows), last.account, undefined);
  await applyShown(ui, deps, retry);
}
