/**
 * The access review's webview panel, host side. It follows the forms' rules (forms/html.ts: nonce CSP, our bundle
 * only, no inline handlers; every message from the page checked before use; server text sent as data and set as text
 * by the page). Rows go to the page in batches; a decision is the host's to make and keep: the page only asks.
 */
import * as vscode from 'vscode';
import { PagePanelHost } from '../../forms/pagePanelHost';
import { errorMessage, isCancellation } from '../../shared/errors';
import type { Ui } from '../../ui/ui';
import { checkReviewMessage, type ReviewMessage, type ReviewMeta } from './core/review.protocol';
import type { ReviewSession } from './session';

const BATCH_ROWS = 5000;

/** The page's kind in <body data-form>: webview.ts starts the review page for it. */
export const REVIEW_PAGE = 'review';
export const REVIEW_VIEW_TYPE = 'portal.accessReview';

export interface ReviewPanelEnv {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  readonly ui: () => Ui;
  /** Finish Review, from the page's button. */
  readonly finish: (ui: Ui, session: ReviewSession) => Promise<unknown>;
}

export class ReviewPanel extends PagePanelHost<ReviewMessage> {
  /** The page's script ran and asked for the rows (a hidden webview loads nothing until it is shown). */
  pageReady = false;

  /** `restored`: the panel a reload of the window handed back (the serializer's), else a new one is opened. */
  constructor(
    private readonly env: ReviewPanelEnv,
    readonly session: ReviewSession,
    restored?: vscode.WebviewPanel,
  ) {
    super({
      viewType: REVIEW_VIEW_TYPE,
      page: REVIEW_PAGE,
      title: vscode.l10n.t('Access Review: {0}', session.account.label),
      extensionUri: env.extensionUri,
      restored,
      check: checkReviewMessage,
      log: env.log,
      logName: 'review',
    });
    this.disposables.push(
      session.onDidDecide((e) => this.post({ type: 'decided', changes: e.keys.map((k) => [k, e.decision]) })),
      session.onDidChangeHead(() => this.post({ type: 'meta', meta: this.meta() })),
    );
  }

  reveal(): void {
    this.panel.reveal();
  }

  meta(): ReviewMeta {
    const h = this.session.review.head;
    return {
      id: h.id,
      portalId: h.portalId,
      title: vscode.l10n.t('Access review: {0}', h.accountLabel),
      portal: h.portalLabel,
      organisation: h.accountLabel,
      scope: h.scope,
      reviewer: h.reviewer,
      startedAt: h.startedAt,
      finishedAt: h.finishedAt,
      readOnly: this.session.review.finished,
      notes: this.session.notes,
      groups: h.groups,
    };
  }

  /** A failure is the person's to see, not the page's. */
  protected async handle(m: ReviewMessage): Promise<void> {
    try {
      await this.act(m);
    } catch (error) {
      if (!isCancellation(error)) this.env.ui().notify('error', errorMessage(error));
    }
  }

  private async act(m: ReviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.pageReady = true;
        this.sendAll();
        return;
      case 'decide':
        await this.session.decide(m.keys, m.decision);
        return;
      case 'decideShown':
        await this.session.decideShown(m.filter, m.decision);
        return;
      case 'finish':
        await this.env.finish(this.env.ui(), this.session);
        return;
    }
  }

  private sendAll(): void {
    const { rows, decisions } = this.session.review;
    this.post({ type: 'init', meta: this.meta(), l10n: vscode.l10n.bundle ?? null });
    for (let i = 0; i < rows.length; i += BATCH_ROWS) this.post({ type: 'rows', rows: rows.slice(i, i + BATCH_ROWS) });
    this.post({ type: 'decided', changes: [...decisions.entries()] });
  }
}
