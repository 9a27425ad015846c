/**
 * Bulk edits on a selection write the same journal as a plan's apply, so "Undo Last Apply" and the resume offer
 * after a reload cover them too. A bulk edit knows only what the Members view row knew of each member (enabled,
 * locked, tags, and a group's level when loaded), so that is what its journal keeps as the previous values.
 */
import type { MemberUpdate, PortalErrorKind } from '../../../../api/index';
import type { BulkMember, MemberStep } from '../../bulk/bulkChange';
import { Journal } from '../../../../engine/journalFile';
import type { GroupLevel, JournalWork, MemberBefore, MemberTarget, ReportAction } from './model';

function beforeOf(member: BulkMember, groupId: number | undefined): MemberBefore {
  const groups: Record<string, GroupLevel> = {};
  const known = groupId === undefined ? undefined : member.groupPermissions?.get(groupId);
  if (groupId !== undefined && known !== undefined) groups[String(groupId)] = known as GroupLevel;
  return {
    username: member.username,
    name: '',
    email: '',
    jobTitle: null,
    enabled: member.enabled,
    locked: member.locked,
    accountPermission: null,
    tags: member.tags,
    twoFactor: false,
    lastModified: null,
    groups,
  };
}

function targetOf(update: MemberUpdate): { target: MemberTarget; groupId: number | undefined } {
  const fields: Record<string, unknown> = {};
  const groups: Record<string, GroupLevel> = {};
  if (update.enabled !== undefined) fields.enabled = update.enabled;
  if (update.lock !== undefined) fields.locked = update.lock;
  if (update.tags !== undefined) fields.tags = update.tags;
  for (const [id, level] of Object.entries(update.assignGroupsRights ?? {})) groups[id] = level as GroupLevel;
  for (const id of update.assignGroupsAdmin ?? []) groups[String(id)] = 16;
  for (const id of update.removeGroups ?? []) groups[String(id)] = 0;
  const groupId = Object.keys(groups).map(Number)[0];
  return { target: { fields: fields as MemberTarget['fields'], groups }, groupId };
}

/** The journal work of one bulk member: its one request, and what it knew before. */
export function bulkWork(seq: number, member: BulkMember, step: MemberStep): JournalWork {
  const base = { seq, username: member.username, row: undefined, changeIds: [], groupNames: {}, permanent: false };
  if (step.kind === 'delete')
    return {
      ...base,
      action: 'remove',
      before: beforeOf(member, undefined),
      after: null,
      requests: [{ method: 'v3.delete' }],
    };
  if (step.kind === 'skip')
    return {
      ...base,
      action: 'update',
      before: beforeOf(member, undefined),
      after: { fields: {}, groups: {} },
      requests: [],
    };
  const { target, groupId } = targetOf(step.update);
  const action: ReportAction = step.update.enabled === false ? 'disable' : 'update';
  return {
    ...base,
    action,
    before: beforeOf(member, groupId),
    after: target,
    requests: [{ method: 'v3.update', body: step.update }],
  };
}

/** A bulk run's journal: created before the first request, an intent before each member's request. */
export class BulkJournal {
  private constructor(
    private readonly journal: Journal,
    private readonly work: readonly JournalWork[],
  ) {}

  get applyId(): string {
    return this.journal.applyId;
  }

  static async open(
    storageFolder: string,
    portalId: string,
    accountId: number,
    work: readonly JournalWork[],
  ): Promise<BulkJournal> {
    const journal = await Journal.create(storageFolder, {
      accountId,
      portalId,
      origin: 'bulk',
      startedAt: Date.now(),
      work,
    });
    return new BulkJournal(journal, work);
  }

  /** Before the member's request: durable. */
  async intent(index: number): Promise<void> {
    const w = this.work[index];
    if (w) await this.journal.append({ type: 'intent', seq: w.seq, before: w.before, requests: w.requests });
  }

  /**
   * After the member's request. A bulk run never aborts a request it sent, so a 'cancelled' failure means the client
   * was closed under it (a window reload): whether it landed is unknown, so, as in an apply, no outcome is written
   * and a resume reads the member from the portal first.
   */
  async outcome(
    index: number,
    result: 'done' | 'failed' | 'skipped',
    message: string,
    failure?: PortalErrorKind | 'unexpected',
  ): Promise<void> {
    const w = this.work[index];
    if (w && failure !== 'cancelled') await this.journal.append({ type: 'outcome', seq: w.seq, result, message });
  }

  async end(cancelled: boolean): Promise<void> {
    try {
      await this.journal.append({ type: 'end', finishedAt: Date.now(), cancelled });
    } finally {
      await this.journal.close();
    }
  }
}
