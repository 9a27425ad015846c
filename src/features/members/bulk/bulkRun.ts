/**
 * Bulk member edits: one change applied to many members of an account, one request per member, so each member
 * is either fully changed or untouched.
 *
 * Cancelling stops *starting* members; a request already sent is never aborted, because an aborted PATCH or
 * DELETE may or may not have been applied, and the summary could not say which. For the same reason a member is
 * only started while the client's request budget has room: a request queued inside the client for the budget
 * could not be called back, so cancelling would have to wait for the budget window.
 */
import {
  DEFAULT_MAX_CONCURRENT,
  isPortalError,
  PortalError,
  type Budget,
  type Member,
  type PortalErrorKind,
  type V3Api,
} from '../../../api/index';
import { linkedSignal, pause, runPool } from '../../../node/pool';
import { BulkJournal, bulkWork } from '../plan/core/bulkJournal';
import {
  answerShowsChange,
  checkChange,
  stepFor,
  type BulkChange,
  type BulkMember,
  type SkipReason,
} from './bulkChange';

export type { BulkMember } from './bulkChange';
export { bulkMemberOf } from './bulkChange';

/** What a bulk run needs of a PortalClient. */
interface BulkClient {
  readonly v3: { readonly members: Pick<V3Api['members'], 'update' | 'delete'> };
  readonly budget: Budget;
}

export interface BulkProgress {
  /** Members finished so far (done, skipped or failed). */
  readonly done: number;
  readonly total: number;
  readonly member: BulkMember;
  readonly outcome: 'done' | 'skipped' | 'failed';
}

interface BulkOptions {
  /** Members changed at once. Default: the client's default concurrency (DEFAULT_MAX_CONCURRENT). */
  readonly concurrency?: number;
  /** Stops starting members; those already sent finish. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BulkProgress) => void;
  /** While the budget is spent, how often to look again. Default 250 ms. */
  readonly budgetPollMs?: number;
  /**
   * Journal the run like a plan's apply (same journal, so "Undo Last Apply" and the resume offer after a reload
   * cover bulk edits too): the storage folder (the UI passes `context.globalStorageUri.fsPath`) and the portal id.
   */
  readonly journal?: { readonly storageFolder: string; readonly portalId: string };
}

interface BulkDone {
  readonly member: BulkMember;
  /** The portal's answer to the change; undefined after a delete. */
  readonly answer: Member | undefined;
}

interface BulkSkipped {
  readonly member: BulkMember;
  readonly reason: SkipReason;
}

interface BulkFailed {
  readonly member: BulkMember;
  /** 'unexpected' for an error that is not a PortalError (a defect). */
  readonly kind: PortalErrorKind | 'unexpected';
  /** A message a person can act on (the PortalError's). */
  readonly message: string;
}

export interface BulkSummary {
  readonly change: BulkChange;
  readonly total: number;
  readonly done: readonly BulkDone[];
  readonly skipped: readonly BulkSkipped[];
  readonly failed: readonly BulkFailed[];
  /** Members never started (cancelled, or the run stopped), in the order given: untouched. */
  readonly notStarted: readonly BulkMember[];
  /** The caller's signal aborted. */
  readonly cancelled: boolean;
  /** Set when a failure every later member would meet too (signed out, refused credentials, rate limit) stopped the run. */
  readonly stoppedBy?: PortalErrorKind;
  /** The run's journal id, when it was journaled. */
  readonly applyId?: string;
}

type Outcome =
  | { kind: 'done'; answer: Member | undefined }
  | { kind: 'skipped'; reason: SkipReason }
  | { kind: 'failed'; failure: Omit<BulkFailed, 'member'> };

const NOT_APPLIED = 'The portal answered but did not apply the change; try again or check the member in the portal.';

async function applyOne(
  client: BulkClient,
  accountId: number,
  change: BulkChange,
  member: BulkMember,
): Promise<Outcome> {
  const step = stepFor(change, member);
  if (step.kind === 'skip') return { kind: 'skipped', reason: step.reason };
  try {
    if (step.kind === 'delete') {
      await client.v3.members.delete(accountId, member.username);
      return { kind: 'done', answer: undefined };
    }
    const answer = await client.v3.members.update(accountId, member.username, step.update);
    if (!answerShowsChange(change, answer))
      return { kind: 'failed', failure: { kind: 'invalid-response', message: NOT_APPLIED } };
    return { kind: 'done', answer };
  } catch (error) {
    if (step.kind === 'delete' && isPortalError(error, 'not-found'))
      return { kind: 'skipped', reason: 'already-removed' };
    if (error instanceof PortalError) return { kind: 'failed', failure: { kind: error.kind, message: error.message } };
    return {
      kind: 'failed',
      failure: { kind: 'unexpected', message: error instanceof Error ? error.message : String(error) },
    };
  }
}

/** Failures that every later member would meet too: the run stops starting members, as on cancel. */
const STOPPING: ReadonlySet<PortalErrorKind | 'unexpected'> = new Set<PortalErrorKind | 'unexpected'>([
  'signed-out',
  'auth',
  'rate-limited',
]);

