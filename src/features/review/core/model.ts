/**
 * An access review in memory: what was read when it started (its rows), one decision per row, and what happened at
 * its end. A decision fits its row or is refused (a guest is never "removed", a member at Basic never "lowered to
 * Basic"); a finished review takes no decision. Decisions travel to disk as small batches (see reviewFiles.ts), so a
 * bulk decision over 5,000 rows is one line. Pure: no VS Code, no disk.
 */
import {
  fits,
  shows,
  DECISION_KINDS,
  LOWER_LEVELS,
  ROW_KINDS,
  type Decision,
  type DecisionInput,
  type DecisionKind,
  type ReviewFilter,
  type ReviewRow,
  type ReviewRun,
  type RowKind,
} from './review.protocol';

export const REVIEW_VERSION = 1;

/** Why the portal gave no guests or invitations: it has no such endpoint, or the sign-in lacks the capability. */
export type Refusal = 'absent' | 'capability';

export interface AppliedRecord {
  readonly report: string;
  readonly at: number;
  readonly done: number;
  readonly failed: number;
}

/** What is known of a review besides its rows and decisions: enough to list it. */
export interface ReviewHead extends ReviewRun {
  readonly version: typeof REVIEW_VERSION;
  readonly portalLabel: string;
  readonly accountId: number;
  readonly accountLabel: string;
  readonly refused: { readonly guests?: Refusal | undefined; readonly invitations?: Refusal | undefined };
  /** The member changes the finish put in the Plan view (0 when none). */
  readonly planned?: number | undefined;
  /**
   * The title of that plan, as the engine's journal of its apply names it: an apply the window did not see (a reload
   * between finish and apply, a resumed run) is found by it and recorded when the review is opened again.
   */
  readonly planTitle?: string | undefined;
  readonly applied?: AppliedRecord | undefined;
  /** The digest of the evidence's manifest as written: a manifest edited since no longer matches it. */
  readonly evidenceDigest?: string | undefined;
}

/** One batch of decisions as kept on disk: the same decision (or none: cleared) for these rows. */
export interface DecisionBatch {
  readonly keys: readonly string[];
  readonly decision: Decision | null;
}

export type DecisionCounts = Record<RowKind, Record<DecisionKind | 'undecided', number>>;

export class Review {
  private readonly byKey: Map<string, ReviewRow>;
  readonly decisions = new Map<string, Decision>();

  constructor(
    public head: ReviewHead,
    readonly rows: readonly ReviewRow[],
  ) {
    this.byKey = new Map(rows.map((r) => [r.key, r]));
  }

  get finished(): boolean {
    return this.head.finishedAt !== undefined;
  }

  row(key: string): ReviewRow | undefined {
    return this.byKey.get(key);
  }

  /**
   * Decides for the rows named that the decision fits; the others are left as they were. Answers the batch to keep
   * (its keys are the rows decided), empty when none fits or the review is finished.
   */
  decide(keys: Iterable<string>, input: DecisionInput, by: string, at: number): DecisionBatch {
    if (this.finished) return { keys: [], decision: null };
    const decision = decisionOf(input, by, at);
    const scope = this.head.scope?.name;
    const decided: string[] = [];
    for (const key of keys) {
      const row = this.byKey.get(key);
      if (!row || !fits(row, decision, scope)) continue;
      this.decisions.set(key, decision);
      decided.push(key);
    }
    return { keys: decided, decision };
  }

  /** Every row the filter shows (at `now`) that the decision fits. */
  decideShown(filter: ReviewFilter, input: DecisionInput, by: string, now: number): DecisionBatch {
    return this.decide(this.shown(filter, now), input, by, now);
  }

  shown(filter: ReviewFilter, now: number): string[] {
    return this.rows.filter((r) => shows(r, this.decisions.get(r.key), filter, now)).map((r) => r.key);
  }

  /** A batch read back from disk: only rows of this review, only decisions that fit them. */
  replay(batch: DecisionBatch): void {
    const scope = this.head.scope?.name;
    for (const key of batch.keys) {
      const row = this.byKey.get(key);
      if (!row) continue;
      if (batch.decision === null) this.decisions.delete(key);
      else if (fits(row, batch.decision, scope)) this.decisions.set(key, batch.decision);
    }
  }

  counts(): DecisionCounts {
    const zero = () => ({ keep: 0, remove: 0, lower: 0, expire: 0, withdraw: 0, undecided: 0 });
    const out: DecisionCounts = { member: zero(), guest: zero(), invitation: zero() };
    for (const r of this.rows) out[r.kind][this.decisions.get(r.key)?.kind ?? 'undecided']++;
    return out;
  }

  /** Members to remove or lower, with their decisions, in row order. */
  memberChanges(): Array<{ readonly row: ReviewRow; readonly decision: Decision }> {
    const out: Array<{ row: ReviewRow; decision: Decision }> = [];
    for (const row of this.rows) {
      const decision = this.decisions.get(row.key);
      if (row.kind === 'member' && decision && (decision.kind === 'remove' || decision.kind === 'lower'))
        out.push({ row, decision });
    }
    return out;
  }
}

export function decisionOf(input: DecisionInput, by: string, at: number): Decision {
  return {
    kind: input.kind,
    ...(input.kind === 'lower' && input.level !== undefined ? { level: input.level } : {}),
    reason: input.reason.trim(),
    by,
    at,
  };
}

