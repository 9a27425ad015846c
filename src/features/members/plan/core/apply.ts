/**
 * Runs a plan: the changes not left out, one member per worker, ONE request per member where the API allows it (a
 * member's tag, enabled, lock, permission, two-factor and group changes go in one v3 PATCH; name, e-mail and job
 * title, which only v2 can change, add one v2 update), within the client's request budget, cancellable.
 *
 * The journal's first line holds every member's planned work, so nothing is lost if the run stops; before each
 * member's first request, an intent line with the member's previous values is made durable; after, the outcome.
 * A removal that deletes a user for good is preceded by a snapshot.
 *
 * As in bulk edits, cancelling stops starting members; a request already sent is never aborted, so the report can
 * say what happened to every member.
 */
import {
  DEFAULT_MAX_CONCURRENT,
  isPortalError,
  PortalError,
  type Budget,
  type Member,
  type MemberBodyV2,
  type MemberCreate,
  type MemberUpdate,
  type PortalErrorKind,
  type V2Api,
  type V3Api,
} from '../../../../api/index';
import { linkedSignal, pause, runPool } from '../../../../node/pool';
import { Journal } from './journalFile';
import {
  allChanges,
  type GroupLevel,
  type JournalRecord,
  type JournalRequest,
  type JournalWork,
  type MemberBefore,
  type MemberTarget,
  type NewMemberSpec,
  type Plan,
  type PlanChange,
  type PortalGroup,
  type ReportAction,
  type ReportResult,
  type ReportRow,
  type RestoreChange,
} from './model';
import { groupLevelsOf, memberBefore, portalMemberOf, readGroups } from './portalState';
import { snapshotFrom, writeSnapshot } from './snapshot';

/** What an apply needs of a PortalClient. */
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
  /** The storage folder; the journal goes in its `journal/` folder (the UI passes `context.globalStorageUri.fsPath`). */
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
  /** The run this one undoes (set by the UI when it applies an undo plan). */
  readonly undoOf?: string;
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
  return allChanges(plan).filter((c) => !leftOut.has(c.id));
}

