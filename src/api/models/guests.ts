/**
 * Guest shares, invitations and the sign-in audit, parsed at the edge. None of these is in the spec: the fields come
 * from api-observations.md ("Other endpoints seen"), and a field whose meaning the observations do not give is kept
 * as the portal sent it (`AsSent`), for a reader to see rather than for this code to interpret.
 */
import * as read from './read';
// Bound once, not imported by name: see the note at the top of read.ts.
const { asObject, boolOrNull, jsonOrUndefined, numOrNull, strOrNull } = read;

/** Longest text kept of a value shown as sent: a hostile portal cannot make one row a megabyte. */
export const MAX_AS_SENT_CHARS = 500;

/** A value whose meaning is not observed, as compact text of what the portal sent (null when it sent none). */
export type AsSent = string | null;

/** Text of any JSON value as sent: strings as they are, everything else as JSON; cut at MAX_AS_SENT_CHARS. */
export function asSent(value: unknown): AsSent {
  if (value === undefined || value === null) return null;
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > MAX_AS_SENT_CHARS ? `${text.slice(0, MAX_AS_SENT_CHARS - 1)}…` : text;
}

/** One guest share of GET /v3/shares: `{user, contentContext, dateCreated, dateExpire, email, permission, …}`. */
export interface GuestShare {
  email: string | null;
  /** The number sent; read as a content permission mask (spec 2.9) by whoever shows it. */
  permission: number | null;
  dateCreated: number | null;
  /** Null when the portal sent no date (no expiry date given). */
  dateExpire: number | null;
  passwordEnabled: boolean | null;
  notifications: boolean | null;
  /** What is shared: its shape is not observed. */
  contentContext: AsSent;
  /**
   * Where contentContext can be placed: only when it is an object naming a group (`group`, a number or an object with
   * a numeric `id`), and then the record too when it names one as the spec's contextKey does (`objectId`). Null for
   * any other shape; a reader confirms the place (the group is the organisation's, the record reads) before naming it.
   */
  place: { groupId: number; recordId: number | null } | null;
  /** Whose user this is (the sharer, the guest) is not observed. */
  user: AsSent;
  component: AsSent;
}

function placeOf(contentContext: unknown): GuestShare['place'] {
  const c = asObject(contentContext);
  if (!c) return null;
  const group = asObject(c.group);
  const groupId = group ? numOrNull(group, 'id') : numOrNull(c, 'group');
  if (groupId === null || !Number.isSafeInteger(groupId) || groupId <= 0) return null;
  const recordId = numOrNull(c, 'objectId');
  return { groupId, recordId: recordId !== null && Number.isSafeInteger(recordId) && recordId > 0 ? recordId : null };
}

export function parseGuestShare(json: unknown): GuestShare {
  const o = asObject(json) ?? {};
  return {
    email: strOrNull(o, 'email'),
    permission: numOrNull(o, 'permission'),
    dateCreated: numOrNull(o, 'dateCreated'),
    dateExpire: numOrNull(o, 'dateExpire'),
    passwordEnabled: boolOrNull(o, 'passwordEnabled'),
    notifications: boolOrNull(o, 'notifications'),
    contentContext: asSent(o.contentContext),
    place: placeOf(o.contentContext),
    user: asSent(o.user),
    component: asSent(o.component),
  };
}

/** A row's identity for de-duplicating pages: shares carry no id in the observations. */
export function guestShareKey(s: GuestShare): string {
  return JSON.stringify([s.email, s.contentContext, s.dateCreated, s.permission]);
}

/** `parameters` of an invitation: JSON text of `{mask, groups: {groupId: permission}, extras}` (observed). */
export interface InvitationParameters {
  mask: number | null;
  /** Group id as sent (a key of `groups`) and the number sent for it. */
  groups: Array<{ groupId: string; permission: number | null }>;
}

/** One invitation of GET /v3/accounts/{account}/invites. */
export interface Invitation {
  /** Not in the observations; read when the portal sends one. */
  id: number | null;
  /** The e-mail address invited (`targetName`). */
  targetName: string | null;
  type: string | null;
  /** `request.status` as sent; NONE means pending (observed). */
  status: string | null;
  pending: boolean;
  /** Null when `parameters` is not JSON text of an object. */
  parameters: InvitationParameters | null;
  /** `parameters` as sent, for when it cannot be read. */
  parametersAsSent: AsSent;
  /** Not in the observations; read when the portal sends one (the emulator does). */
  dateCreated: number | null;
}

function parseParameters(value: unknown): InvitationParameters | null {
  const o = asObject(typeof value === 'string' ? jsonOrUndefined(value) : value);
  if (!o) return null;
  const groups = asObject(o.groups) ?? {};
  return {
    mask: numOrNull(o, 'mask'),
    groups: Object.keys(groups).map((groupId) => ({ groupId, permission: numOrNull(groups, groupId) })),
  };
}

