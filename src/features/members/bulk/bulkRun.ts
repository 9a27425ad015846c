/**
 * Bulk member edits: one change applied to many members of an account, one request per member (a removal reads the
 * member first, for its journal and snapshot), so each member is either fully changed or untouched. The engine runs
 * them like any change: journaled with each member's previous values (so Undo puts them back), within the request
 * budget, cancellable. Cancelling stops *starting* members; a request already sent is never aborted.
 */
import { PortalError, type Member, type PortalErrorKind } from '../../../api/index';
import { osTempFolder } from '../../../node/disk';
import { runEdits, type MemberEdit } from '../../../engine/members/edits';
import { NOW_PERMANENT } from '../../../engine/members/kind';
import type { ApplyClient, ApplyResult } from '../../../engine/members/apply';
import { bulkEditOf, checkChange, stepFor, type BulkChange, type BulkMember, type SkipReason } from './bulkChange';

export type { BulkMember } from './bulkChange';
export { bulkMemberOf } from './bulkChange';

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
   * Where the run is journaled (the UI passes `context.globalStorageUri.fsPath`) and the portal id. Without it (the
   * unit tier, benchmarks) the journal goes in a private temporary folder, removed when the run ends.
   */
  readonly journal?: { readonly storageFolder: string; readonly portalId: string; readonly accountLabel?: string };
  /** Where snapshots of members deleted for good go. */
  readonly snapshotFolder?: string;
  /** The change in the user's words, for the history and Undo. */
  readonly title?: string;
  /** Group id → name, for the undo plan's words. */
  readonly groupNames?: Record<string, string>;
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
  /** The run's journal id: what Undo names. */
  readonly applyId?: string;
}

/** The engine's edits: one per member that needs a request, with the member's index. */
function editsOf(change: BulkChange, members: readonly BulkMember[], groupNames: Record<string, string>) {
  const edits: MemberEdit[] = [];
  const memberOfEdit: number[] = [];
  const skipped = new Map<number, SkipReason>();
  members.forEach((member, i) => {
    const step = stepFor(change, member);
    const edit = bulkEditOf(step, member, groupNames);
    if (step.kind === 'skip') skipped.set(i, step.reason);
    if (!edit) return;
    memberOfEdit.push(i);
    edits.push(edit);
  });
  return { edits, memberOfEdit, skipped };
}

const SKIP_REASONS: Readonly<Record<string, SkipReason>> = {
  'Not on the portal any more.': 'already-removed',
  [NOW_PERMANENT]: 'now-deleted-for-good',
};

function failedOf(member: BulkMember, error: unknown, message: string): BulkFailed {
  return { member, kind: error instanceof PortalError ? error.kind : 'unexpected', message };
}

/** The engine's report as the bulk summary, members in the order given. */
function summarise(
  change: BulkChange,
  members: readonly BulkMember[],
  plan: ReturnType<typeof editsOf>,
  result: ApplyResult,
): BulkSummary {
  const done: BulkDone[] = [];
  const skipped: BulkSkipped[] = [];
  const failed: BulkFailed[] = [];
  const notStarted: BulkMember[] = [];
  const rowOf = new Map(plan.memberOfEdit.map((member, seq) => [member, seq]));
  members.forEach((member, i) => {
    const reason = plan.skipped.get(i);
    const seq = rowOf.get(i) ?? -1;
    const row = result.rows[seq];
    if (reason) skipped.push({ member, reason });
    else if (!row || row.result === 'not-started') notStarted.push(member);
    else if (row.result === 'done') done.push({ member, answer: result.answers.get(seq) });
    else if (row.result === 'skipped') skipped.push({ member, reason: SKIP_REASONS[row.message] ?? 'already-removed' });
    else failed.push(failedOf(member, result.errors.get(seq), row.message));
  });
  const stoppedBy = result.stoppedBy && result.stoppedBy !== 'cancelled' ? { stoppedBy: result.stoppedBy } : {};
  const base = { change, total: members.length, done, skipped, failed, notStarted, cancelled: result.cancelled };
  return { ...base, ...stoppedBy, applyId: result.applyId };
}

/**
 * Applies `change` to every member. Throws 'invalid-input' (before any request) for a change no member could take;
 * every other failure is per member, in the summary.
 */
export async function runBulk(
  client: ApplyClient,
  accountId: number,
  change: BulkChange,
  members: readonly BulkMember[],
  options: BulkOptions = {},
): Promise<BulkSummary> {
  const checked = checkChange(change);
  const plan = editsOf(checked, members, options.groupNames ?? {});
  // Without a journal folder (the unit tier, benchmarks), a private one that goes with the run.
  const temp = options.journal ? undefined : await osTempFolder('portal-bulk-');
  const journal = options.journal ?? { storageFolder: temp?.folder ?? '', portalId: '' };
  let finished = plan.skipped.size;
  const result = await runEdits(
    client,
    {
      accountId,
      portalId: journal.portalId,
      origin: 'bulk',
      ...(options.title ? { title: options.title } : {}),
      ...(journal.accountLabel ? { accountLabel: journal.accountLabel } : {}),
    },
    plan.edits,
    {
      journalFolder: journal.storageFolder,
      ...(options.snapshotFolder ? { snapshotFolder: options.snapshotFolder } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      ...(options.budgetPollMs ? { budgetPollMs: options.budgetPollMs } : {}),
      onProgress: (p) => {
        const member = members[plan.memberOfEdit[p.seq] ?? -1] as BulkMember;
        options.onProgress?.({ done: ++finished, total: members.length, member, outcome: p.result });
      },
    },
  ).finally(() => temp?.dispose());
  return summarise(checked, members, plan, result);
}

/** The members to run again for "retry the failures". */
export function failedMembers(summary: BulkSummary): BulkMember[] {
  return summary.failed.map((f) => f.member);
}

/** Failed and never started: every member the change has not reached (for "try the rest again"). */
export function unfinishedMembers(summary: BulkSummary): BulkMember[] {
  return [...failedMembers(summary), ...summary.notStarted];
}
