/**
 * Finish Review: the Remove and Lower decisions become a plan of member changes in the Plan view (applied there, by a
 * person, with its confirmation, journal, report and Undo); the evidence is written (CSV, summary, manifest with its
 * digest); the review is read-only from then on. Once the Plan view applies that plan, the summary says what was
 * applied and where its report is, and the digest is made again over the new summary.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { setting } from '../../auth/settings';
import { allChanges, type Plan } from '../../engine/members/model';
import { count } from '../../shared/format';
import { plain } from '../../shared/plainText';
import type { Ui } from '../../ui/ui';
import type { AppliedPlan, MemberPlans } from '../contracts';
import { planReview } from './core/reviewPlan';
import type { ReviewFiles } from './core/reviewFiles';
import type { ReviewSession } from './session';
import { cancellableProgress } from '../../ui/cancellableProgress';

export interface FinishDeps {
  readonly registry: PortalRegistry;
  readonly plans: MemberPlans;
  readonly files: ReviewFiles;
}

function confirmFinish(ui: Ui, session: ReviewSession): Promise<boolean> {
  const c = session.review.counts();
  const undecided = c.member.undecided + c.guest.undecided + c.invitation.undecided;
  const members = session.review.memberChanges().length;
  return ui.confirm({
    id: 'review.finish.confirm',
    message: vscode.l10n.t('Finish the access review of {0}?', plain(session.account.label)),
    detail: [
      undecided > 0
        ? vscode.l10n.t('{0} rows have no decision: the evidence records them as undecided.', count(undecided))
        : vscode.l10n.t('Every row has a decision.'),
      members > 0
        ? vscode.l10n.t(
            '{0} members to remove or lower become a plan in the Plan view: nothing is sent until you apply it there.',
            count(members),
          )
        : '',
      vscode.l10n.t('Decisions cannot be changed once the review is finished.'),
    ]
      .filter((l) => l !== '')
      .join('\n'),
    action: vscode.l10n.t('Finish Review'),
  });
}

/** The plan of the review's member decisions, read from the portal now; undefined when there are none. */
async function planOf(ui: Ui, deps: FinishDeps, session: ReviewSession): Promise<Plan | undefined> {
  const decided = session.review.memberChanges();
  if (decided.length === 0) return undefined;
  const { account } = session;
  const result = await cancellableProgress(
    ui,
    'review.plan.read',
    vscode.l10n.t('Reading the {0} members decided on…', count(decided.length)),
    (_progress, signal) =>
      planReview(deps.registry.client(account.portalId), account.accountId, decided, session.review.head.scope?.name, {
        title: vscode.l10n.t('Access review of {0}: remove or lower {1} members', account.label, count(decided.length)),
        concurrency: setting('maxConcurrentRequests'),
        signal,
      }),
  );
  if (result.gone.length > 0)
    ui.notify(
      'warning',
      vscode.l10n.t('No longer members, so not in the plan: {0}.', result.gone.map((u) => plain(u)).join(', ')),
    );
  return allChanges(result.plan).length > 0 ? result.plan : undefined;
}

/** Whether the review put a plan in the Plan view whose apply it has not recorded yet. */
export function awaitsApply(session: ReviewSession): boolean {
  const h = session.review.head;
  return h.finishedAt !== undefined && (h.planned ?? 0) > 0 && h.applied === undefined && h.planTitle !== undefined;
}

/**
 * The apply of the review's plan that this window did not see (a reload came between), read back from the engine's
 * journal and recorded as if it had: the evidence then says what was applied, with its report.
 */
export async function catchUpApplied(deps: FinishDeps, session: ReviewSession): Promise<boolean> {
  if (!awaitsApply(session)) return false;
  const h = session.review.head;
  const run = await deps.plans.appliedRun(session.account, h.planTitle ?? '', h.finishedAt ?? 0);
  if (!run || !awaitsApply(session)) return false;
  await recordApplied(deps, session, run);
  return true;
}

/** Finishes the review; answers the plan put in the Plan view (undefined when none). */
export async function finishReview(ui: Ui, deps: FinishDeps, session: ReviewSession): Promise<Plan | undefined> {
  if (session.review.finished) {
    ui.notify('info', vscode.l10n.t('This review is finished already.'));
    return undefined;
  }
  if (!(await confirmFinish(ui, session))) return undefined;
  await session.saved();
  const plan = await planOf(ui, deps, session);
  session.review.head = {
    ...session.review.head,
    finishedAt: Date.now(),
    planned: plan ? allChanges(plan).length : 0,
    planTitle: plan?.title,
  };
  const evidence = await deps.files.writeEvidence(session.review);
  await session.update({ evidenceDigest: evidence.digest });
  if (plan)
    await deps.plans.show(
      plan,
      session.account,
      session.review.memberChanges().map((m) => m.row.identity),
    );
  const c = session.review.counts();
  ui.notify(
    'info',
    [
      vscode.l10n.t(
        'The access review of {0} is finished; its evidence is in {1}.',
        plain(session.account.label),
        evidence.files.folder,
      ),
      plan ? vscode.l10n.t('{0} member changes wait in the Plan view.', count(allChanges(plan).length)) : '',
      c.guest.expire + c.invitation.withdraw > 0
        ? vscode.l10n.t(
            '{0} guest shares to expire and {1} invitations to withdraw are to be carried out on the portal.',
            count(c.guest.expire),
            count(c.invitation.withdraw),
          )
        : '',
    ]
      .filter((l) => l !== '')
      .join(' '),
  );
  return plan;
}

/** The Plan view applied a review's plan: the summary says so, and the digest is made again. */
export async function recordApplied(
  deps: FinishDeps,
  session: ReviewSession,
  applied: Pick<AppliedPlan, 'report' | 'done' | 'failed'> & { readonly at?: number },
): Promise<void> {
  session.review.head = {
    ...session.review.head,
    applied: { report: applied.report, at: applied.at ?? Date.now(), done: applied.done, failed: applied.failed },
  };
  const evidence = await deps.files.writeEvidence(session.review);
  await session.update({ evidenceDigest: evidence.digest });
}
