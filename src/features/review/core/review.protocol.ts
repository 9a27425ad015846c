/**
 * An access review as both sides of its webview see it: one row per member, guest share and pending invitation, as
 * read when the review started; a decision per row; the filters the page offers and the host checks a bulk decision
 * with (the same function on both sides, so "decide for the rows shown" means the rows the page showed). Imports
 * nothing from Node or VS Code.
 *
 * The conversation:
 *   page → host  { type: 'ready' }                            once its script runs (and after the webview reloads)
 *   host → page  { type: 'init', meta, rows, decisions, l10n }
 *   host → page  { type: 'decided', changes: [[key, decision | null]] }
 *   host → page  { type: 'meta', meta }                       the review finished (read-only from then on)
 *   page → host  { type: 'decide', keys, decision }           rows chosen one by one
 *   page → host  { type: 'decideShown', filter, decision }    every row the filter shows that the decision fits
 *   page → host  { type: 'finish' } | { type: 'close' }
 */
import * as l10n from '@vscode/l10n';
import {
  filtersActivity,
  hasState,
  inactiveFor,
  leftOutAsNotStarted,
  MEMBER_STATES,
  stateWord,
  type ActivityFacets,
} from '../../../shared/memberStates';
import {
  arrayOf,
  bool,
  int,
  messages,
  object,
  oneOf,
  optional,
  str,
  type Infer,
} from '../../../forms/protocol/validate';

export const ROW_KINDS = ['member', 'guest', 'invitation'] as const;
export type RowKind = (typeof ROW_KINDS)[number];

export const DECISION_KINDS = ['keep', 'remove', 'lower', 'expire', 'withdraw'] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

/** The group permissions a member can be lowered to (spec 2.9): Basic, Standard. */
export const LOWER_LEVELS = [1, 4] as const;
export type LowerLevel = (typeof LOWER_LEVELS)[number];

export { MEMBER_STATES, stateWord as stateWords };

/** Content permission bits that let a guest change content (spec 2.9: edit, edit and delete, administer). */
const EDIT_BITS = 4 | 8 | 16;
const DAY_MS = 86_400_000;

/** One row of a review, as read when the review started; what a filter looks at is kept beside the words. */
export interface ReviewRow {
  /** Unique in the review: `m:<username>`, `g:<digest of the share>`, `i:<invitation>`. */
  readonly key: string;
  readonly kind: RowKind;
  /** Username, the guest's e-mail, or the invited address. */
  readonly identity: string;
  /** A member's name; empty for guests and invitations. */
  readonly name: string;
  /** The access as read, in words ("Engineering: Standard; Marketing: Basic", "View and edit"). */
  readonly access: string;
  /** What else was read, in words: a member's state and last activity; a share's dates and password. */
  readonly detail: string;
  /** When it was read (ms); 0 when a member's groups were never read. */
  readonly readAt: number;
  /** Member: the store's flags. */
  readonly flags?: number;
  /** Member: last active (ms), -1 never. */
  readonly lastActive?: number;
  /** Member: group name → permission (1, 4, 16). */
  readonly levels?: Readonly<Record<string, number>>;
  /** Guest: the content mask; member: the organisation permission. */
  readonly permission?: number | null;
  /** Guest or invitation: created or sent (ms), null when not given. */
  readonly created?: number | null;
  /** Guest: expiry (ms), null when none. */
  readonly expires?: number | null;
  /** Guest: a password is set (null when not given). */
  readonly password?: boolean | null;
}

/** A decision as the page sends it; the host adds who and when. */
export interface DecisionInput {
  readonly kind: DecisionKind;
  /** Lower: to this group permission. */
  readonly level?: LowerLevel | undefined;
  readonly reason: string;
}

export interface Decision extends DecisionInput {
  /** The signed-in user who decided. */
  readonly by: string;
  readonly at: number;
}

