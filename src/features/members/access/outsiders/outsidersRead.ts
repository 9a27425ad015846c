/**
 * Reading who reaches an organisation from outside its member list, and when its members last signed in: the guest
 * shares (one request a page), the pending invitations (one a page), the group list (one, to place shares and name
 * an invite's groups), the paths of a few shared records, and the audit's sign-ins (one a page). Every request goes
 * through the client, whose scheduler keeps it within the budget. A portal that refuses an endpoint (404: not there;
 * 403: not the sign-in's capability) is a refusal kept with the read, never an error. No VS Code here.
 */
import type { PortalClient } from '../../../../api/index';
import type { OutsiderGroup, OutsidersRecord, SignInRecord } from './outsiders.protocol';

/** Shared records whose path one read resolves (one request each); the rest are shown as the portal sent them. */
export const MAX_PATHS_RESOLVED = 50;
/** How far back the audit is read for sign-ins. */
export const SIGN_IN_DAYS = 365;
/** Record reads that fail in a row before the rest are left unresolved (a portal without the single-record read). */
const MAX_PATH_FAILURES = 3;

export type OutsidersClient = Pick<PortalClient, 'observed'> & {
  readonly v2: {
    readonly groups: { list: PortalClient['v2']['groups']['list'] };
    readonly files: { get: PortalClient['v2']['files']['get'] };
  };
};

async function groupsOf(client: OutsidersClient, accountId: number, signal: AbortSignal): Promise<OutsiderGroup[]> {
  try {
    const groups = await client.v2.groups.list(accountId, undefined, { signal });
    return groups.map((g) => ({ id: g.id, name: g.name, label: g.friendlyName || g.name }));
  } catch (error) {
    if (signal.aborted) throw error;
    // Without the list, shares are not placed and an invite's groups are named by id.
    return [];
  }
}

/** The paths of the first shared records placed in the organisation's groups, as the portal names them. */
async function pathsOf(
  client: OutsidersClient,
  accountId: number,
  places: ReadonlyArray<{ groupId: number; recordId: number }>,
  signal: AbortSignal,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let failures = 0;
  for (const { groupId, recordId } of places.slice(0, MAX_PATHS_RESOLVED)) {
    try {
      const r = await client.v2.files.get(accountId, groupId, recordId, { signal });
      failures = 0;
      // Only a record that is the one asked for names the share.
      if (r.id !== recordId) continue;
      const name = r.friendlyName || r.name;
      out[String(recordId)] = [...r.path.map((p) => p.name).filter((n) => n !== ''), name].join('/');
    } catch (error) {
      if (signal.aborted) throw error;
      if (++failures >= MAX_PATH_FAILURES) break;
    }
  }
  return out;
}

export async function readOutsiders(
  client: OutsidersClient,
  accountId: number,
  signal: AbortSignal,
  now = Date.now(),
): Promise<OutsidersRecord> {
  const [shares, invitations, groups] = await Promise.all([
    client.observed.guestShares({ signal }),
    client.observed.invitations(accountId, { signal }),
    groupsOf(client, accountId, signal),
  ]);
  const ids = new Set(groups.map((g) => g.id));
  const places = new Map<number, { groupId: number; recordId: number }>();
  if (shares.kind === 'offered')
    for (const s of shares.value)
      if (s.place?.recordId && ids.has(s.place.groupId))
        places.set(s.place.recordId, { groupId: s.place.groupId, recordId: s.place.recordId });
  const paths = places.size > 0 ? await pathsOf(client, accountId, [...places.values()], signal) : {};
  return {
    at: now,
    shares: shares.kind === 'offered' ? shares.value : shares.reason,
    invitations: invitations.kind === 'offered' ? invitations.value : invitations.reason,
    groups,
    paths,
  };
}

/** The day the audit is read from: SIGN_IN_DAYS before `now`, as YYYY-MM-DD (UTC). */
export function signInStart(now: number): string {
  return new Date(now - SIGN_IN_DAYS * 86_400_000).toISOString().slice(0, 10);
}

export async function readSignIns(
  client: Pick<PortalClient, 'observed'>,
  accountId: number,
  signal: AbortSignal,
  now = Date.now(),
): Promise<SignInRecord> {
  const answer = await client.observed.signIns(accountId, signInStart(now), { signal });
  if (answer.kind === 'not-offered') return { kind: 'refused', at: now, reason: answer.reason };
  const s = answer.value;
  if (s.kind === 'not-understood') return { kind: 'not-understood', at: now, why: s.why };
  return { kind: 'read', at: now, dateStart: s.dateStart, complete: s.complete, last: Object.fromEntries(s.last) };
}
