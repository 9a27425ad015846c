/**
 * Member changes as the engine's first kind of work: a unit is one member's requests. The only module that sends
 * member writes (v3 create, update and delete; v2 create and update).
 *
 * A removal reads the member first: their whole values go in the journal (so an undo can re-create them), a snapshot
 * is written before a user is deleted for good, and whether the removal deletes the user for good is decided again
 * now, not at plan time: a member who would now be deleted for good and was not planned so is left alone.
 */
import {
  isPortalError,
  PortalError,
  type Budget,
  type Member,
  type MemberV2,
  type V2Api,
  type V3Api,
} from '../../api/index';
import type { IntentEntry, UndoOffer, UnitContext, UnitOutcome, WorkKind } from '../job';
import type {
  JournalRecord,
  JournalRequest,
  JournalWork,
  MemberBefore,
  MemberTarget,
  Plan,
  PortalGroup,
} from './model';
import { groupLevelsOf, memberBefore, portalMemberOf, readGroups } from './portal';
import { remaining, sameValue } from './remaining';
import { rebuiltRequests, updateRequests } from './requests';
import { snapshotFrom, writeSnapshot } from './snapshot';
import { undoPlan } from './undo';

/** What running member work needs of a PortalClient. */
export interface ApplyClient {
  readonly v3: { readonly members: Pick<V3Api['members'], 'create' | 'update' | 'delete' | 'get'> };
  readonly v2: {
    readonly members: Pick<V2Api['members'], 'get' | 'create' | 'update'>;
    readonly groups: Pick<V2Api['groups'], 'list'>;
  };
  readonly budget: Budget;
  /** The portal's address: a snapshot records where it was taken. */
  readonly baseUrl: string;
}

type Context = UnitContext<MemberBefore, JournalRequest>;

export function failure(error: unknown): UnitOutcome {
  if (error instanceof PortalError) return { result: 'failed', message: error.message, kind: error.kind };
  return { result: 'failed', message: error instanceof Error ? error.message : String(error), kind: 'unexpected' };
}

/**
 * A member read whole before a removal: values with every group, whether they are in no other organisation, and, when
 * the removal deletes them for good, how to keep their snapshot (written only once the removal is sure to be sent).
 */
interface Whole {
  readonly before: MemberBefore;
  readonly alone: boolean;
  readonly keepSnapshot?: () => Promise<string>;
}

export const NOW_PERMANENT =
  'Removing them now would delete their user for good (they belong to no other organisation any more), which was not planned: left as they are. Plan again to remove them.';
const NOT_APPLIED = 'The portal answered but did not apply the change; try again or check the member in the portal.';
const NO_SNAPSHOT = 'No snapshot folder was given; a member deleted for good needs a snapshot first.';

/**
 * Whether the portal's answer shows the target's flags and tags. A portal that answers 200 with the old values has
 * not applied the change, and the report must not say it did. Groups are not in a v3 answer, so they cannot be seen.
 */
function answerShows(target: MemberTarget | null, answer: Member): boolean {
  const f = target?.fields ?? {};
  if (f.enabled !== undefined && answer.user.enabled !== f.enabled) return false;
  if (f.locked !== undefined && answer.user.locked !== f.locked) return false;
  return f.tags === undefined || sameValue([...f.tags].sort(), [...answer.tags].sort());
}

/** Sends member work for one organisation; one instance per run (it remembers the group list it read). */
export class MemberKind implements WorkKind<JournalWork, MemberBefore, JournalRequest, Plan> {
  readonly name = 'members';
  private groups: Promise<PortalGroup[]> | undefined;
  /** The portal's last answer for each member (a v3 create or update), by unit seq: the views show it in place. */
  readonly answers = new Map<number, Member>();
  /** The portal's answer to a v2 update, by unit seq: a form checks the profile fields it sent. */
  readonly answersV2 = new Map<number, MemberV2>();
  /** The error that failed each unit, by seq: a form maps the portal's field errors to its fields. */
  readonly errors = new Map<number, unknown>();

  constructor(
    readonly client: ApplyClient,
    readonly accountId: number,
    readonly options: {
      readonly snapshotFolder?: string | undefined;
      /** Passwords by unit seq: sent with the unit's first create or PATCH, never journaled. */
      readonly secrets?: ReadonlyMap<number, string>;
      /** Default true: a PATCH answered without the change fails the member. */
      readonly verifyAnswers?: boolean;
    },
  ) {}

  sends(unit: JournalWork): boolean {
    // A resume sends the rebuilt requests, which an edited journal's own list may not show.
    return unit.requests.length > 0 || rebuiltRequests(unit).length > 0;
  }

