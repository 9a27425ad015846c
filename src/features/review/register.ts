/**
 * Access reviews: *Access Review…* on an organisation (or from the palette), its page, Finish Review, and *Show Access
 * Reviews…*. One panel per review; a plan a review put in the Plan view is followed until it is applied, so the
 * evidence can say what was.
 */
import * as vscode from 'vscode';
import { accountFor } from '../../targets/resolve';
import { registerCommand } from '../../ui/commands';
import type { Ui } from '../../ui/ui';
import type { Plan } from '../../engine/members/model';
import { plain } from '../../shared/plainText';
import type { AccessHandle, FeatureDeps, MemberPlans } from '../contracts';
import type { Review } from './core/model';
import { ReviewFiles } from './core/reviewFiles';
import { finishReview, recordApplied, type FinishDeps } from './finish';
import { ReviewPanel, type ReviewPanelEnv } from './reviewPanel';
import { ReviewSession } from './session';
import { pickReview, tamperWords } from './showReviews';
import { notesOf, startReview } from './start';

export interface ReviewFeature {
  readonly files: ReviewFiles;
  /** The panel of a review, while open. */
  panel(reviewId: string): ReviewPanel | undefined;
}

class ReviewPanels implements vscode.Disposable {
  private readonly open = new Map<string, ReviewPanel>();
  /** Sessions whose page closed, until what they decided is on disk: a review opened again reads it from there. */
  private readonly closing = new Set<Promise<void>>();
  /** Plans a finish put in the Plan view, with the review they came from. */
  private readonly planned = new WeakMap<Plan, ReviewSession>();

  constructor(
    private readonly env: Omit<ReviewPanelEnv, 'finish'>,
    private readonly deps: FinishDeps,
  ) {}

  get(id: string): ReviewPanel | undefined {
    const p = this.open.get(id);
    return p && !p.isDisposed ? p : undefined;
  }

  /** The review's panel, opened or brought forward; `notes` replace what its page says above the rows. */
  show(review: Review, account: { portalId: string; accountId: number; label: string }, notes: readonly string[]) {
    const existing = this.get(review.head.id);
    if (existing) {
      existing.session.setNotes(notes);
      existing.reveal();
      return existing;
    }
    const ref = { kind: 'account' as const, ...account };
    const session = new ReviewSession(review, this.deps.files, ref, () => this.reviewer(review));
    session.notes = [...notes];
    const panel = new ReviewPanel({ ...this.env, finish: (ui, s) => this.finish(ui, s) }, session);
    panel.onDidClose(() => {
      if (this.open.get(review.head.id) === panel) this.open.delete(review.head.id);
      const saved = session
        .saved()
        .catch(() => undefined)
        .finally(() => {
          session.dispose();
          this.closing.delete(saved);
        });
      this.closing.add(saved);
    });
    this.open.set(review.head.id, panel);
    return panel;
  }

  /** Waits until every closed page's decisions are on disk. */
  async settled(): Promise<void> {
    await Promise.all([...this.closing]);
  }

  private reviewer(review: Review): string {
    return this.deps.registry.get(review.head.portalId)?.username ?? review.head.reviewer;
  }

  private async finish(ui: Ui, session: ReviewSession): Promise<void> {
    const plan = await finishReview(ui, this.deps, session);
    if (plan) this.planned.set(plan, session);
  }

  /** The Plan view applied a plan: when a review made it, its evidence says so. */
  async applied(e: Parameters<Parameters<MemberPlans['onDidApply']>[0]>[0]): Promise<void> {
    const session = this.planned.get(e.plan);
    if (!session) return;
    this.planned.delete(e.plan);
    await recordApplied(this.deps, session, e);
  }

  dispose(): void {
    for (const p of this.open.values()) p.dispose();
    this.open.clear();
  }
}

export function registerReview(
  context: vscode.ExtensionContext,
  deps: FeatureDeps,
  handles: { readonly access: AccessHandle; readonly plans: MemberPlans },
): ReviewFeature {
  const { registry } = deps.auth;
  const { log, ui } = deps.commands;
  const files = new ReviewFiles(context.globalStorageUri.fsPath);
  const finishDeps: FinishDeps = { registry, plans: handles.plans, files };
  const panels = new ReviewPanels({ extensionUri: context.extensionUri, log, ui }, finishDeps);
  context.subscriptions.push(
    panels,
    handles.plans.onDidApply((e) =>
      panels
        .applied(e)
        .catch((error: unknown) => log.warn(`[review] the applied plan was not recorded: ${String(error)}`)),
    ),
    registerCommand(deps.commands, 'portal.review.start', async (run) => {
      const account = await accountFor(run, registry);
      await panels.settled();
      const started = await startReview(run.ui, { registry, access: handles.access, files }, account);
      if (!started) return undefined;
      if (started.resumed)
        run.ui.status(vscode.l10n.t('Resumed the unfinished access review of {0}.', plain(account.label)));
      return panels.show(started.review, account, started.notes);
    }),
    registerCommand(deps.commands, 'portal.review.show', async (run) => {
      await panels.settled();
      const chosen = await pickReview(run.ui, files);
      if (!chosen) return undefined;
      const review = await files.load(chosen.file);
      if (!review) return undefined;
      const tamper = await tamperWords(files, review.head);
      if (tamper) run.ui.notify('warning', tamper);
      const { portalId, accountId, accountLabel } = review.head;
      return panels.show(review, { portalId, accountId, label: accountLabel }, [
        ...(tamper ? [tamper] : []),
        ...notesOf(review),
      ]);
    }),
  );
  return { files, panel: (id) => panels.get(id) };
}
