/**
 * The access review's webview panel, host side. It follows the forms' rules (forms/html.ts: nonce CSP, our bundle
 * only, no inline handlers; every message from the page checked before use; server text sent as data and set as text
 * by the page). Rows go to the page in batches; a decision is the host's to make and keep: the page only asks.
 */
import * as vscode from 'vscode';
import { pagePanel } from '../../forms/html';
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

export class ReviewPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private readonly posted = new vscode.EventEmitter<{ type: string; [key: string]: unknown }>();
  /** Every message posted to the page (tests follow it). */
  readonly onDidPost = this.posted.event;
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;
  private disposed = false;
  /** The page's script ran and asked for the rows (a hidden webview loads nothing until it is shown). */
  pageReady = false;
  private readonly disposables: vscode.Disposable[] = [];

  /** `restored`: the panel a reload of the window handed back (the serializer's), else a new one is opened. */
  constructor(
    private readonly env: ReviewPanelEnv,
    readonly session: ReviewSession,
    restored?: vscode.WebviewPanel,
  ) {
    const title = vscode.l10n.t('Access Review: {0}', session.account.label);
    this.panel = pagePanel(REVIEW_VIEW_TYPE, REVIEW_PAGE, title, env.extensionUri, restored);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.handleMessage(m)),
      this.panel.onDidDispose(() => this.dispose()),
      session.onDidDecide((e) => this.post({ type: 'decided', changes: e.keys.map((k) => [k, e.decision]) })),
      session.onDidChangeHead(() => this.post({ type: 'meta', meta: this.meta() })),
    );
  }

  get isDisposed(): boolean {
    return this.disposed;
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

  /** Every message from the page enters here; one that does not match the protocol is dropped and logged. */
  async handleMessage(raw: unknown): Promise<void> {
    if (this.disposed) return;
    const checked = checkReviewMessage(raw, '');
    if (!checked.ok) {
      this.env.log.warn(`[review] dropped a message: ${checked.error}`);
      return;
    }
    const m: ReviewMessage = checked.value;
    try {
      await this.handle(m);
    } catch (error) {
      if (!isCancellation(error)) this.env.ui().notify('error', errorMessage(error));
    }
  }

  private async handle(m: ReviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.pageReady = true;
        this.sendAll();
        return;
      case 'close':
        this.panel.dispose();
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

  private post(message: { type: string; [key: string]: unknown }): void {
    if (this.disposed) return;
    this.posted.fire(message);
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.closed.fire();
    this.closed.dispose();
    this.posted.dispose();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}