/**
 * Applies `change` to every member. Throws 'invalid-input' (before any request) for a change no member could take;
 * every other failure is per member, in the summary.
 */
export async function runBulk(
  client: BulkClient,
  accountId: number,
  change: BulkChange,
  members: readonly BulkMember[],
  options: BulkOptions = {},
): Promise<BulkSummary> {
  const checked = checkChange(change);
  const concurrency = options.concurrency ?? DEFAULT_MAX_CONCURRENT;
  // Outcomes by index, so the summary lists members in the order given whatever order they finished in.
  const outcomes: Array<Outcome | undefined> = new Array<Outcome | undefined>(members.length);
  let finished = 0;
  let stoppedBy: PortalErrorKind | undefined;
  const stop = linkedSignal(options.signal, concurrency);
  const signal = stop.signal;
  const journal = options.journal
    ? await BulkJournal.open(
        options.journal.storageFolder,
        options.journal.portalId,
        accountId,
        members.map((m, i) => bulkWork(i, m, stepFor(checked, m))),
      )
    : undefined;
  try {
    await runPool(
      members,
      concurrency,
      async (member, index) => {
        const needsRequest = stepFor(checked, member).kind !== 'skip';
        // Nothing is awaited between the last look at the budget and the request: with a token at hand the client
        // takes its budget slot synchronously within the call, so the next worker's look already counts it.
        while (needsRequest && client.budget.used() >= client.budget.limit) {
          if (signal.aborted) return;
          await pause(options.budgetPollMs ?? 250, signal);
        }
        // A worker that waited for the budget and then saw the abort leaves its member untouched.
        if (signal.aborted) return;
        const outcome = await journaled(journal, index, needsRequest, () =>
          applyOne(client, accountId, checked, member),
        );
        outcomes[index] = outcome;
        if (outcome.kind === 'failed' && STOPPING.has(outcome.failure.kind) && !signal.aborted) {
          stoppedBy = outcome.failure.kind as PortalErrorKind;
          stop.dispose();
        }
        report(options, { done: ++finished, total: members.length, member, outcome: outcome.kind });
      },
      signal,
    );
  } finally {
    stop.dispose();
    await journal?.end(options.signal?.aborted === true).catch(() => undefined);
  }
  const summary = summarise(checked, members, outcomes, options.signal?.aborted === true, stoppedBy);
  return journal ? { ...summary, applyId: journal.applyId } : summary;
}

/**
 * With a journal: the intent is durable before the request, the outcome written after. A journal that cannot be
 * written stops the member before its request: an edit the journal does not know of could not be undone.
 */
async function journaled(
  journal: BulkJournal | undefined,
  index: number,
  needsRequest: boolean,
  run: () => Promise<Outcome>,
): Promise<Outcome> {
  if (!journal) return run();
  try {
    if (needsRequest) await journal.intent(index);
  } catch (error) {
    const message = `The journal could not be written, so the member was left as is: ${error instanceof Error ? error.message : String(error)}`;
    return { kind: 'failed', failure: { kind: 'unexpected', message } };
  }
  const outcome = await run();
  const result = outcome.kind === 'done' ? 'done' : outcome.kind === 'skipped' ? 'skipped' : 'failed';
  const message =
    outcome.kind === 'failed' ? outcome.failure.message : outcome.kind === 'skipped' ? outcome.reason : '';
  const failure = outcome.kind === 'failed' ? outcome.failure.kind : undefined;
  await journal.outcome(index, result, message, failure).catch(() => undefined);
  return outcome;
}

/** A progress listener that throws must not lose the summary of members already changed. */
function report(options: BulkOptions, progress: BulkProgress): void {
  try {
    options.onProgress?.(progress);
  } catch {
    // The run goes on; the summary says what happened.
  }
}

function summarise(
  change: BulkChange,
  members: readonly BulkMember[],
  outcomes: ReadonlyArray<Outcome | undefined>,
  cancelled: boolean,
  stoppedBy: PortalErrorKind | undefined,
): BulkSummary {
  const done: BulkDone[] = [];
  const skipped: BulkSkipped[] = [];
  const failed: BulkFailed[] = [];
  const notStarted: BulkMember[] = [];
  members.forEach((member, i) => {
    const o = outcomes[i];
    if (!o) notStarted.push(member);
    else if (o.kind === 'done') done.push({ member, answer: o.answer });
    else if (o.kind === 'skipped') skipped.push({ member, reason: o.reason });
    else failed.push({ member, ...o.failure });
  });
  return {
    change,
    total: members.length,
    done,
    skipped,
    failed,
    notStarted,
    cancelled,
    ...(stoppedBy ? { stoppedBy } : {}),
  };
}

/** The members to run again for "retry the failures". */
export function failedMembers(summary: BulkSummary): BulkMember[] {
  return summary.failed.map((f) => f.member);
}

/** Failed and never started: every member the change has not reached (for "try the rest again"). */
export function unfinishedMembers(summary: BulkSummary): BulkMember[] {
  return [...failedMembers(summary), ...summary.notStarted];
}
