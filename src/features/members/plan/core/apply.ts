/**
 * Runs a plan: the changes not left out, one member at a time per worker, ONE request per member where the API
 * allows it (a member's field, tag, enabled, lock, permission and group changes go in one v3 PATCH; name, e-mail
 * and job title, which only v2 can change, add one v2 update), within the client's request budget, cancellable.
 *
 * Before each member's requests the journal gets what is about to be done and the member's previous values; after,
 * the outcome. A removal that deletes a user for good is preceded by a snapshot.
 *
 * As in bulk edits, cancelling stops starting members; a request already sent is never aborted, so the report can
 * say what happened to every member.
 */
import type { Budget, PortalErrorKind, V2Api, V3Api } from '../../../../api/index';
import type { Plan, PlanChange, ReportRow } from './model';

/** What an apply needs of a PortalClient. */
export interface ApplyClient {
  readonly v3: { readonly members: Pick<V3Api['members'], 'create' | 'update' | 'delete' | 'get'> };
  readonly v2: {
    readonly members: Pick<V2Api['members'], 'get' | 'create' | 'update'>;
    readonly groups: Pick<V2Api['groups'], 'list'>;
  };
  readonly budget: Budget;
}

export interface ApplyProgress {
  /** Members finished (done, skipped or failed). */
  readonly done: number;
  readonly total: number;
  readonly failed: number;
  /** Requests sent so far. */
  readonly requests: number;
  /** Estimated time left (ms) from the pace so far; undefined until one member has finished. */
  readonly etaMs: number | undefined;
  readonly username: string;
}

export interface ApplyOptions {
  /** Where the journal goes (the UI passes `context.globalStorageUri.fsPath`). */
  readonly journalFolder: string;
  /** The portal's id, kept in the journal so a resume after a reload finds the client. */
  readonly portalId: string;
  /** Where snapshots of members deleted for good go; required when the plan has such a removal that is not left out. */
  readonly snapshotFolder?: string;
  /** Change ids left out; default `plan.leftOutByDefault`. */
  readonly leftOut?: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ApplyProgress) => void;
  /** Members changed at once; default the client's default concurrency. */
  readonly concurrency?: number;
  /** While the budget is spent, how often to look again. Default 250 ms. */
  readonly budgetPollMs?: number;
}

export interface ApplyResult {
  readonly applyId: string;
  readonly journalFile: string;
  /** One row per member, in plan order. */
  readonly rows: readonly ReportRow[];
  readonly requests: number;
  readonly cancelled: boolean;
  /** A failure every later member would meet too (signed out, refused credentials, rate limit) stopped the run. */
  readonly stoppedBy?: PortalErrorKind;
}

/** What the one confirmation names. */
export interface PlanCounts {
  readonly members: number;
  readonly create: number;
  readonly update: number;
  readonly disable: number;
  readonly remove: number;
  /** Removals that delete a user for good. */
  readonly permanent: number;
  readonly conflictsChosen: number;
}

/** The changes that will run: every change not left out. */
export function chosenChanges(plan: Plan, leftOut: ReadonlySet<string> = new Set(plan.leftOutByDefault)): PlanChange[] {
  void plan;
  void leftOut;
  throw new Error('not yet');
}

/** Counts for the confirmation. */
export function countPlan(plan: Plan, leftOut: ReadonlySet<string> = new Set(plan.leftOutByDefault)): PlanCounts {
  void plan;
  void leftOut;
  throw new Error('not yet');
}

/** Applies the plan minus the left-out changes. Throws only before the first request (journal folder unusable). */
export async function applyPlan(client: ApplyClient, plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  void client;
  void plan;
  void options;
  throw new Error('not yet');
}
