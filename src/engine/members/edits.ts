/**
 * Member edits that are not a plan made from a file: a single command, a form's save, a bulk edit on a selection.
 * Each is a unit like a plan's (journaled with the member's previous values, within the budget, undoable), so the
 * engine runs them the same way; only how the caller describes them differs.
 */
import type { Member, MemberV2 } from '../../api/index';
import { runMemberWork, type ApplyClient, type ApplyResult, type RunHead, type RunSettings } from './apply';
import type { JournalRequest, JournalWork, MemberBefore, MemberTarget, ReportAction, ReportRow } from './model';
import { emptyBefore, updateRequests } from './requests';

export interface MemberEdit {
  readonly username: string;
  readonly action: ReportAction;
  /** What the member was, as far as the edit touches them (null for a member being created). */
  readonly before: MemberBefore | null;
  /** What the member will be (null for a removal): what an undo reverses. */
  readonly after: MemberTarget | null;
  /**
   * The requests, when the edit sends more than its target says (a form's create, an activation, the new-groups
   * permission: sent, not undone); default the requests that move `before` to `after`.
   */
  readonly requests?: readonly JournalRequest[];
  /** Group id → name, for the undo plan's words. */
  readonly groupNames?: Readonly<Record<string, string>>;
  /** A removal the user confirmed as deleting the user for good. */
  readonly permanent?: boolean;
  /** Sent with the edit's first create or PATCH, never journaled. */
  readonly password?: string;
}

/** The edit as a unit of work. */
export function editUnit(seq: number, edit: MemberEdit): JournalWork {
  const before = edit.before;
  const after = edit.after;
  const requests =
    edit.requests ??
    (edit.action === 'remove'
      ? [{ method: 'v3.delete' as const }]
      : after
        ? updateRequests(after, before ?? emptyBefore(edit.username))
        : []);
  return {
    seq,
    username: edit.username,
    row: undefined,
    action: edit.action,
    changeIds: [],
    before,
    after,
    requests,
    groupNames: edit.groupNames ?? {},
    permanent: edit.permanent === true,
  };
}

/** Runs the edits as one change (one journal, one entry in the history, one Undo). */
export function runEdits(
  client: ApplyClient,
  head: RunHead,
  edits: readonly MemberEdit[],
  settings: RunSettings,
): Promise<ApplyResult> {
  const secrets = new Map<number, string>();
  edits.forEach((e, seq) => e.password && secrets.set(seq, e.password));
  return runMemberWork(
    client,
    head,
    edits.map((e, seq) => editUnit(seq, e)),
    { ...settings, secrets },
  );
}

export interface EditDone {
  readonly applyId: string;
  readonly row: ReportRow;
  /** The portal's answer (a v3 create or update), when there was one. */
  readonly answer: Member | undefined;
  /** The portal's answer to a v2 update, when there was one. */
  readonly answerV2: MemberV2 | undefined;
}

/**
 * Runs one edit; throws the portal's own error when it failed (a form shows it at its field), or the report's
 * message when the run never reached the member.
 */
export async function runEdit(
  client: ApplyClient,
  head: RunHead,
  edit: MemberEdit,
  settings: RunSettings,
): Promise<EditDone> {
  const result = await runEdits(client, head, [edit], settings);
  const row = result.rows[0] as ReportRow;
  const error = result.errors.get(0);
  if (error !== undefined) throw error;
  if (row.result === 'failed' || row.result === 'not-started') throw new Error(row.message || 'Not sent.');
  return { applyId: result.applyId, row, answer: result.answers.get(0), answerV2: result.answersV2.get(0) };
}
