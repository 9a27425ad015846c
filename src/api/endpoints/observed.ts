/**
 * Guest shares, invitations and the sign-in audit. The spec has none of these: every endpoint here is one that public
 * clients of the live service were seen to call (api-observations.md, "Other endpoints seen"), and there is no other.
 * (File writes, observed too, are in uploads.ts.)
 *
 *   GET  /v3/shares                          guest shares {user, contentContext, dateCreated, dateExpire, email,
 *                                            permission, passwordEnabled, notifications, component}; no organisation
 *                                            is named in the request, so it answers for the signed-in user.
 *   GET  /v3/accounts/{account}/invites      invitations; an item's request.status NONE means pending.
 *   POST /v3/accounts/{account}/invites      {targetName: <e-mail>, type: "ACCEPT_DECLINE",
 *                                            parameters: <JSON text of {mask, groups: {groupId: permission}, extras}>}
 *   GET  /v3/audit?account=…&dateStart=YYYY-MM-DD&events=login,signup
 *
 * Choices where the observations are silent, made here once:
 * - Shares and invitations are v3 lists, so they are walked as v3 lists are observed to be ({items, nextPage} from
 *   page=1); a plain array is taken whole. The audit names no paging: one request, and its answer's `nextPage` is
 *   only reported.
 * - The audit answer's shape is not observed: see parseAuditAnswer (entries field by field as sent, or "not
 *   understood"). Sign-ins (signIns) accept one reading of it, entry by entry, and walk it as a v3 list (page, size,
 *   `nextPage`); the first page that does not fit that reading ends the read as "not understood".
 * - A portal that has not got one of these answers 404 (or 405/501), and one where the signed-in user lacks the
 *   capability (GUESTS, INVITES, INVITES_CREATE, AUDIT) answers 403: both come back as a 'not-offered' outcome
 *   rather than an error, so a caller says it once and shows the rest. A 403 that asks to wait (Retry-After) is the
 *   request limit, not a refusal, and stays an error.
 */
import { PortalError } from '../errors';
import { seg } from '../http';
import {
  guestShareKey,
  invitationKey,
  parseAuditAnswer,
  parseGuestShare,
  parseInvitation,
  parseSignInPage,
  type AuditAnswer,
  type GuestShare,
  type Invitation,
  type InvitationDraft,
  type SignInPage,
  type SignIns,
} from '../models/guests';
import { jsonOrUndefined } from '../models/read';
import { ITERATE_PAGE_SIZE, collect, items, pageFromArray, parseEnvelope, type Page } from '../paging';
import type { ApiContext, CallOptions } from './context';

/** Why a portal gave no answer: it has no such endpoint, or the signed-in user lacks the capability. */
export type NotOfferedReason = 'absent' | 'capability';

export type Offered<T> =
  { kind: 'offered'; value: T } | { kind: 'not-offered'; reason: NotOfferedReason; status: number | undefined };

/** The events the observed audit request names. */
export type AuditEventName = 'login' | 'signup';

/** Most rows one listing collects (5,000 shares are 50 requests at the largest page). */
export const MAX_LISTED = 20_000;

/** Most audit pages one sign-in read asks for (100,000 events): past it the read says it is incomplete. */
export const MAX_AUDIT_PAGES = 1_000;

/** 'absent' or 'capability' when the portal refuses the endpoint itself; undefined for any other failure. */
export function notOfferedReason(e: unknown): NotOfferedReason | undefined {
  if (!(e instanceof PortalError) || e.fieldErrors) return undefined;
  if (e.status === 404 || e.status === 405 || e.status === 501) return 'absent';
  if (e.status === 403 && e.retryAfterMs === undefined) return 'capability';
  return undefined;
}

async function offered<T>(call: () => Promise<T>): Promise<Offered<T>> {
  try {
    return { kind: 'offered', value: await call() };
  } catch (e) {
    const reason = notOfferedReason(e);
    if (!reason) throw e;
    return { kind: 'not-offered', reason, status: e instanceof PortalError ? e.status : undefined };
  }
}

/** A v3 envelope, or a plain array taken as the whole list. */
function listPage<T>(json: unknown, parse: (item: unknown) => T, requested: { page: number; size: number }): Page<T> {
  if (Array.isArray(json)) return { ...pageFromArray(json.map(parse), requested), hasNext: false };
  return parseEnvelope('items', json, parse, requested);
}

export interface ListOptions extends CallOptions {
  /** Stop after this many rows (default MAX_LISTED). */
  limit?: number;
}

/** Walks a v3 list; only the first page's refusal is 'not-offered' (a later one is an error mid-walk). */
async function walk<T>(
  fetchPage: (query: { page: number; size: number }, o?: CallOptions) => Promise<Page<T>>,
  key: (item: T) => unknown,
  o: ListOptions | undefined,
): Promise<Offered<T[]>> {
  const first = await offered(() => fetchPage({ page: 1, size: ITERATE_PAGE_SIZE }, o));
  if (first.kind === 'not-offered') return first;
  const fetch = (page: number, size: number, signal?: AbortSignal): Promise<Page<T>> =>
    page === 1 ? Promise.resolve(first.value) : fetchPage({ page, size }, { signal });
  const rows = await collect(items(fetch, { size: ITERATE_PAGE_SIZE, signal: o?.signal, key }), o?.limit ?? MAX_LISTED);
  return { kind: 'offered', value: rows };
}