/** What the page shows: every field optional, absent means "any". */
export interface ReviewFilter extends ActivityFacets {
  readonly kind?: RowKind | undefined;
  readonly text?: string | undefined;
  /** Members in this group (by its name). */
  readonly group?: string | undefined;
  readonly noExpiry?: boolean | undefined;
  readonly noPassword?: boolean | undefined;
  readonly canEdit?: boolean | undefined;
  /** Guests and invitations created more than this many days ago. */
  readonly olderThanDays?: number | undefined;
  /** 'undecided', or rows with this decision. */
  readonly decided?: 'undecided' | DecisionKind | undefined;
}

/** A group as a review knows it: its unique name, and the name people know. */
export interface ReviewGroup {
  readonly name: string;
  readonly label: string;
}

/** Which review, of which portal, by whom and when: what the review keeps and its page shows alike. */
export interface ReviewRun {
  /** The review and its portal: what the page keeps for a reload (its panel comes back from them). */
  readonly id: string;
  readonly portalId: string;
  /** The group the review is scoped to, when it is. */
  readonly scope?: ReviewGroup | undefined;
  readonly reviewer: string;
  readonly startedAt: number;
  readonly finishedAt?: number | undefined;
  /** The organisation's groups when the review started: the ones a member filter offers. */
  readonly groups: readonly ReviewGroup[];
}

export interface ReviewMeta extends ReviewRun {
  readonly title: string;
  readonly portal: string;
  readonly organisation: string;
  readonly readOnly: boolean;
  /** Plain sentences above the rows: what the portal did not offer, a digest that no longer matches. */
  readonly notes: readonly string[];
}

/** The decisions a row of this kind can take. */
export function decisionsFor(kind: RowKind): readonly DecisionKind[] {
  if (kind === 'member') return ['keep', 'remove', 'lower'];
  return kind === 'guest' ? ['keep', 'expire'] : ['keep', 'withdraw'];
}

/** The member's levels the review looks at: the scoped group's, or all. */
function levelsInScope(row: ReviewRow, scope: string | undefined): number[] {
  const levels = row.levels ?? {};
  if (scope === undefined) return Object.values(levels);
  const level = levels[scope];
  return level === undefined ? [] : [level];
}

/** Whether `decision` fits `row`: its kind takes it, and a member lowered holds a higher level in scope. */
export function fits(row: ReviewRow, decision: DecisionInput, scope: string | undefined): boolean {
  if (!decisionsFor(row.kind).includes(decision.kind)) return false;
  if (decision.kind !== 'lower') return true;
  const to = decision.level;
  return to !== undefined && levelsInScope(row, scope).some((l) => l > to);
}

function memberFacetsMatch(row: ReviewRow, f: ReviewFilter, now: number): boolean {
  if (f.state === undefined && f.inactiveDays === undefined && f.group === undefined) return true;
  if (row.kind !== 'member') return false;
  if (f.state !== undefined && !hasState(row.flags ?? 0, row.lastActive ?? -1, f.state)) return false;
  if (f.group !== undefined && (row.levels ?? {})[f.group] === undefined) return false;
  const last = row.lastActive ?? -1;
  if (f.inactiveDays !== undefined && !inactiveFor(last, f.inactiveDays, now)) return false;
  return !leftOutAsNotStarted({ activity: filtersActivity(f), keepNotStarted: f.notStarted }, row.flags ?? 0, last);
}

function guestFacetsMatch(row: ReviewRow, f: ReviewFilter, now: number): boolean {
  const guestOnly = f.noExpiry === true || f.noPassword === true || f.canEdit === true;
  if (guestOnly && row.kind !== 'guest') return false;
  if (f.noExpiry && row.expires !== null && row.expires !== undefined) return false;
  if (f.noPassword && row.password !== false) return false;
  if (f.canEdit && ((row.permission ?? 0) & EDIT_BITS) === 0) return false;
  if (f.olderThanDays !== undefined) {
    if (row.kind === 'member' || row.created === null || row.created === undefined) return false;
    if (row.created > now - f.olderThanDays * DAY_MS) return false;
  }
  return true;
}

