/**
 * The access matrix's webview panel, host side. It follows the forms' rules (forms/html.ts: nonce CSP, our bundle
 * only; every message from the page checked before use) but is not a form: nothing is saved. Rows go to the page as
 * compact arrays in batches (at most every BATCH_MS, at most BATCH_ROWS a message), so a 20,000-row read does not
 * flood it; the page keeps them and draws only what is on screen.
 */
import * as vscode from 'vscode';
import { PagePanelHost } from '../../../forms/pagePanelHost';
import { errorMessage, isCancellation } from '../../../shared/errors';
import { count, untilRelativeTimeChanges } from '../../../shared/format';
import { accountPermissionWords } from '../../../shared/permissions';
import type { Ui } from '../../../ui/ui';
import { exportFileName } from './exportName';
import { writeMatrixCsv } from './matrixCsv';
import type { WireRow } from '../../../shared/accessRow';
import type { MatrixSession } from './store/matrixSessions';
import { checkPageMessage, viewWords, type MatrixRestore, type MatrixView, type PageMessage } from './matrix.protocol';
import { outsidersMessage } from './outsiders/outsiders';
import type { OthersView } from './outsiders/outsiders.protocol';

const BATCH_MS = 100;
const BATCH_ROWS = 2000;

export interface MatrixPanelEnv {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  readonly ui: () => Ui;
}

/** The page's kind in <body data-form>: webview.ts starts the matrix page for it. */
export const MATRIX_PAGE = 'access';
/** The panel's view type, as package.json's activation event and the serializer name it. */
export const MATRIX_VIEW_TYPE = 'portal.accessMatrix';

export class MatrixPanel extends PagePanelHost<PageMessage> {
  private view: MatrixView;
  /** The guests', invitations' and sign-in filters the page shows now. */
  private others: OthersView = {};
  private ready = false;
  private sentColumns = 0;
  private sentTags = 0;
  private readonly pending = new Map<number, WireRow>();
  private removed: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Sends the progress again when the read's age, in words, changes. */
  private ageTimer: NodeJS.Timeout | undefined;

  /** `restored`: the panel VS Code brought back after a reload (see matrixSerializer.ts); else a new one. */
  constructor(
    private readonly env: MatrixPanelEnv,
    readonly session: MatrixSession,
    view: MatrixView,
    restored?: vscode.WebviewPanel,
  ) {
    super({
      viewType: MATRIX_VIEW_TYPE,
      page: MATRIX_PAGE,
      title: vscode.l10n.t('Access: {0}', session.account.label),
      extensionUri: env.extensionUri,
      restored,
      check: checkPageMessage,
      log: env.log,
      logName: 'access',
    });
    this.view = view;
    this.disposables.push(
      session.onRow((row) => this.queue(row)),
      session.onRemoved((ids) => {
        for (const id of ids) this.pending.delete(id);
        this.removed.push(...ids);
        this.schedule();
      }),
      session.onProgress(() => this.schedule()),
      session.onOutsiders(() => this.sendOutsiders()),
      // The groups' friendly names arrived: every column is sent again with them.
      session.onNames(() => {
        this.sentColumns = 0;
        this.schedule();
      }),
    );
  }

  /** The filter the page shows now (as it last told the host). */
  get currentView(): MatrixView {
    return this.view;
  }

  /** What the page keeps for a reload (ids and the filter; never a row): the serializer reopens the panel from it. */
  restoreState(): MatrixRestore {
    const { portalId, accountId, label } = this.session.account;
    const { columns, tags } = this.session.matrix;
    const v = this.view;
    return {
      portalId,
      accountId,
      label,
      view: v,
      ...(v.group !== undefined ? { groupName: columns[v.group] } : {}),
      ...(v.tag !== undefined ? { tagName: tags[v.tag] } : {}),
    };
  }

  /** Shows another filter (a group's list from the Explorer). */
  show(view: MatrixView): void {
    this.view = view;
    this.post({ type: 'setView', view });
    this.panel.reveal();
  }

