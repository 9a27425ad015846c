/**
 * The access matrices of the organisations opened in this window: each loaded from its journal on first use, with at
 * most one read running at a time, and events the panels follow (rows, removals, progress). The read itself is
 * matrixRead.ts; this adds the question before a long read and the progress words.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../../auth/portalRegistry';
import { setting } from '../../../../auth/settings';
import { count } from '../../../../shared/format';
import type { AccountRef } from '../../../../shared/refs';
import type { Ui } from '../../../../ui/ui';
import type { AccessMatrix } from './accessMatrix';
import { AccessStoreFile, storeFilePath } from './accessStoreFile';
import { readMatrix, type MatrixReadResult, type ReadEstimate } from './matrixRead';
import { readMemberGroups } from './memberGroups';
import type { MemberGroups } from '../../../../shared/activityScan';
import type { MemberRow } from '../../../../shared/members';
import type { WireRow } from '../../../../shared/accessRow';
import { durationWords, type MatrixProgress, type ReadState } from '../matrix.protocol';
import { readOutsiders, readSignIns } from '../outsiders/outsidersRead';

const HOUR_MS = 3_600_000;

export class MatrixSession implements vscode.Disposable {
  readonly matrix: AccessMatrix;
  private readonly journal: AccessStoreFile;
  private running: { controller: AbortController; done: Promise<MatrixReadResult | undefined> } | undefined;
  private state: ReadState = 'idle';
  private eta: number | undefined;
  private remaining = 0;
  private failed = 0;
  private total: number | undefined;
  private note = '';
  private readonly rowsEmitter = new vscode.EventEmitter<WireRow>();
  private readonly removedEmitter = new vscode.EventEmitter<readonly number[]>();
  private readonly progressEmitter = new vscode.EventEmitter<MatrixProgress>();
  /** A row was listed or read. */
  readonly onRow = this.rowsEmitter.event;
  readonly onRemoved = this.removedEmitter.event;
  readonly onProgress = this.progressEmitter.event;
  private readonly namesEmitter = new vscode.EventEmitter<void>();
  /** The groups' friendly names were read. */
  readonly onNames = this.namesEmitter.event;
  private readonly outsidersEmitter = new vscode.EventEmitter<void>();
  /** The guests, invitations or sign-ins were read. */
  readonly onOutsiders = this.outsidersEmitter.event;
  private outsidersRead: Promise<void> | undefined;
  private readonly readEmitter = new vscode.EventEmitter<AccountRef>();
  /** A read learnt members' groups from the portal: counts shown elsewhere (a group's members) may be out of date. */
  readonly onDidRead = this.readEmitter.event;

  constructor(
    readonly account: AccountRef,
    folder: string,
    private readonly registry: PortalRegistry,
  ) {
    this.journal = new AccessStoreFile(storeFilePath(folder, account.portalId, account.accountId));
    this.matrix = this.journal.load();
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  progress(): MatrixProgress {
    return {
      state: this.state,
      read: this.matrix.readCount(),
      total: this.total ?? (this.matrix.size || undefined),
      remaining: this.remaining,
      etaMs: this.eta,
      oldestReadAt: this.matrix.oldestRead(),
      failed: this.failed,
      message: this.note,
    };
  }

  /**
   * Reads what is missing or stale; a second call while a read runs joins it. Before a read that would take longer
   * than a minute the user is told how long and why, and may decline.
   */
  read(ui: () => Ui, options: { limit?: number } = {}): Promise<MatrixReadResult | undefined> {
    if (this.running) return this.running.done;
    const controller = new AbortController();
    const client = this.registry.client(this.account.portalId);
    this.state = 'listing';
    this.failed = 0;
    this.note = '';
    this.fire();
    const done = readMatrix(client, this.account.accountId, this.matrix, this.journal, {
      signal: controller.signal,
      maxAgeMs: setting('accessMatrix.maxAgeHours') * HOUR_MS,
      concurrency: setting('maxConcurrentRequests'),
      limit: options.limit,
      confirm: (e) => this.confirm(ui(), e),
      onRow: (row) => this.rowsEmitter.fire(row),
      onRemoved: (ids) => this.removedEmitter.fire(ids),
      onProgress: (p) => {
        this.state = 'reading';
        this.eta = p.etaMs;
        this.remaining = p.remaining;
        this.failed = p.failed;
        this.total = p.total;
        this.fire();
      },
    })
      .then(
        async (result) => {
          this.state = result.outcome === 'done' ? 'done' : result.outcome === 'cancelled' ? 'cancelled' : 'idle';
          this.note =
            result.failed > 0
              ? vscode.l10n.t('{0} members could not be read; Refresh tries them again.', count(result.failed))
              : '';
          if (result.outcome === 'done' && (result.pages > 0 || this.matrix.namesAt === 0)) await this.readNames();
          if (result.outcome === 'done') await this.readOutsiders(controller.signal);
          if (result.outcome === 'done') await this.journal.compact(this.matrix).catch(() => undefined);
          if (result.reads > 0) this.readEmitter.fire(this.account);
          return result;
        },
        (error: unknown) => {
          this.state = 'failed';
          this.note = error instanceof Error ? error.message : String(error);
          throw error;
        },
      )
      .finally(() => {
        this.running = undefined;
        this.eta = undefined;
        this.remaining = 0;
        this.fire();
      });
    this.running = { controller, done };
    return done;
  }

  /**
   * The groups' friendly names, with the member list (one request for every group): the matrix, its filter and its
   * CSV name groups as people know them. Without them the groups' own names are shown, so a failure is no error.
   */
  private async readNames(): Promise<void> {
    try {
      const groups = await this.registry.client(this.account.portalId).v2.groups.list(this.account.accountId);
      const names = Object.fromEntries(groups.map((g) => [g.name, g.friendlyName]));
      const at = Date.now();
      this.matrix.setNames(names, at);
      this.journal.names(names, at);
      this.namesEmitter.fire();
    } catch {
      // Shown by their own names until the next read.
    }
  }

  /**
   * The guests, pending invitations and sign-ins, when not read within the maximum age: after the members, within
   * the same budget, kept in the store like member reads. A refusal is kept as the answer (said once on the page);
   * any other failure leaves what was kept and says so in the note.
   */
  readOutsiders(signal: AbortSignal): Promise<void> {
    this.outsidersRead ??= this.readOutsidersNow(signal).finally(() => (this.outsidersRead = undefined));
    return this.outsidersRead;
  }

  private async readOutsidersNow(signal: AbortSignal): Promise<void> {
    const client = this.registry.client(this.account.portalId);
    const cutoff = Date.now() - setting('accessMatrix.maxAgeHours') * HOUR_MS;
    const m = this.matrix;
    try {
      if ((m.outsiders?.at ?? 0) < cutoff) {
        m.outsiders = await readOutsiders(client, this.account.accountId, signal);
        this.journal.outsiders(m.outsiders);
        this.outsidersEmitter.fire();
      }
      if ((m.signIns?.at ?? 0) < cutoff) {
        m.signIns = await readSignIns(client, this.account.accountId, signal);
        this.journal.signIns(m.signIns);
        this.outsidersEmitter.fire();
      }
    } catch (error) {
      if (signal.aborted) return;
      this.note = vscode.l10n.t(
        'Guests, invitations and sign-ins could not be read: {0}',
        error instanceof Error ? error.message : String(error),
      );
    }
  }

  /**
   * These members' groups, from this store when read within the maximum age, else read now (and kept here): what a
   * Members view filter scoped to a group asks for the rows that met its other conditions.
   */
  memberGroups(rows: readonly MemberRow[], signal: AbortSignal | undefined): Promise<Map<string, MemberGroups>> {
    const client = this.registry.client(this.account.portalId);
    return readMemberGroups(client, this.account.accountId, { matrix: this.matrix, journal: this.journal }, rows, {
      signal,
      maxAgeMs: setting('accessMatrix.maxAgeHours') * HOUR_MS,
      concurrency: setting('maxConcurrentRequests'),
      onRow: (row) => this.rowsEmitter.fire(row),
    });
  }

  /** Members whose groups a plan will change: shown as not read, and read again on the next open or refresh. */
  invalidate(usernames: readonly string[]): void {
    const known = usernames.filter((u) => this.matrix.row(u));
    if (known.length === 0) return;
    this.journal.stale(known);
    for (const u of known) {
      const row = this.matrix.markStale(u);
      if (row) this.rowsEmitter.fire(row);
    }
    this.fire();
  }

  /** Stops the read; what was read is kept. */
  cancel(): void {
    this.running?.controller.abort();
  }

  /** Stops the read and waits until it has ended. */
  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.controller.abort();
    await running.done.catch(() => undefined);
  }

  private async confirm(ui: Ui, e: ReadEstimate): Promise<boolean> {
    const minutes = Math.round(e.windowMs / 60_000);
    return ui.confirm({
      id: 'access.read.confirm',
      message: vscode.l10n.t(
        'Reading the access of {0} members of {1} takes about {2}.',
        count(e.reads),
        this.account.label,
        durationWords(e.etaMs),
      ),
      detail: vscode.l10n.t(
        'The portal tells a member\u2019s groups only one member at a time, and allows {0} requests every {1} minutes, so the read is spread over that time. The matrix fills as members are read; you can cancel at any point, and what was read is kept for the next time.',
        count(e.limit),
        minutes,
      ),
      action: vscode.l10n.t('Read'),
    });
  }

  private fire(): void {
    this.progressEmitter.fire(this.progress());
  }

  dispose(): void {
    this.running?.controller.abort();
    this.rowsEmitter.dispose();
    this.removedEmitter.dispose();
    this.progressEmitter.dispose();
    this.namesEmitter.dispose();
    this.outsidersEmitter.dispose();
    this.readEmitter.dispose();
  }
}

export class MatrixSessions implements vscode.Disposable {
  private readonly sessions = new Map<string, MatrixSession>();
  private readonly readEmitter = new vscode.EventEmitter<AccountRef>();
  /** A read of any organisation learnt members' groups from the portal (see MatrixSession.onDidRead). */
  readonly onDidRead = this.readEmitter.event;

  constructor(
    private readonly folder: string,
    private readonly registry: PortalRegistry,
  ) {}

  get(account: AccountRef): MatrixSession {
    const key = `${account.portalId}\n${account.accountId}`;
    let s = this.sessions.get(key);
    if (!s) {
      s = new MatrixSession(account, path.join(this.folder, 'access'), this.registry);
      // The session's emitter is disposed with it, and its listeners with that.
      s.onDidRead((a) => this.readEmitter.fire(a));
      this.sessions.set(key, s);
    }
    return s;
  }

  /**
   * Stops every read and forgets what is in memory, as a reload of the window would: the next use loads from the
   * journals on disk.
   */
  async forget(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.stop()));
    for (const s of all) s.dispose();
  }

  dispose(): void {
    for (const s of this.sessions.values()) s.dispose();
    this.sessions.clear();
    this.readEmitter.dispose();
  }
}
