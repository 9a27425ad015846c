// Guest shares, invitations and sign-in audit events: resources public clients of the live service were seen to read
// (api-observations.md, "Other endpoints seen"); the spec has none of them. The records are what the emulator keeps;
// the serializers send exactly the observed fields, and where the observations give no field the README says which
// one is the emulator's own choice.
import type { User } from './model';
import { applicationUser } from './serialize-v3';
import type { Store } from './store';

export interface GuestShare {
  accountId: number;
  /** Who shared it: the observed `user` (whose user it is is not observed; the emulator sends the sharer). */
  userId: number;
  groupId: number;
  /** The shared file record (the observed `contentContext`, whose shape is not observed). */
  fileId: number;
  email: string;
  /** Content permission mask (spec 2.9). */
  permission: number;
  dateCreated: number;
  /** null: never expires. */
  dateExpire: number | null;
  passwordEnabled: boolean;
  notifications: boolean;
  component: string;
}

/** `request.status` NONE is pending (observed); the other values are the emulator's. */
export type InviteStatus = 'NONE' | 'ACCEPTED' | 'DECLINED';

export interface Invite {
  id: number;
  accountId: number;
  inviterId: number;
  targetName: string;
  type: string;
  /** The `parameters` JSON text as the inviter sent it. */
  parameters: string;
  status: InviteStatus;
  dateCreated: number;
}

export type AuditEventName = 'login' | 'signup';

export interface AuditEvent {
  accountId: number;
  userId: number;
  event: AuditEventName;
  date: number;
  ip: string;
}

export interface AccessData {
  shares: GuestShare[];
  invites: Invite[];
  audit: AuditEvent[];
  nextInviteId: number;
}

export const emptyAccessData = (): AccessData => ({ shares: [], invites: [], audit: [], nextInviteId: 1 });

/** The observed share fields, in the observed names. */
export function shareV3(store: Store, s: GuestShare): Record<string, unknown> {
  const file = store.files.get(s.fileId);
  return {
    user: applicationUser(store.users.get(s.userId)),
    // Not observed: the emulator's own shape, which a client must show as sent rather than read.
    contentContext: { objectType: 'file', objectId: s.fileId, group: s.groupId, name: file?.name ?? null },
    dateCreated: s.dateCreated,
    dateExpire: s.dateExpire,
    email: s.email,
    permission: s.permission,
    passwordEnabled: s.passwordEnabled,
    notifications: s.notifications,
    component: s.component,
  };
}

/** The observed create fields, `request.status`, and the emulator's `id` and `dateCreated`. */
export function inviteV3(i: Invite): Record<string, unknown> {
  return {
    id: i.id,
    targetName: i.targetName,
    type: i.type,
    parameters: i.parameters,
    request: { status: i.status },
    dateCreated: i.dateCreated,
  };
}

/** The audit answer's shape is not observed at all: this one is the emulator's invention. */
export function auditV3(u: User | undefined, e: AuditEvent): Record<string, unknown> {
  return {
    event: e.event,
    date: e.date,
    ip: e.ip,
    user: u ? { id: u.id, username: u.username, name: u.name } : null,
  };
}