  protected async handle(m: PageMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.sendAll();
        return;
      case 'cancel':
        this.session.cancel();
        return;
      case 'refresh':
        await this.session.read(this.env.ui).catch((e: unknown) => this.failed(e));
        return;
      case 'view':
        this.view = m.view;
        return;
      case 'others':
        this.others = m.others;
        return;
      case 'export':
        this.view = m.view;
        this.others = m.others ?? this.others;
        await this.exportCsv(m.view, this.others).catch((e: unknown) => this.failed(e));
        return;
    }
  }

  /** Writes the rows of `view` as CSV to a file the user chooses; answers the rows written. */
  async exportCsv(view: MatrixView, others?: OthersView): Promise<number | undefined> {
    const ui = this.env.ui();
    const matrix = this.session.matrix;
    const group = view.group !== undefined ? matrix.label(view.group) : undefined;
    const file = await ui.saveFile({
      id: 'access.export.file',
      title:
        group !== undefined
          ? vscode.l10n.t('Export the members of group {0}', group)
          : vscode.l10n.t('Export the access matrix of {0}', this.session.account.label),
      defaultName: exportFileName(group !== undefined ? 'group-members' : 'access', view, {
        organisation: this.session.account.label,
        group,
        tags: matrix.tags,
        now: Date.now(),
      }),
      filters: { [vscode.l10n.t('CSV files')]: ['csv'] },
    });
    if (!file) return undefined;
    const rows = await writeMatrixCsv(file, matrix, view, {
      headers: {
        username: vscode.l10n.t('Username'),
        name: vscode.l10n.t('Name'),
        email: vscode.l10n.t('E-mail'),
        tags: vscode.l10n.t('Tags'),
        lastActive: vscode.l10n.t('Last active'),
        state: vscode.l10n.t('State'),
        permission: vscode.l10n.t('Organisation permission'),
        level: vscode.l10n.t('Group permission'),
        never: vscode.l10n.t('never'),
        signIn: vscode.l10n.t('Last sign-in'),
      },
      about: this.about(view),
      others,
    });
    ui.notify('info', vscode.l10n.t('Exported {0} members to {1}.', count(rows), file));
    return rows;
  }

  /** The CSV's first line: whose access, which filters made it, and when the portal was read. */
  private about(view: MatrixView): string {
    const matrix = this.session.matrix;
    const columns = matrix.columns.map((_, i) => matrix.label(i));
    const filters =
      viewWords(view, { columns, tags: matrix.tags }, accountPermissionWords) || vscode.l10n.t('no filter');
    const oldest = matrix.oldestRead();
    const read = oldest > 0 ? `${new Date(oldest).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '-';
    return vscode.l10n.t(
      'Access of {0}; filters: {1}; the portal read since {2}',
      this.session.account.label,
      filters,
      read,
    );
  }

  private failed(error: unknown): void {
    if (isCancellation(error)) return;
    this.env.ui().notify('error', errorMessage(error));
  }

  private sendAll(): void {
    this.ready = true;
    const matrix = this.session.matrix;
    this.sentColumns = 0;
    this.sentTags = 0;
    this.pending.clear();
    this.removed = [];
    this.post({
      type: 'init',
      title: this.session.account.label,
      l10n: vscode.l10n.bundle ?? null,
      view: this.view,
      restore: this.restoreState(),
    });
    this.sendNames();
    let batch: WireRow[] = [];
    for (const row of matrix.all()) {
      batch.push(row);
      if (batch.length >= BATCH_ROWS) {
        this.post({ type: 'rows', rows: batch });
        batch = [];
      }
    }
    if (batch.length > 0) this.post({ type: 'rows', rows: batch });
    this.sendOutsiders();
    this.postProgress();
  }

  /** The guests, pending invitations and sign-ins as the store holds them (outsiders/). */
  private sendOutsiders(): void {
    if (!this.ready) return;
    const { outsiders, signIns } = this.session.matrix;
    this.post({ type: 'outsiders', ...outsidersMessage(outsiders, signIns) });
  }

  private sendNames(): void {
    const matrix = this.session.matrix;
    if (matrix.columns.length > this.sentColumns) {
      const from = this.sentColumns;
      const labels = matrix.columns.slice(from).map((_, i) => matrix.label(from + i));
      this.post({ type: 'columns', from, names: matrix.columns.slice(from), labels });
      this.sentColumns = matrix.columns.length;
    }
    if (matrix.tags.length > this.sentTags) {
      this.post({ type: 'tags', from: this.sentTags, names: matrix.tags.slice(this.sentTags) });
      this.sentTags = matrix.tags.length;
    }
  }

  private queue(row: WireRow): void {
    this.pending.set(row[0], row);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.disposed || !this.ready) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, BATCH_MS);
  }

  private flush(): void {
    if (this.disposed) return;
    this.sendNames();
    if (this.removed.length > 0) {
      this.post({ type: 'removed', ids: this.removed });
      this.removed = [];
    }
    const rows = [...this.pending.values()];
    this.pending.clear();
    for (let i = 0; i < rows.length; i += BATCH_ROWS) this.post({ type: 'rows', rows: rows.slice(i, i + BATCH_ROWS) });
    this.postProgress();
  }

  /**
   * The read's progress as of `now`, with `now`: the page tells the read's age from it. When nothing runs, it is sent
   * again when the age's words would change ("oldest read 2 seconds ago" keeps counting), and not before.
   */
  postProgress(now = Date.now()): void {
    const progress = this.session.progress();
    this.post({ type: 'progress', progress, now });
    if (this.ageTimer) clearTimeout(this.ageTimer);
    this.ageTimer = undefined;
    const running = progress.state === 'listing' || progress.state === 'reading';
    if (this.disposed || running || progress.oldestReadAt <= 0) return;
    this.ageTimer = setTimeout(() => this.postProgress(), untilRelativeTimeChanges(now - progress.oldestReadAt));
  }

  protected override stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.ageTimer) clearTimeout(this.ageTimer);
  }
}
