/**
 * An organisation's guest shares and pending invitations, with the names of the groups the invitations would grant:
 * what every feature that lists people from outside the organisation reads, in one place. Both lists come from
 * observed endpoints (endpoints/observed.ts); a refused one comes back as not offered, and the group names are read
 * only when a pending invitation needs them, and left out (ids shown) when that read fails.
 */
import type { PortalClient } from './client';
import type { GuestShare, Invitation } from './models/guests';
import type { Offered } from './endpoints/observed';

export interface GuestsAndInvitations {
  readonly shares: Offered<GuestShare[]>;
  readonly invitations: Offered<Invitation[]>;
  /** Group names by id, for the invitations' groups. */
  readonly groupNames: ReadonlyMap<string, string>;
}

export async function readGuestsAndInvitations(
  client: PortalClient,
  accountId: number,
  signal: AbortSignal,
): Promise<GuestsAndInvitations> {
  const [shares, invitations] = await Promise.all([
    client.observed.guestShares({ signal }),
    client.observed.invitations(accountId, { signal }),
  ]);
  const needsNames = invitations.kind === 'offered' && invitations.value.some((i) => i.pending);
  const groupNames = needsNames
    ? await client.v2.groups.list(accountId, undefined, { signal }).then(
        (groups) => new Map(groups.map((g) => [String(g.id), g.friendlyName || g.name])),
        () => new Map<string, string>(),
      )
    : new Map<string, string>();
  return { shares, invitations, groupNames };
}