  undo(record: JournalRecord): UndoOffer<Plan> {
    return { plan: undoPlan(record) };
  }

  /** Sends one request (the password, when given, with a create or a PATCH); the portal's answer. */
  async send(
    username: string,
    request: JournalRequest,
    context: Context,
    password?: string,
  ): Promise<{ v3?: Member; v2?: MemberV2 }> {
    const c = this.client;
    const a = this.accountId;
    context.countRequest();
    switch (request.method) {
      case 'v3.create':
        return { v3: await c.v3.members.create(a, password ? { ...request.body, password } : request.body) };
      case 'v2.create':
        await c.v2.members.create(a, request.body);
        return {};
      case 'v3.update':
        return { v3: await c.v3.members.update(a, username, password ? { ...request.body, password } : request.body) };
      case 'v2.update':
        return { v2: await c.v2.members.update(a, username, request.body) };
      case 'v3.delete':
        await c.v3.members.delete(a, username);
        return {};
    }
  }

  knownGroups(context: Context): Promise<PortalGroup[]> {
    this.groups ??= readGroups(this.client, this.accountId).then((g) => {
      context.countRequest();
      return g;
    });
    return this.groups;
  }

  /** The member's v3 record; undefined when not on the portal. */
  private async readMember(username: string, context: Context): Promise<Member | undefined> {
    try {
      context.countRequest();
      return await this.client.v3.members.get(this.accountId, username);
    } catch (error) {
      if (isPortalError(error, 'not-found')) return undefined;
      throw error;
    }
  }

  /** The member as the portal has them now, groups only when asked; undefined when not on the portal. */
  async current(username: string, withGroups: boolean, context: Context): Promise<MemberBefore | undefined> {
    const member = await this.readMember(username, context);
    if (!member) return undefined;
    const p = portalMemberOf(member);
    if (!withGroups) return memberBefore(p, []);
    context.countRequest();
    const v2 = await this.client.v2.members.get(this.accountId, username);
    return memberBefore({ ...p, groups: groupLevelsOf(v2.groups, await this.knownGroups(context)) });
  }

  /** The member's full values with every group, and their snapshot to keep when removing them deletes the user. */
  async readWhole(username: string, context: Context): Promise<Whole | undefined> {
    const member = await this.readMember(username, context);
    if (!member) return undefined;
    context.countRequest();
    const v2 = await this.client.v2.members.get(this.accountId, username);
    const groups = await this.knownGroups(context);
    const before = memberBefore({ ...portalMemberOf(member), groups: groupLevelsOf(v2.groups, groups) });
    const alone = !member.memberOfMultipleAccounts;
    const folder = this.options.snapshotFolder;
    if (!alone || !folder) return { before, alone };
    const snapshot = snapshotFrom(this.accountId, member, v2, groups, Date.now(), this.client.baseUrl);
    return { before, alone, keepSnapshot: () => writeSnapshot(folder, snapshot) };
  }

  /**
   * A removal's check at the moment of sending: the member's values now (and the snapshot kept, for a deletion for
   * good), or the outcome that ends the unit. The snapshot is written only past every check that may skip the
   * removal, so a member left as they are leaves no copy of their details behind.
   */
  private async beforeRemoval(
    work: JournalWork,
    context: Context,
  ): Promise<{ before: MemberBefore; snapshot?: string } | UnitOutcome> {
    const whole = await this.readWhole(work.username, context);
    if (!whole)
      return this.finish(work, { result: 'skipped', message: 'Not on the portal any more.' }, work.before, context);
    if (whole.alone && !work.permanent)
      return this.finish(work, { result: 'skipped', message: NOW_PERMANENT }, whole.before, context);
    if (!whole.alone) return { before: whole.before };
    if (!whole.keepSnapshot)
      return this.finish(work, { result: 'failed', message: NO_SNAPSHOT }, whole.before, context);
    return { before: whole.before, snapshot: await whole.keepSnapshot() };
  }

  /** Runs one member's work: intent (durable), requests in order, outcome. */
  async run(work: JournalWork, context: Context, requests = work.requests, before = work.before): Promise<UnitOutcome> {
    let snapshot: string | undefined;
    try {
      if (work.action === 'remove') {
        const whole = await this.beforeRemoval(work, context);
        if ('result' in whole) return whole;
        before = whole.before;
        snapshot = whole.snapshot;
      }
      if (requests.length === 0)
        return await this.finish(work, { result: 'skipped', message: 'Already as planned.' }, before, context);
      await context.journal.append({
        type: 'intent',
        seq: work.seq,
        before,
        requests,
        ...(snapshot ? { snapshot } : {}),
      });
    } catch (error) {
      const o = failure(error);
      return o.kind === 'cancelled' ? { ...o, unconfirmed: true } : o;
    }
    return this.sendAll(work, requests, context);
  }

