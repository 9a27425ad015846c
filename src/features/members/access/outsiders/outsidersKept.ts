/**
 * The outsiders and sign-ins as the access store's file keeps them, read back. The file is ours, but a value that is
 * not what was written (an older version, an edit) is dropped rather than trusted: the next read brings it again.
 * No VS Code here.
 */
import type { GuestShare, Invitation, NotOfferedReason } from '../../../../api/index';
import type { OutsiderGroup, OutsidersRecord, SignInRecord } from './outsiders.protocol';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const numOr = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const boolOr = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const reason = (v: unknown): NotOfferedReason | undefined => (v === 'absent' || v === 'capability' ? v : undefined);

function share(v: unknown): GuestShare | undefined {
  if (!isObj(v)) return undefined;
  const place = isObj(v.place) && numOr(v.place.groupId) !== null ? v.place : undefined;
  return {
    email: strOr(v.email),
    permission: numOr(v.permission),
    dateCreated: numOr(v.dateCreated),
    dateExpire: numOr(v.dateExpire),
    passwordEnabled: boolOr(v.passwordEnabled),
    notifications: boolOr(v.notifications),
    contentContext: strOr(v.contentContext),
    place: place ? { groupId: numOr(place.groupId) ?? 0, recordId: numOr(place.recordId) } : null,
    user: strOr(v.user),
    component: strOr(v.component),
  };
}

function invitation(v: unknown): Invitation | undefined {
  if (!isObj(v)) return undefined;
  const p = isObj(v.parameters) ? v.parameters : undefined;
  const groups = p && Array.isArray(p.groups) ? p.groups.filter(isObj) : [];
  return {
    id: numOr(v.id),
    targetName: strOr(v.targetName),
    type: strOr(v.type),
    status: strOr(v.status),
    pending: v.pending === true,
    parameters: p
      ? {
          mask: numOr(p.mask),
          groups: groups.map((g) => ({ groupId: strOr(g.groupId) ?? '', permission: numOr(g.permission) })),
        }
      : null,
    parametersAsSent: strOr(v.parametersAsSent),
    dateCreated: numOr(v.dateCreated),
  };
}

function listOr<T>(v: unknown, item: (x: unknown) => T | undefined): T[] | NotOfferedReason | undefined {
  const r = reason(v);
  if (r) return r;
  if (!Array.isArray(v)) return undefined;
  return v.map(item).filter((x): x is T => x !== undefined);
}

export function keptOutsiders(v: unknown): OutsidersRecord | undefined {
  if (!isObj(v)) return undefined;
  const at = numOr(v.at);
  const shares = listOr(v.shares, share);
  const invitations = listOr(v.invitations, invitation);
  if (at === null || shares === undefined || invitations === undefined) return undefined;
  const groups: OutsiderGroup[] = (Array.isArray(v.groups) ? v.groups : []).filter(isObj).flatMap((g) => {
    const id = numOr(g.id);
    const name = strOr(g.name);
    return id !== null && name !== null ? [{ id, name, label: strOr(g.label) ?? name }] : [];
  });
  const paths: Record<string, string> = {};
  if (isObj(v.paths)) for (const [k, p] of Object.entries(v.paths)) if (typeof p === 'string') paths[k] = p;
  return { at, shares, invitations, groups, paths };
}

export function keptSignIns(v: unknown): SignInRecord | undefined {
  if (!isObj(v)) return undefined;
  const at = numOr(v.at);
  if (at === null) return undefined;
  if (v.kind === 'refused') {
    const r = reason(v.reason);
    return r ? { kind: 'refused', at, reason: r } : undefined;
  }
  if (v.kind === 'not-understood') return { kind: 'not-understood', at, why: strOr(v.why) ?? '' };
  if (v.kind !== 'read' || !isObj(v.last)) return undefined;
  const last: Record<string, number> = {};
  for (const [k, t] of Object.entries(v.last)) if (typeof t === 'number') last[k] = t;
  return { kind: 'read', at, dateStart: strOr(v.dateStart) ?? '', complete: v.complete === true, last };
}
