/**
 * The plan of an invitation run: who is invited (each a unit, with what it would grant), and who is left out and why,
 * every person accounted for. It reads the organisation's invitations first: an address with one pending is not
 * invited twice, and a portal that refuses the list (no such endpoint, or no capability) is told before anything
 * is planned, once.
 */
import type { NotOfferedReason } from '../../api/index';
import { EMAIL, MAX_EMAIL } from '../../shared/memberRules';
import { addressKey, pendingAddresses, type InviteClient, type InviteUnit } from './model';

/** A person to invite, as a caller asks for them. */
export interface Invitee {
  readonly email: string;
  readonly mask: number;
  readonly groups: Readonly<Record<string, number>>;
}

export type LeftOutReason = 'bad-address' | 'twice' | 'pending' | 'member';

export interface InvitePlan {
  readonly accountId: number;
  readonly units: readonly InviteUnit[];
  readonly leftOut: ReadonlyArray<{ readonly email: string; readonly reason: LeftOutReason }>;
}

export type InvitePlanRead =
  | { readonly kind: 'planned'; readonly plan: InvitePlan }
  | { readonly kind: 'not-offered'; readonly reason: NotOfferedReason };

/** The plan from the people asked for, the addresses pending now and the members' addresses known (optional). */
export function planInvitations(
  accountId: number,
  people: readonly Invitee[],
  pending: ReadonlySet<string>,
  members: ReadonlySet<string> = new Set(),
): InvitePlan {
  const units: InviteUnit[] = [];
  const leftOut: Array<{ email: string; reason: LeftOutReason }> = [];
  const seen = new Set<string>();
  for (const p of people) {
    const email = p.email.trim();
    const key = addressKey(email);
    const reason: LeftOutReason | undefined =
      email.length > MAX_EMAIL || !EMAIL.test(email)
        ? 'bad-address'
        : seen.has(key)
          ? 'twice'
          : pending.has(key)
            ? 'pending'
            : members.has(key)
              ? 'member'
              : undefined;
    seen.add(key);
    if (reason) leftOut.push({ email, reason });
    else units.push({ seq: units.length, email, mask: p.mask, groups: { ...p.groups } });
  }
  return { accountId, units, leftOut };
}

/** Reads the organisation's invitations and plans; 'not-offered' when the portal refuses them. */
export async function readInvitePlan(
  client: InviteClient,
  accountId: number,
  people: readonly Invitee[],
  options: { readonly members?: ReadonlySet<string>; readonly signal?: AbortSignal } = {},
): Promise<InvitePlanRead> {
  const read = await client.observed.invitations(accountId, options.signal ? { signal: options.signal } : {});
  if (read.kind === 'not-offered') return { kind: 'not-offered', reason: read.reason };
  return {
    kind: 'planned',
    plan: planInvitations(accountId, people, pendingAddresses(read.value), options.members),
  };
}
