/**
 * Invitations as a kind of the engine's work: one unit is one e-mail address invited to an organisation, with the
 * organisation permission (`mask`) and the groups it would grant when accepted. The endpoint is an observed one
 * (api/endpoints/observed.ts); nothing observed withdraws an invitation, so a run has no undo and its plan says so
 * before anything is sent.
 */
import type { Invitation, Offered, PortalClient } from '../../api/index';
import type { JournalRecordOf, Unit } from '../job';

export interface InviteUnit extends Unit {
  /** The address invited (the observed `targetName`). */
  readonly email: string;
  /** The organisation permission the invitation would grant (spec 2.9: 1, 4 or 16). */
  readonly mask: number;
  /** Group id (as the observed body keys it) → group permission (1, 4 or 16). */
  readonly groups: Readonly<Record<string, number>>;
}

/** An invitation replaces nothing: there are no values before. */
export type InviteBefore = null;

/** What the journal keeps of the request: the address it was sent to. */
export interface InviteRequest {
  readonly targetName: string;
}

/** Where a run came from: Invite Members… itself, or an import's "invite instead of create". */
export type InviteOrigin = 'invite' | 'import';

export type InviteRecord = JournalRecordOf<InviteUnit, InviteBefore, InviteRequest, InviteOrigin>;

/** What the kind needs of a client. */
export type InviteClient = Pick<PortalClient, 'budget'> & {
  readonly observed: Pick<PortalClient['observed'], 'invite' | 'invitations'>;
};

/** The organisation's invitations as the plan and a resume read them. */
export type InvitationsRead = Offered<Invitation[]>;

/** An address as the portal compares them (the emulator, and every mail system, ignore case). */
export const addressKey = (email: string): string => email.trim().toLowerCase();

/** The addresses with an invitation pending (request.status NONE). */
export function pendingAddresses(invitations: readonly Invitation[]): Set<string> {
  return new Set(invitations.filter((i) => i.pending && i.targetName).map((i) => addressKey(i.targetName ?? '')));
}