function postInvitation(api: ApiContext, path: string, draft: InvitationDraft, o?: CallOptions): Promise<Invitation> {
  const parameters = JSON.stringify({ mask: draft.mask, groups: draft.groups, extras: {} });
  return api.json(
    {
      method: 'POST',
      path,
      body: { targetName: draft.targetName, type: 'ACCEPT_DECLINE', parameters },
      signal: o?.signal,
    },
    parseInvitation,
  );
}

async function signInPage(api: ApiContext, accountId: number, dateStart: string, page: number, signal?: AbortSignal) {
  const size = ITERATE_PAGE_SIZE;
  const text = await api.text({
    method: 'GET',
    path: '/v3/audit',
    query: { account: accountId, dateStart, events: ['login', 'signup'], page, size },
    signal,
  });
  const json = jsonOrUndefined(text);
  if (json === undefined)
    return { kind: 'not-understood', why: 'not JSON', asSent: text.slice(0, 500) } satisfies SignInPage;
  return parseSignInPage(json, size);
}

async function walkSignIns(
  api: ApiContext,
  accountId: number,
  dateStart: string,
  o?: CallOptions & { maxPages?: number },
): Promise<SignIns> {
  const last = new Map<string, number>();
  const maxPages = o?.maxPages ?? MAX_AUDIT_PAGES;
  let events = 0;
  for (let page = 1; page <= maxPages; page++) {
    const answer = await signInPage(api, accountId, dateStart, page, o?.signal);
    if (answer.kind === 'not-understood') return answer;
    events += answer.entries;
    for (const s of answer.signIns) {
      const key = s.username.toLowerCase();
      if ((last.get(key) ?? -1) < s.at) last.set(key, s.at);
    }
    if (!answer.hasNext || answer.entries === 0)
      return { kind: 'sign-ins', last, dateStart, complete: true, pages: page, events };
  }
  return { kind: 'sign-ins', last, dateStart, complete: false, pages: maxPages, events };
}

export function createObserved(api: ApiContext) {
  const sharesPage = (q: { page: number; size: number }, o?: CallOptions): Promise<Page<GuestShare>> =>
    api.json({ method: 'GET', path: '/v3/shares', query: q, signal: o?.signal }, (j) =>
      listPage(j, parseGuestShare, q),
    );
  const invitesPath = (accountId: number) => `/v3/accounts/${seg(accountId)}/invites`;
  const invitesPage = (accountId: number, q: { page: number; size: number }, o?: CallOptions) =>
    api.json({ method: 'GET', path: invitesPath(accountId), query: q, signal: o?.signal }, (j) =>
      listPage(j, parseInvitation, q),
    );

  return {
    /** Every guest share the signed-in user may see (the request names no organisation). */
    guestShares: (o?: ListOptions): Promise<Offered<GuestShare[]>> => walk(sharesPage, guestShareKey, o),
    /** Every invitation of the organisation, pending or not. */
    invitations: (accountId: number, o?: ListOptions): Promise<Offered<Invitation[]>> =>
      walk((q, po) => invitesPage(accountId, q, po), invitationKey, o),
    /** Invites an e-mail address to the organisation (POST, observed body). */
    invite: (accountId: number, draft: InvitationDraft, o?: CallOptions): Promise<Offered<Invitation>> =>
      offered(() => postInvitation(api, invitesPath(accountId), draft, o)),
    /**
     * Sign-in events of the organisation from `dateStart` (YYYY-MM-DD). The answer is read as text, so even one that
     * is not JSON comes back as 'not-understood' with what was sent.
     */
    audit: (
      accountId: number,
      dateStart: string,
      events: readonly AuditEventName[] = ['login', 'signup'],
      o?: CallOptions,
    ): Promise<Offered<AuditAnswer>> =>
      offered(async () => {
        const text = await api.text({
          method: 'GET',
          path: '/v3/audit',
          query: { account: accountId, dateStart, events: [...events] },
          signal: o?.signal,
        });
        const json = jsonOrUndefined(text);
        return parseAuditAnswer(json === undefined ? text : json);
      }),
    /**
     * Every member's last login or signup since `dateStart` (YYYY-MM-DD), the audit walked a page at a time within
     * the budget. 'not-understood' (with why and what was sent) as soon as a page does not read as sign-ins.
     */
    signIns: (accountId: number, dateStart: string, o?: CallOptions & { maxPages?: number }) =>
      offered(() => walkSignIns(api, accountId, dateStart, o)),
  };
}

export type ObservedApi = ReturnType<typeof createObserved>;
