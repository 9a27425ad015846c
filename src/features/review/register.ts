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
import { reviewRestoreOf } from './core/review.protocol';
import { awaitsApply, catchUpApplied, finishReview, recordApplied, type FinishDeps } from './finish';
import { REVIEW_VIEW_TYPE, ReviewPanel, type ReviewPanelEnv } from './reviewPanel';
import { ReviewSession } from './session';
import { pickReview, tamperWords } from './showReviews';
import { notesOf, startReview } from './start';

export interface ReviewFeature {
  readonly files: ReviewFiles;
  /** The panel of a review, while open. */
  panel(reviewId: string): ReviewPanel | undefined;
  /** What the serializer does with a review page a reload handed back (tests call it with a fresh panel). */
  revive(restored: vscode.WebviewPanel, state: unknown): Promise<ReviewPanel | undefined>;
  /** Resolves once a review's apply, read back from the journal when it was opened, is recorded. */
  caughtUp(reviewId: string): Promise<void>;
}

class ReviewPanels implements vscode.Disposable {
  private readonly open = new Map<string, ReviewPanel>();
  /** Sessions whose page closed, until what they decided is on disk: a review opened again reads it from there. */
  private readonly closing = new Set<Promise<void>>();
  /** Plans a finish put in the Plan view, with the review they came from. */
  private readonly planned = new WeakMap<Plan, ReviewSession>();
  /** Reviews whose plan's apply is being read back from the engine's journal, by id. */
  private readonly catchingUp = new Map<string, Promise<void>>();

  constructor(
    private readonly env: Omit<ReviewPanelEnv, 'finish'>,
    private readonly deps: FinishDeps,
  ) {}

  get(id: string): ReviewPanel | undefined {
    const p = this.open.get(id);
    return p && !p.isDisposed ? p : undefined;
  }

  /**
   * The review's panel, opened or brought forward (`restored`: the panel a reload handed back); `notes` replace what
   * its page says above the rows. A finished review whose plan was applied unseen records that apply now.
   */
  show(
    review: Review,
    account: { portalId: string; accountId: number; label: string },
    notes: readonly string[],
    restored?: vscode.WebviewPanel,
  ) {
    const existing = this.get(review.head.id);
    if (existing) {
      existing.session.setNotes(notes);
      existing.reveal();
      return existing;
    }
    const ref = { kind: 'account' as const, ...account };
    const session = new ReviewSession(review, this.deps.files, ref, () => this.reviewer(review));
    session.notes = [...notes];
    const panel = new ReviewPanel({ ...this.env, finish: (ui, s) => this.finish(ui, s) }, session, restored);
    this.catchUp(session);
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

  /** Records an apply of the review's plan that the window did not see; a failure leaves it for the next open. */
  private catchUp(session: ReviewSession): void {
    if (!awaitsApply(session)) return;
    const done = catchUpApplied(this.deps, session)
      .then(() => undefined)
      .catch((error: unknown) => this.env.log.warn(`[review] an earlier apply was not read back: ${String(error)}`));
    this.catchingUp.set(session.id, done);
  }

  /** Waits until a review's apply, when one was read back, is recorded (tests follow it). */
  async caughtUp(id: string): Promise<void> {
    await this.catchingUp.get(id);
  }

  /**
   * A review page a reload of the window handed back: the review it kept the id of, read from disk, with what it
   * decided so far; a state that is not ours, or a review no longer there, closes the page.
   */
  async revive(restored: vscode.WebviewPanel, state: unknown): Promise<ReviewPanel | undefined> {
    const kept = reviewRestoreOf(state);
    const found = kept ? (await this.deps.files.list(kept.portalId)).find((r) => r.head.id === kept.id) : undefined;
    const review = found ? await this.deps.files.load(found.file) : undefined;
    if (!review) {
      this.env.log.warn('[review] a review page came back without a review it can be shown from; it is closed');
      restored.dispose();
      return undefined;
    }
    const tamper = review.finished ? await tamperWords(this.deps.files, review.head) : undefined;
    const { portalId, accountId, accountLabel } = review.head;
    return this.show(
      review,
      { portalId, accountId, label: accountLabel },
      [...(tamper ? [tamper] : []), ...notesOf(review)],
      restored,
    );
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
    // The plan object a finish showed; after a reload, the plan shown again is another object: an open review whose
    // plan it is (same organisation and title) reads its apply back from the journal.
    const shown = this.planned.get(e.plan);
    this.planned.delete(e.plan);
    const session = shown ?? this.awaitingTitle(e);
    if (!session) return;
    await recordApplied(this.deps, session, e);
  }

  private awaitingTitle(e: Parameters<Parameters<MemberPlans['onDidApply']>[0]>[0]): ReviewSession | undefined {
    if (e.plan.title === undefined) return undefined;
    for (const p of this.open.values()) {
      const s = p.session;
      const h = s.review.head;
      if (!p.isDisposed && awaitsApply(s) && h.planTitle === e.plan.title && h.portalId === e.account.portalId)
        if (h.accountId === e.account.accountId) return s;
    }
    return undefined;
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
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(REVIEW_VIEW_TYPE, {
      deserializeWebviewPanel: async (restored, state) => {
        await panels.revive(restored, state);
      },
    }),
  );
  return {
    files,
    panel: (id) => panels.get(id),
    revive: (restored, state) => panels.revive(restored, state),
    caughtUp: (id) => panels.caughtUp(id),
  };
}