// ---- reading back what was written (a file on disk may have been edited: nothing in it is trusted) ----

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strOf = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v.slice(0, 10_000) : fallback);
const numOf = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const nullableNum = (v: unknown): number | null | undefined => (v === null ? null : numOf(v));

export function parseDecision(v: unknown): Decision | undefined {
  if (!isObject(v)) return undefined;
  const kind = DECISION_KINDS.find((k) => k === v.kind);
  const level = LOWER_LEVELS.find((l) => l === v.level);
  const at = numOf(v.at);
  if (!kind || at === undefined || (kind === 'lower' && level === undefined)) return undefined;
  return { kind, ...(kind === 'lower' ? { level } : {}), reason: strOf(v.reason), by: strOf(v.by), at };
}

function levelsOf(v: unknown): Record<string, number> | undefined {
  if (!isObject(v)) return undefined;
  const out: Record<string, number> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'number' && [1, 4, 16].includes(x)) out[k] = x;
  return out;
}

export function parseRow(v: unknown): ReviewRow | undefined {
  if (!isObject(v)) return undefined;
  const kind = ROW_KINDS.find((k) => k === v.kind);
  const key = strOf(v.key);
  if (!kind || !key) return undefined;
  const row: ReviewRow = {
    key,
    kind,
    identity: strOf(v.identity),
    name: strOf(v.name),
    access: strOf(v.access),
    detail: strOf(v.detail),
    readAt: numOf(v.readAt) ?? 0,
    flags: numOf(v.flags),
    lastActive: numOf(v.lastActive),
    levels: levelsOf(v.levels),
    permission: nullableNum(v.permission),
    created: nullableNum(v.created),
    expires: nullableNum(v.expires),
    password: typeof v.password === 'boolean' || v.password === null ? v.password : undefined,
  };
  // Absent fields stay absent, so a row written and read back is the same row.
  return Object.fromEntries(Object.entries(row).filter(([, x]) => x !== undefined)) as unknown as ReviewRow;
}

function refusalOf(v: unknown): Refusal | undefined {
  return v === 'absent' || v === 'capability' ? v : undefined;
}

function appliedOf(v: unknown): AppliedRecord | undefined {
  if (!isObject(v)) return undefined;
  const at = numOf(v.at);
  return at === undefined
    ? undefined
    : { report: strOf(v.report), at, done: numOf(v.done) ?? 0, failed: numOf(v.failed) ?? 0 };
}

function scopeOf(v: unknown): ReviewHead['scope'] {
  return isObject(v) && typeof v.name === 'string' ? { name: v.name, label: strOf(v.label, v.name) } : undefined;
}

export function parseHead(v: unknown): ReviewHead | undefined {
  if (!isObject(v) || v.version !== REVIEW_VERSION) return undefined;
  const accountId = numOf(v.accountId);
  const startedAt = numOf(v.startedAt);
  if (typeof v.id !== 'string' || typeof v.portalId !== 'string' || accountId === undefined || startedAt === undefined)
    return undefined;
  const refused = isObject(v.refused) ? v.refused : {};
  const groups = Array.isArray(v.groups) ? v.groups : [];
  return {
    version: REVIEW_VERSION,
    id: v.id,
    portalId: v.portalId,
    portalLabel: strOf(v.portalLabel),
    accountId,
    accountLabel: strOf(v.accountLabel),
    scope: scopeOf(v.scope),
    reviewer: strOf(v.reviewer),
    startedAt,
    finishedAt: numOf(v.finishedAt),
    refused: { guests: refusalOf(refused.guests), invitations: refusalOf(refused.invitations) },
    groups: groups.flatMap((g) =>
      isObject(g) && typeof g.name === 'string' ? [{ name: g.name, label: strOf(g.label, g.name) }] : [],
    ),
    planned: numOf(v.planned),
    planTitle: typeof v.planTitle === 'string' ? v.planTitle : undefined,
    applied: appliedOf(v.applied),
    evidenceDigest: typeof v.evidenceDigest === 'string' ? v.evidenceDigest : undefined,
  };
}

export function parseBatch(v: unknown): DecisionBatch | undefined {
  if (!isObject(v) || !Array.isArray(v.keys)) return undefined;
  const keys = v.keys.filter((k): k is string => typeof k === 'string');
  if (v.decision === null) return { keys, decision: null };
  const decision = parseDecision(v.decision);
  return decision ? { keys, decision } : undefined;
}

/** The review as one JSON value: head, rows, decisions. */
export function reviewJson(review: Review): string {
  return JSON.stringify({
    ...review.head,
    rows: review.rows,
    decisions: Object.fromEntries(review.decisions),
  });
}

/** A review from its JSON value; undefined when it is not one of ours. */
export function parseReview(v: unknown): Review | undefined {
  const head = parseHead(v);
  if (!head || !isObject(v) || !Array.isArray(v.rows)) return undefined;
  const rows = v.rows.flatMap((r) => parseRow(r) ?? []);
  const review = new Review(head, rows);
  const decisions = isObject(v.decisions) ? v.decisions : {};
  for (const [key, d] of Object.entries(decisions)) {
    const decision = parseDecision(d);
    if (decision) review.replay({ keys: [key], decision });
  }
  return review;
}