/** Counts for the confirmation. */
export function countPlan(plan: Plan, leftOut: ReadonlySet<string> = new Set(plan.leftOutByDefault)): PlanCounts {
  const work = workOf(plan, chosenChanges(plan, leftOut));
  const chosen = new Set(chosenChanges(plan, leftOut).map((c) => c.id));
  return {
    members: work.length,
    create: work.filter((w) => w.action === 'create' || w.action === 'restore').length,
    update: work.filter((w) => w.action === 'update').length,
    disable: work.filter((w) => w.action === 'disable').length,
    remove: work.filter((w) => w.action === 'remove').length,
    permanent: work.filter((w) => w.permanent).length,
    conflictsChosen: plan.conflicts.filter((c) => c.changeIds.some((id) => chosen.has(id))).length,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Plan → work: one item per member, with the requests it takes
// ---------------------------------------------------------------------------------------------------------------

type Fields = MemberTarget['fields'];

/** The PATCH and v2 update that move a member from `current` to `target` (only what differs). */
export function updateRequests(target: MemberTarget, current: MemberBefore): JournalRequest[] {
  const f = target.fields;
  const differs = <K extends keyof Fields>(k: K, now: unknown): boolean => {
    const want = f[k];
    if (want === undefined) return false;
    if (Array.isArray(want) && Array.isArray(now))
      return want.length !== now.length || want.some((x, i) => x !== now[i]);
    return (want ?? '') !== (now ?? '');
  };
  const requests: JournalRequest[] = [];
  const user: MemberBodyV2['user'] = {};
  if (differs('name', current.name) && f.name !== undefined) user.name = f.name;
  if (differs('email', current.email) && f.email !== undefined) user.email = f.email;
  if (differs('jobTitle', current.jobTitle)) user.jobTitle = f.jobTitle ?? '';
  if (Object.keys(user).length > 0) requests.push({ method: 'v2.update', body: { user } });

  const patch: MemberUpdate = {};
  if (differs('tags', current.tags) && f.tags) patch.tags = [...f.tags];
  if (differs('enabled', current.enabled) && f.enabled !== undefined) patch.enabled = f.enabled;
  if (differs('locked', current.locked) && f.locked !== undefined) patch.lock = f.locked;
  if (differs('accountPermission', current.accountPermission) && f.accountPermission !== undefined)
    patch.permission = f.accountPermission;
  if (f.twoFactor === false && current.twoFactor) patch.disableTwoFactorAuthentication = true;
  const rights: Record<string, number> = {};
  const admin: number[] = [];
  const remove: number[] = [];
  for (const [id, level] of Object.entries(target.groups)) {
    if ((current.groups[id] ?? 0) === level) continue;
    // Spec 4.3: administrators in assignGroupsAdmin, basic and standard in assignGroupsRights, none in removeGroups.
    if (level === 0) remove.push(Number(id));
    else if (level === 16) admin.push(Number(id));
    else rights[id] = level;
  }
  if (Object.keys(rights).length > 0) patch.assignGroupsRights = rights;
  if (admin.length > 0) patch.assignGroupsAdmin = admin;
  if (remove.length > 0) patch.removeGroups = remove;
  if (Object.keys(patch).length > 0) requests.push({ method: 'v3.update', body: patch });
  return requests;
}

function groupsRecord(groups: ReadonlyMap<number, GroupLevel>): Record<string, GroupLevel> {
  const out: Record<string, GroupLevel> = {};
  for (const [id, level] of groups) out[String(id)] = level;
  return out;
}

/**
 * The requests that create a member: one v3 POST with groups, tags and permission; v2 POST instead when the
 * member needs what only v2 takes at creation (a job title, a later activation date, a snapshot's address), then a
 * v3 PATCH for tags and groups (by id, as v2 takes groups by name only). A member to be locked gets a PATCH too
 * (creation takes no lock).
 */
export function createRequests(spec: NewMemberSpec, profile?: RestoreChange['profile']): JournalRequest[] {
  const requests: JournalRequest[] = [];
  const extras = profile && (profile.address || profile.organisation);
  const needsV2 = spec.jobTitle !== null || spec.activationDate !== undefined || Boolean(extras);
  let later: MemberUpdate = {};
  if (needsV2) {
    const user: MemberBodyV2['user'] = {
      username: spec.username,
      name: spec.name,
      email: spec.email,
      enabled: spec.enabled,
    };
    if (spec.jobTitle !== null) user.jobTitle = spec.jobTitle;
    if (profile?.telephone) user.telephone = profile.telephone;
    if (profile?.address) user.address = profile.address;
    if (profile?.organisation) user.organisation = profile.organisation;
    requests.push({
      method: 'v2.create',
      body: {
        user,
        accountPermission: spec.accountPermission,
        ...(spec.activationDate !== undefined
          ? { activationType: 'custom' as const, activationDate: spec.activationDate }
          : { activationType: 'now' as const }),
      },
    });
    const groups = updateRequests(
      { fields: { tags: spec.tags }, groups: groupsRecord(spec.groups) },
      {
        ...EMPTY_BEFORE(spec.username),
      },
    ).find((r) => r.method === 'v3.update');
    if (groups?.method === 'v3.update') later = { ...groups.body };
  } else {
    const body: MemberCreate = {
      username: spec.username,
      name: spec.name,
      email: spec.email,
      enabled: spec.enabled,
      rights: spec.accountPermission,
      ...(profile?.telephone ? { phone: profile.telephone } : {}),
      ...(spec.tags.length > 0 ? { tags: [...spec.tags] } : {}),
      ...(spec.groups.size > 0 ? { assignGroups: groupsRecord(spec.groups) } : {}),
    };
    requests.push({ method: 'v3.create', body });
  }
  if (spec.locked) later.lock = true;
  if (Object.keys(later).length > 0) requests.push({ method: 'v3.update', body: later });
  return requests;
}

function targetOfSpec(spec: NewMemberSpec): MemberTarget {
  return {
    fields: {
      name: spec.name,
      email: spec.email,
      jobTitle: spec.jobTitle,
      enabled: spec.enabled,
      locked: spec.locked,
      accountPermission: spec.accountPermission,
      tags: spec.tags,
    },
    groups: groupsRecord(spec.groups),
  };
}

const EMPTY_BEFORE = (username: string): MemberBefore => ({
  username,
  name: '',
  email: '',
  jobTitle: null,
  enabled: true,
  locked: false,
  accountPermission: null,
  tags: [],
  twoFactor: false,
  lastModified: null,
  groups: {},
});

/** The plan's chosen changes as work items, one per member, in plan order. */
export function workOf(plan: Plan, changes: readonly PlanChange[]): JournalWork[] {
  const byMember = new Map<string, PlanChange[]>();
  for (const c of changes) {
    const key = c.username.toLowerCase();
    const list = byMember.get(key);
    if (list) list.push(c);
    else byMember.set(key, [c]);
  }
  const work: JournalWork[] = [];
  for (const [key, list] of byMember) {
    const first = list[0] as PlanChange;
    const base = { seq: work.length, username: first.username, row: first.row, changeIds: list.map((c) => c.id) };
    const created = list.find((c) => c.kind === 'create' || c.kind === 'restore');
    if (created && (created.kind === 'create' || created.kind === 'restore')) {
      const names: Record<string, string> = {};
      for (const g of plan.groups) if (created.member.groups.has(g.id)) names[String(g.id)] = g.name;
      work.push({
        ...base,
        action: created.kind === 'create' ? 'create' : 'restore',
        before: null,
        after: targetOfSpec(created.member),
        requests: createRequests(created.member, created.kind === 'restore' ? created.profile : undefined),
        groupNames: names,
        permanent: false,
      });
      continue;
    }
    const before = plan.before.get(key) ?? EMPTY_BEFORE(first.username);
    const removal = list.find((c) => (c.kind === 'absent' && c.action === 'remove') || c.kind === 'uncreate');
    if (removal && (removal.kind === 'absent' || removal.kind === 'uncreate')) {
      work.push({
        ...base,
        action: 'remove',
        before,
        after: null,
        requests: [{ method: 'v3.delete' }],
        groupNames: {},
        permanent: removal.permanent,
      });
      continue;
    }
    const fields: Record<string, unknown> = {};
    const groups: Record<string, GroupLevel> = {};
    const groupNames: Record<string, string> = {};
    let disables = false;
    for (const c of list) {
      if (c.kind === 'field') {
        fields[c.field] = c.after;
        if (c.field === 'enabled' && !c.after) disables = true;
      } else if (c.kind === 'group') {
        groups[String(c.groupId)] = c.after;
        groupNames[String(c.groupId)] = c.groupName;
      } else if (c.kind === 'absent') {
        fields.enabled = false;
        disables = true;
      }
    }
    const after: MemberTarget = { fields: fields as Fields, groups };
    work.push({
      ...base,
      action: disables && list.length === 1 ? 'disable' : 'update',
      before,
      after,
      requests: updateRequests(after, before),
      groupNames,
      permanent: false,
    });
  }
  return work;
}

// ---------------------------------------------------------------------------------------------------------------
// Running work
// ---------------------------------------------------------------------------------------------------------------

type Outcome = {
  result: Exclude<ReportResult, 'not-started'>;
  message: string;
  kind?: PortalErrorKind | 'unexpected';
  /** The client was closed under the request (a reload): whether it landed is unknown, so no outcome is journaled. */
  unconfirmed?: boolean;
};

/** Failures that every later member would meet too: the run stops starting members, as on cancel. */
const STOPPING: ReadonlySet<PortalErrorKind | 'unexpected'> = new Set<PortalErrorKind | 'unexpected'>([
  'signed-out',
  'auth',
  'rate-limited',
  'cancelled',
]);

function failure(error: unknown): Outcome {
  if (error instanceof PortalError) return { result: 'failed', message: error.message, kind: error.kind };
  return { result: 'failed', message: error instanceof Error ? error.message : String(error), kind: 'unexpected' };
}

/** A run in progress: the shared state of applyPlan and resumeApply. */
export class Runner {
  requests = 0;
  private groups: Promise<PortalGroup[]> | undefined;

  constructor(
    readonly client: ApplyClient,
    readonly accountId: number,
    readonly journal: Journal,
    readonly options: Pick<ApplyOptions, 'snapshotFolder'>,
  ) {}

  async send(username: string, request: JournalRequest): Promise<Member | undefined> {
    const c = this.client;
    const a = this.accountId;
    this.requests++;
    switch (request.method) {
      case 'v3.create':
        return c.v3.members.create(a, request.body);
      case 'v2.create':
        await c.v2.members.create(a, request.body);
        return undefined;
      case 'v3.update':
        return c.v3.members.update(a, username, request.body);
      case 'v2.update':
        await c.v2.members.update(a, username, request.body);
        return undefined;
      case 'v3.delete':
        await c.v3.members.delete(a, username);
        return undefined;
    }
  }

  private knownGroups(): Promise<PortalGroup[]> {
    this.groups ??= readGroups(this.client, this.accountId).then((g) => {
      this.requests++;
      return g;
    });
    return this.groups;
  }

  /** The member's full values with every group (for a removal's journal line and snapshot). */
  async readWhole(username: string): Promise<{ before: MemberBefore; snapshot?: string } | undefined> {
    let member: Member;
    try {
      this.requests++;
      member = await this.client.v3.members.get(this.accountId, username);
    } catch (error) {
      if (isPortalError(error, 'not-found')) return undefined;
      throw error;
    }
    this.requests++;
    const v2 = await this.client.v2.members.get(this.accountId, username);
    const groups = await this.knownGroups();
    const before = memberBefore({ ...portalMemberOf(member), groups: groupLevelsOf(v2.groups, groups) });
    if (!member.memberOfMultipleAccounts && this.options.snapshotFolder) {
      const snapshot = snapshotFrom(this.accountId, member, v2, groups, Date.now(), this.client.baseUrl);
      return { before, snapshot: await writeSnapshot(this.options.snapshotFolder, snapshot) };
    }
    return { before };
  }

  /** Runs one member's work: intent (durable), requests in order, outcome. */
  async run(
    work: JournalWork,
    requests: readonly JournalRequest[] = work.requests,
    before = work.before,
  ): Promise<Outcome> {
    let snapshot: string | undefined;
    try {
      if (work.action === 'remove') {
        const whole = await this.readWhole(work.username);
        if (!whole)
          return await this.finish(work, { result: 'skipped', message: 'Not on the portal any more.' }, before);
        if (work.permanent && !whole.snapshot)
          return await this.finish(
            work,
            {
              result: 'failed',
              message: 'No snapshot folder was given; a member deleted for good needs a snapshot first.',
            },
            whole.before,
          );
        before = whole.before;
        snapshot = whole.snapshot;
      }
      if (requests.length === 0)
        return await this.finish(work, { result: 'skipped', message: 'Already as planned.' }, before);
      await this.journal.append({ type: 'intent', seq: work.seq, before, requests, ...(snapshot ? { snapshot } : {}) });
    } catch (error) {
      const o = failure(error);
      return o.kind === 'cancelled' ? { ...o, unconfirmed: true } : o;
    }
    let sent = 0;
    try {
      for (const r of requests) {
        await this.send(work.username, r);
        sent++;
      }
      return await this.outcome(work, { result: 'done', message: '' });
    } catch (error) {
      const o = failure(error);
      // The apply never aborts a request it sent, so 'cancelled' means the client was closed under it (a window
      // reload): the intent stays without an outcome and a resume reads the member to find out.
      if (o.kind === 'cancelled') return { ...o, unconfirmed: true };
      const message =
        sent > 0 ? `${o.message} (${sent} of ${requests.length} requests for this member were applied.)` : o.message;
      return await this.outcome(work, { ...o, message });
    }
  }

  private async finish(work: JournalWork, o: Outcome, before: MemberBefore | null): Promise<Outcome> {
    await this.journal.append({ type: 'intent', seq: work.seq, before, requests: [] });
    return this.outcome(work, o);
  }

  async outcome(work: JournalWork, o: Outcome): Promise<Outcome> {
    await this.journal.append({ type: 'outcome', seq: work.seq, result: o.result, message: o.message });
    return o;
  }
}

/** Runs `items` with the budget, cancel and progress rules; `each` does one member. */
export async function runWork(
  runner: Runner,
  items: readonly JournalWork[],
  options: Pick<ApplyOptions, 'signal' | 'onProgress' | 'concurrency' | 'budgetPollMs'>,
  each: (work: JournalWork) => Promise<Outcome>,
): Promise<{ outcomes: Map<number, Outcome>; cancelled: boolean; stoppedBy?: PortalErrorKind; unconfirmed: boolean }> {
  const concurrency = options.concurrency ?? DEFAULT_MAX_CONCURRENT;
  const outcomes = new Map<number, Outcome>();
  const stop = linkedSignal(options.signal, concurrency);
  const signal = stop.signal;
  const started = Date.now();
  let finished = 0;
  let failed = 0;
  let stoppedBy: PortalErrorKind | undefined;
  const budget = runner.client.budget;
  try {
    await runPool(
      items,
      concurrency,
      async (work) => {
        while (budget.used() >= budget.limit) {
          if (signal.aborted) return;
          await pause(options.budgetPollMs ?? 250, signal);
        }
        if (signal.aborted) return;
        const o = await each(work);
        outcomes.set(work.seq, o);
        finished++;
        if (o.result === 'failed') failed++;
        if (o.kind && o.kind !== 'unexpected' && STOPPING.has(o.kind) && !signal.aborted) {
          stoppedBy = o.kind;
          stop.dispose();
        }
        const elapsed = Date.now() - started;
        try {
          options.onProgress?.({
            done: finished,
            total: items.length,
            failed,
            requests: runner.requests,
            etaMs: Math.round((elapsed / finished) * (items.length - finished)),
            username: work.username,
          });
        } catch {
          // A throwing listener must not lose the report.
        }
      },
      signal,
    );
  } finally {
    stop.dispose();
  }
  const unconfirmed = [...outcomes.values()].some((o) => o.unconfirmed === true);
  return { outcomes, cancelled: options.signal?.aborted === true, unconfirmed, ...(stoppedBy ? { stoppedBy } : {}) };
}

/** Report rows for every work item: its outcome, or not started. */
export function reportRows(
  items: readonly JournalWork[],
  outcomes: ReadonlyMap<number, Outcome | { result: ReportResult; message: string }>,
): ReportRow[] {
  return items.map((w) => {
    const o = outcomes.get(w.seq);
    return {
      row: w.row,
      username: w.username,
      action: w.action as ReportAction,
      result: o?.result ?? 'not-started',
      message: o?.message ?? '',
      changeIds: w.changeIds,
    };
  });
}

/** Applies the plan minus the left-out changes. Throws only before the first request (journal folder unusable). */
export async function applyPlan(client: ApplyClient, plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  const items = workOf(plan, chosenChanges(plan, options.leftOut));
  const journal = await Journal.create(options.journalFolder, {
    accountId: plan.accountId,
    portalId: options.portalId,
    origin: plan.origin,
    startedAt: Date.now(),
    ...(options.undoOf ? { undoOf: options.undoOf } : {}),
    work: items,
  });
  const runner = new Runner(client, plan.accountId, journal, options);
  try {
    const run = await runWork(runner, items, options, (w) => runner.run(w));
    // A run cut off by a closed client has no end: the next start offers to resume it, members never started included.
    if (!run.unconfirmed) await journal.append({ type: 'end', finishedAt: Date.now(), cancelled: run.cancelled });
    return {
      applyId: journal.applyId,
      journalFile: journal.file,
      rows: reportRows(items, run.outcomes),
      requests: runner.requests,
      cancelled: run.cancelled,
      ...(run.stoppedBy ? { stoppedBy: run.stoppedBy } : {}),
    };
  } finally {
    await journal.close();
  }
}

export type { JournalRecord };