export function parseInvitation(json: unknown): Invitation {
  const o = asObject(json) ?? {};
  const status = strOrNull(asObject(o.request) ?? {}, 'status');
  return {
    id: numOrNull(o, 'id'),
    targetName: strOrNull(o, 'targetName'),
    type: strOrNull(o, 'type'),
    status,
    pending: status === 'NONE',
    parameters: parseParameters(o.parameters),
    parametersAsSent: asSent(o.parameters),
    dateCreated: numOrNull(o, 'dateCreated'),
  };
}

export function invitationKey(i: Invitation): string {
  return i.id !== null ? `id:${i.id}` : JSON.stringify([i.targetName, i.parametersAsSent, i.dateCreated]);
}

/** What to ask for when inviting: the observed POST body, `parameters` made into JSON text here. */
export interface InvitationDraft {
  targetName: string;
  mask: number;
  groups: Readonly<Record<string, number>>;
}

/** One audit entry: each field as the portal sent it, since the answer's shape is not observed. */
export interface AuditEntry {
  fields: Array<{ name: string; value: AsSent }>;
}

/**
 * The audit answer. Its shape is not observed: a list of objects (plain, or as the v3 envelope's `items`) is taken
 * as entries, field by field as sent; anything else is 'not-understood' and nothing is guessed from it.
 */
export type AuditAnswer =
  { kind: 'entries'; entries: AuditEntry[]; morePages: boolean } | { kind: 'not-understood'; asSent: AsSent };

/** Most entries kept of one audit answer. */
export const MAX_AUDIT_ENTRIES = 10_000;

export function parseAuditAnswer(json: unknown): AuditAnswer {
  const envelope = asObject(json);
  const list: unknown = Array.isArray(json) ? json : envelope?.items;
  if (!Array.isArray(list) || list.length > MAX_AUDIT_ENTRIES || !list.every((x) => asObject(x)))
    return { kind: 'not-understood', asSent: asSent(json) };
  const entries = list.map((x) => ({
    fields: Object.entries(asObject(x) ?? {}).map(([name, value]) => ({ name, value: asSent(value) })),
  }));
  return { kind: 'entries', entries, morePages: envelope ? boolOrNull(envelope, 'nextPage') === true : false };
}

/** One sign-in: who (their username, as the entry names it), which event, and when (ms). */
export interface SignIn {
  readonly username: string;
  readonly event: 'login' | 'signup';
  readonly at: number;
}

/**
 * One page of the audit read as sign-ins. The answer's shape is not observed, so only one reading is accepted, and
 * only when every entry fits it: `event` 'login' or 'signup', `date` a time in milliseconds (after 2000, not in the
 * future), and the member's username as `user.username` (or `username`). A page where any entry does not fit is
 * 'not-understood', with the first entry that did not and what the portal sent: nothing is guessed from it.
 */
export type SignInPage =
  | { kind: 'sign-ins'; signIns: SignIn[]; hasNext: boolean; entries: number }
  | { kind: 'not-understood'; why: string; asSent: AsSent };

const YEAR_2000_MS = Date.UTC(2000, 0, 1);
const SIGN_IN_EVENTS = ['login', 'signup'] as const;

function signInOf(entry: unknown, now: number): SignIn | string {
  const o = asObject(entry);
  if (!o) return 'not an object';
  const event = SIGN_IN_EVENTS.find((e) => e === o.event);
  if (!event) return 'no event login or signup';
  const at = o.date;
  if (typeof at !== 'number' || !Number.isFinite(at) || at < YEAR_2000_MS || at > now + 86_400_000)
    return 'no date in milliseconds';
  const user = asObject(o.user);
  const username = (user ? strOrNull(user, 'username') : null) ?? strOrNull(o, 'username');
  if (!username) return 'no username';
  return { username, event, at };
}

export function parseSignInPage(json: unknown, requestedSize: number, now = Date.now()): SignInPage {
  const envelope = asObject(json);
  const list: unknown = Array.isArray(json) ? json : envelope?.items;
  if (!Array.isArray(list) || list.length > MAX_AUDIT_ENTRIES)
    return { kind: 'not-understood', why: 'no list of entries', asSent: asSent(json) };
  const signIns: SignIn[] = [];
  for (const [i, entry] of list.entries()) {
    const s = signInOf(entry, now);
    if (typeof s === 'string') return { kind: 'not-understood', why: `entry ${i + 1}: ${s}`, asSent: asSent(entry) };
    signIns.push(s);
  }
  // Paged as v3 lists are observed to be: `nextPage`; a plain array, or a page short of its size, is the last.
  const next = envelope ? boolOrNull(envelope, 'nextPage') : null;
  const hasNext = next ?? (!Array.isArray(json) && list.length >= requestedSize && list.length > 0);
  return { kind: 'sign-ins', signIns, hasNext, entries: list.length };
}

/** Every member's last sign-in of an audit read, by username in lower case. */
export type SignIns =
  | {
      kind: 'sign-ins';
      /** Username (lower case) → the last login or signup seen. */
      last: Map<string, number>;
      /** The first day asked for (YYYY-MM-DD): no event before it was read. */
      dateStart: string;
      /** False when the read stopped at its bound: a member without an event may have one further on. */
      complete: boolean;
      pages: number;
      events: number;
    }
  | { kind: 'not-understood'; why: string; asSent: AsSent };
