/**
 * Runs invitations through the engine: the journal's first line holds every address to invite, then each is sent as
 * a unit under the engine's loop (within the request budget, cancellable, resumable). Invitation journals live in
 * their own folder (`<storage>/invitations/journal/`), so the members' resume and history never meet one.
 */
import { join } from 'node:path';
import type { PortalErrorKind } from '../../api/index';
import type { UnitOutcome } from '../job';
import { discardJournal, Journal, listJournals, unfinishedJournals } from '../journalFile';
import { runJournaled, type RunProgress } from '../runner';
import { inviteJournal } from './journalSchema';
import { InviteKind } from './kind';
import type { InviteBefore, InviteClient, InviteOrigin, InviteRecord, InviteRequest, InviteUnit } from './model';

export interface InviteRun {
  readonly storageFolder: string;
  readonly portalId: string;
  readonly accountId: number;
  readonly origin: InviteOrigin;
  /** The run in the user's words ("Invite 3 people to Acme"), for the resume offer. */
  readonly title: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RunProgress<InviteUnit>) => void;
}

export interface InviteResult {
  readonly applyId: string;
  readonly work: readonly InviteUnit[];
  /** Outcome by unit seq, this run's and (on a resume) those journaled before. */
  readonly outcomes: ReadonlyMap<number, Pick<UnitOutcome, 'result' | 'message'>>;
  readonly requests: number;
  readonly cancelled: boolean;
  readonly stoppedBy?: PortalErrorKind;
  /** A request was cut off by the client closing (a reload): the next start offers to resume. */
  readonly unconfirmed: boolean;
}

export const invitationsFolderOf = (storage: string): string => join(storage, 'invitations');

async function runKind(
  journal: Journal<InviteUnit, InviteBefore, InviteRequest, InviteOrigin>,
  client: InviteClient,
  work: readonly InviteUnit[],
  units: readonly InviteUnit[],
  earlier: ReadonlyMap<number, Pick<UnitOutcome, 'result' | 'message'>>,
  options: Pick<InviteRun, 'signal' | 'onProgress'>,
  each: (kind: InviteKind, u: InviteUnit, c: Parameters<InviteKind['run']>[1]) => Promise<UnitOutcome>,
  accountId: number,
): Promise<InviteResult> {
  const kind = new InviteKind(client, accountId);
  // One at a time: a portal that refuses invitations says so in its first answer, and nothing more is sent (an
  // organisation invites tens of people at once, so the time this costs is small).
  const options_ = { budget: client.budget, concurrency: 1, signal: options.signal, onProgress: options.onProgress };
  const run = await runJournaled(journal, units, options_, (u, c) => each(kind, u, c));
  const outcomes = new Map<number, Pick<UnitOutcome, 'result' | 'message'>>(earlier);
  for (const [seq, o] of run.outcomes) if (!o.unconfirmed) outcomes.set(seq, o);
  const { requests, cancelled, unconfirmed, stoppedBy } = run;
  return {
    applyId: journal.applyId,
    work,
    outcomes,
    requests,
    cancelled,
    unconfirmed,
    ...(stoppedBy ? { stoppedBy } : {}),
  };
}

/** Sends the invitations: the journal first (whole), then each. Throws only before the first request. */
export async function runInvitations(
  client: InviteClient,
  units: readonly InviteUnit[],
  run: InviteRun,
): Promise<InviteResult> {
  const journal = await Journal.create(inviteJournal, invitationsFolderOf(run.storageFolder), {
    accountId: run.accountId,
    portalId: run.portalId,
    origin: run.origin,
    startedAt: Date.now(),
    title: run.title,
    work: units,
  });
  return runKind(journal, client, units, units, new Map(), run, (k, u, c) => k.run(u, c), run.accountId);
}

/** Goes on with invitations that stopped (a reload, a crash): an address invited before is not invited again. */
export async function resumeInvitations(
  client: InviteClient,
  stale: Pick<InviteRecord, 'file'>,
  options: Pick<InviteRun, 'signal' | 'onProgress'> = {},
): Promise<InviteResult> {
  const { journal, record } = await Journal.reopen(inviteJournal, stale);
  const left = record.begin.work.filter((u) => !record.outcomes.has(u.seq));
  return runKind(
    journal,
    client,
    record.begin.work,
    left,
    record.outcomes,
    options,
    (k, u, c) => k.resume(u, record.intents.get(u.seq), c),
    record.begin.accountId,
  );
}

/** Invitation runs that stopped without finishing, newest first (a locked one is running and is not listed). */
export function unfinishedInvitations(storage: string): Promise<InviteRecord[]> {
  return unfinishedJournals(inviteJournal, invitationsFolderOf(storage));
}

/** Every invitation run, newest first. */
export function invitationRuns(storage: string): Promise<InviteRecord[]> {
  return listJournals(inviteJournal, invitationsFolderOf(storage));
}

/** Leaves a stopped run as it is: the next start no longer offers it. */
export function discardInvitations(record: Pick<InviteRecord, 'file'>): Promise<void> {
  return discardJournal(inviteJournal, record);
}