  private async sendAll(
    work: JournalWork,
    requests: readonly JournalRequest[],
    context: Context,
  ): Promise<UnitOutcome> {
    let sent = 0;
    let password = this.options.secrets?.get(work.seq);
    try {
      for (const r of requests) {
        const { v3: answer, v2 } = await this.send(work.username, r, context, password);
        if (v2) this.answersV2.set(work.seq, v2);
        if (r.method === 'v3.create' || r.method === 'v3.update') password = undefined;
        if (answer) this.answers.set(work.seq, answer);
        if (
          answer &&
          r.method === 'v3.update' &&
          this.options.verifyAnswers !== false &&
          !answerShows(work.after, answer)
        )
          throw new PortalError({ kind: 'invalid-response', endpoint: '', message: NOT_APPLIED });
        sent++;
      }
      return await this.outcome(work, { result: 'done', message: '' }, context);
    } catch (error) {
      this.errors.set(work.seq, error);
      const o = failure(error);
      // The engine never aborts a request it sent, so 'cancelled' means the client was closed under it (a window
      // reload): the intent stays without an outcome and a resume reads the member to find out.
      if (o.kind === 'cancelled') return { ...o, unconfirmed: true };
      if (work.action === 'remove' && sent === 0 && isPortalError(error, 'not-found'))
        return this.outcome(work, { result: 'skipped', message: 'Not on the portal any more.' }, context);
      const message =
        sent > 0 ? `${o.message} (${sent} of ${requests.length} requests for this member were applied.)` : o.message;
      return this.outcome(work, { ...o, message }, context);
    }
  }

  private async finish(
    work: JournalWork,
    o: UnitOutcome,
    before: MemberBefore | null,
    context: Context,
  ): Promise<UnitOutcome> {
    await context.journal.append({ type: 'intent', seq: work.seq, before, requests: [] });
    return this.outcome(work, o, context);
  }

  async outcome(work: JournalWork, o: UnitOutcome, context: Context): Promise<UnitOutcome> {
    await context.journal.append({ type: 'outcome', seq: work.seq, result: o.result, message: o.message });
    return o;
  }

  /**
   * A member started but not confirmed before a crash is read from the portal: if the portal already shows the change
   * it counts as done, if it still shows the previous values the rest is sent, and what someone else changed meanwhile
   * is left as it is and reported as failed. A member never started is run. Either way the requests are rebuilt from
   * the journal's checked `before` and `after` (what the resume's confirmation showed), never its request bodies.
   */
  async resume(
    work: JournalWork,
    intent: IntentEntry<MemberBefore, JournalRequest> | undefined,
    context: Context,
  ): Promise<UnitOutcome> {
    if (!intent) return this.run(work, context, rebuiltRequests(work));
    try {
      return await this.resumeStarted(work, intent, context);
    } catch (error) {
      const o = failure(error);
      if (o.kind === 'cancelled') return { ...o, unconfirmed: true };
      return this.outcome(work, { result: 'failed', message: o.message }, context);
    }
  }

  private async resumeStarted(
    work: JournalWork,
    intent: IntentEntry<MemberBefore, JournalRequest>,
    context: Context,
  ): Promise<UnitOutcome> {
    const created = work.action === 'create' || work.action === 'restore';
    if (work.action === 'remove') {
      const now = await this.current(work.username, false, context);
      return now
        ? this.run(work, context, rebuiltRequests(work))
        : this.outcome(work, { result: 'done', message: '' }, context);
    }
    // What the resume's plan showed: the target, and for a member changed, only with the values before.
    const shown = work.after && (created || work.before) ? work.after : undefined;
    const target = shown ?? { fields: {}, groups: {} };
    const now = await this.current(work.username, Object.keys(target.groups).length > 0, context);
    if (!now && created) return this.run(work, context, rebuiltRequests(work));
    if (!now)
      return this.outcome(work, { result: 'failed', message: 'The member is no longer on the portal.' }, context);
    const left = remaining(target, now, created ? null : (intent.before ?? work.before));
    if (left.changedElsewhere.length > 0) {
      const message = `Changed on the portal meanwhile, left as it is: ${left.changedElsewhere.join(', ')}.`;
      return this.outcome(work, { result: 'failed', message }, context);
    }
    const requests = updateRequests(left.target, now);
    if (requests.length === 0) return this.outcome(work, { result: 'done', message: '' }, context);
    return this.run(work, context, requests, now);
  }
}