/** Whether the row shows under `filter`; `now` decides the day counts, so page and host agree when given the same. */
export function shows(row: ReviewRow, decision: Decision | undefined, filter: ReviewFilter, now: number): boolean {
  if (filter.kind !== undefined && row.kind !== filter.kind) return false;
  if (filter.decided === 'undecided' && decision) return false;
  if (filter.decided !== undefined && filter.decided !== 'undecided' && decision?.kind !== filter.decided) return false;
  if (!memberFacetsMatch(row, filter, now) || !guestFacetsMatch(row, filter, now)) return false;
  const text = filter.text?.trim().toLowerCase();
  if (text && !`${row.identity}\n${row.name}\n${row.access}\n${row.detail}`.toLowerCase().includes(text)) return false;
  return true;
}

/** A group permission in the members file's words. */
export function levelWords(permission: number): string {
  if (permission >= 16) return l10n.t('Administrator');
  if (permission >= 4) return l10n.t('Standard');
  return permission >= 1 ? l10n.t('Basic') : '';
}

export function kindWords(kind: RowKind): string {
  if (kind === 'member') return l10n.t('Member');
  return kind === 'guest' ? l10n.t('Guest') : l10n.t('Invitation');
}

/** The decision in words: "Keep", "Remove from the group", "Lower to Basic", "Expire share", "Withdraw". */
export function decisionWords(d: Pick<DecisionInput, 'kind' | 'level'>, scoped: boolean): string {
  switch (d.kind) {
    case 'keep':
      return l10n.t('Keep');
    case 'remove':
      return scoped ? l10n.t('Remove from the group') : l10n.t('Remove from the organisation');
    case 'lower':
      return l10n.t('Lower to {0}', levelWords(d.level ?? 0));
    case 'expire':
      return l10n.t('Expire share');
    case 'withdraw':
      return l10n.t('Withdraw invitation');
  }
}

/** A kind of decision, as the Decision filter offers it. */
export function decisionKindWords(kind: DecisionKind): string {
  switch (kind) {
    case 'keep':
      return l10n.t('Keep');
    case 'remove':
      return l10n.t('Remove');
    case 'lower':
      return l10n.t('Lower');
    case 'expire':
      return l10n.t('Expire share');
    case 'withdraw':
      return l10n.t('Withdraw invitation');
  }
}

// ---- page → host ----

/** Longest reason kept: a sentence or two, not a document. */
export const MAX_REASON = 500;
const MAX_KEYS = 100_000;
const MAX_TEXT = 200;

const decisionShape = object({
  kind: oneOf(DECISION_KINDS),
  level: optional(oneOf(LOWER_LEVELS)),
  reason: str({ max: MAX_REASON }),
});

const filterShape = object({
  kind: optional(oneOf(ROW_KINDS)),
  text: optional(str({ max: MAX_TEXT })),
  state: optional(oneOf(MEMBER_STATES)),
  inactiveDays: optional(int({ min: 0, max: 100_000 })),
  notStarted: optional(bool),
  group: optional(str({ max: MAX_TEXT })),
  noExpiry: optional(bool),
  noPassword: optional(bool),
  canEdit: optional(bool),
  olderThanDays: optional(int({ min: 0, max: 100_000 })),
  decided: optional(oneOf(['undecided', ...DECISION_KINDS] as const)),
});

export const checkReviewMessage = messages({
  ready: {},
  finish: {},
  close: {},
  decide: { keys: arrayOf(str({ min: 1, max: 2_000 }), { max: MAX_KEYS }), decision: decisionShape },
  decideShown: { filter: filterShape, decision: decisionShape },
});
export type ReviewMessage = Infer<typeof checkReviewMessage>;

/** The key of what the review page keeps for a reload ({ key, values } in the webview's state). */
export const REVIEW_PAGE_STATE = 'review';

/** What a reload hands back of a review page, checked: its portal and review id; undefined when it is not ours. */
export function reviewRestoreOf(state: unknown): { readonly portalId: string; readonly id: string } | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const { key, values } = state as { key?: unknown; values?: unknown };
  if (key !== REVIEW_PAGE_STATE || typeof values !== 'object' || values === null) return undefined;
  const { portalId, id } = values as { portalId?: unknown; id?: unknown };
  if (typeof portalId !== 'string' || portalId === '' || portalId.length > 2000) return undefined;
  if (typeof id !== 'string' || !/^[a-z0-9-]{1,80}$/.test(id)) return undefined;
  return { portalId, id };
}
