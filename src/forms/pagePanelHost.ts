/**
 * The host side of a page that is not a form (the access matrix, the access review): its panel, the messages it
 * posts (which tests follow), the messages it receives (each checked against the page's protocol before use; one that
 * does not match is dropped and logged) and its end. A page says what it does with a message in `handle`.
 */
import * as vscode from 'vscode';
import { pagePanel } from './html';
import type { Check } from './protocol/validate';

export type PostedMessage = { type: string; [key: string]: unknown };

export interface PagePanelOptions<M> {
  readonly viewType: string;
  /** The page's kind in <body data-form>. */
  readonly page: string;
  readonly title: string;
  readonly extensionUri: vscode.Uri;
  /** The panel a reload of the window handed back (the serializer's); else a new one is opened. */
  readonly restored: vscode.WebviewPanel | undefined;
  readonly check: Check<M>;
  readonly log: vscode.LogOutputChannel;
  /** Names the page in the log's lines: "[access] dropped a message: …". */
  readonly logName: string;
}

export abstract class PagePanelHost<M extends { readonly type: string }> implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private readonly posted = new vscode.EventEmitter<PostedMessage>();
  /** Every message posted to the page (tests follow it). */
  readonly onDidPost = this.posted.event;
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;
  protected disposed = false;
  protected readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly options: PagePanelOptions<M>) {
    const { viewType, page, title, extensionUri, restored } = options;
    this.panel = pagePanel(viewType, page, title, extensionUri, restored);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.handleMessage(m)),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Every message from the page enters here; every page's Close closes its panel. */
  async handleMessage(raw: unknown): Promise<void> {
    if (this.disposed) return;
    const checked = this.options.check(raw, '');
    if (!checked.ok) {
      this.options.log.warn(`[${this.options.logName}] dropped a message: ${checked.error}`);
      return;
    }
    if (checked.value.type === 'close') this.panel.dispose();
    else await this.handle(checked.value);
  }

  /** Any message but 'close'. */
  protected abstract handle(message: M): Promise<void>;

  protected post(message: PostedMessage): void {
    if (this.disposed) return;
    this.posted.fire(message);
    void this.panel.webview.postMessage(message);
  }

  /** What a page stops (its timers) before it tells that it closed. */
  protected stop(): void {}

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stop();
    this.closed.fire();
    this.closed.dispose();
    this.posted.dispose();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}
