/**
 * One open review in this window: its rows and decisions, each decision kept on disk as it is made (in order, one
 * write at a time), and the events its page follows. Who decides is the portal's signed-in user at that moment.
 */
import * as vscode from 'vscode';
import type { AccountRef } from '../../shared/refs';
import type { Review, ReviewHead } from './core/model';
import type { Decision, DecisionInput, ReviewFilter } from './core/review.protocol';
import type { ReviewFiles } from './core/reviewFiles';

export interface DecidedEvent {
  readonly keys: readonly string[];
  readonly decision: Decision | null;
}

export class ReviewSession implements vscode.Disposable {
  private writes: Promise<void> = Promise.resolve();
  private failure: unknown;
  private readonly decided = new vscode.EventEmitter<DecidedEvent>();
  private readonly headChanged = new vscode.EventEmitter<void>();
  readonly onDidDecide = this.decided.event;
  /** The review finished, was applied, or its notes changed. */
  readonly onDidChangeHead = this.headChanged.event;
  /** Plain sentences the page shows above the rows (what was not offered, a digest that no longer matches). */
  notes: string[] = [];

  constructor(
    readonly review: Review,
    readonly files: ReviewFiles,
    readonly account: AccountRef,
    private readonly reviewer: () => string,
  ) {}

  get id(): string {
    return this.review.head.id;
  }

  /** Decides for the rows named (those the decision fits); answers how many, once they are on disk. */
  decide(keys: readonly string[], input: DecisionInput): Promise<number> {
    return this.keep(this.review.decide(keys, input, this.reviewer(), Date.now()));
  }

  /** Decides for every row the filter shows that the decision fits. */
  decideShown(filter: ReviewFilter, input: DecisionInput): Promise<number> {
    return this.keep(this.review.decideShown(filter, input, this.reviewer(), Date.now()));
  }

  private async keep(batch: { keys: readonly string[]; decision: Decision | null }): Promise<number> {
    if (batch.keys.length === 0) return 0;
    this.queue(() => this.files.append(this.review, batch));
    this.decided.fire(batch);
    await this.saved();
    return batch.keys.length;
  }

  /** Changes the head (finished, planned, applied, evidence digest) and writes the whole review. */
  async update(change: Partial<ReviewHead>): Promise<void> {
    this.review.head = { ...this.review.head, ...change };
    this.queue(() => this.files.save(this.review));
    await this.saved();
    this.headChanged.fire();
  }

  setNotes(notes: readonly string[]): void {
    this.notes = [...notes];
    this.headChanged.fire();
  }

  /** Waits until every decision so far is on disk; throws the first write that failed. */
  async saved(): Promise<void> {
    await this.writes;
    if (this.failure !== undefined) throw this.failure;
  }

  private queue(write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  dispose(): void {
    this.decided.dispose();
    this.headChanged.dispose();
  }
}
