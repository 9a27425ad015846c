/**
 * The guests' and pending invitations' rows, in words, from what the access store keeps of a read: made on the host
 * (the words need the content rights and a plan's idea of power), sent to the page, written to the CSV.
 */
import * as l10n from '@vscode/l10n';
import type { GuestShare, Invitation } from '../../../../api/index';
import { contentRightsWords } from '../../../../shared/contentRights';
import { accountPermissionWords, groupPermissionWords } from '../../../../shared/permissions';
import { holdsPower } from '../../plan/core/elevation';
import {
  outsidersNote,
  refusalWords,
  signInNote,
  signInWire,
  type OutsiderGroup,
  type OutsiderRow,
  type OutsidersMessage,
  type OutsidersRecord,
  type SignInRecord,
} from './outsiders.protocol';

/** A guest can edit when the share's mask holds the content Edit bit or one above it (spec 2.9: 4, 8, 16). */
const EDIT_BITS = 4 | 8 | 16;

function shareGroup(s: GuestShare, groups: ReadonlyMap<number, OutsiderGroup>): OutsiderGroup | undefined {
  return s.place ? groups.get(s.place.groupId) : undefined;
}

function shareWhat(s: GuestShare, group: OutsiderGroup | undefined, paths: OutsidersRecord['paths']): string {
  const id = s.place?.recordId;
  const path = id !== null && id !== undefined ? paths[String(id)] : undefined;
  if (group && path !== undefined) return `${group.label} / ${path}`;
  if (s.contentContext === null) return l10n.t('not given');
  return l10n.t('{0} (as the portal sent it)', s.contentContext);
}

function guestRow({ share: s, what, group }: PlacedShare, n: number) {
  const mask = s.permission;
  return {
    key: `g:${n}`,
    kind: 'guest' as const,
    email: s.email ?? '',
    what,
    permission: contentRightsWords(mask),
    canEdit: mask !== null && Number.isSafeInteger(mask) && mask > 0 && (mask & EDIT_BITS) !== 0,
    power: false,
    created: s.dateCreated ?? -1,
    expires: s.dateExpire ?? -1,
    password: s.passwordEnabled === null ? (-1 as const) : s.passwordEnabled ? (1 as const) : (0 as const),
    groups: group ? [group] : [],
  };
}

function invitedRow(i: Invitation, n: number, groups: ReadonlyMap<number, OutsiderGroup>): OutsiderRow {
  const p = i.parameters;
  const granted = (p?.groups ?? []).map((g) => ({
    group: groups.get(Number(g.groupId)),
    id: g.groupId,
    level: g.permission,
  }));
  const what = p
    ? granted
        .map((g) => l10n.t('{0}: {1}', g.group?.label ?? l10n.t('group {0}', g.id), groupPermissionWords(g.level)))
        .join('; ') || l10n.t('no group')
    : l10n.t('{0} (as the portal sent it, not understood)', i.parametersAsSent ?? '');
  return {
    key: `i:${i.id ?? n}`,
    kind: 'invited',
    email: i.targetName ?? '',
    what,
    permission: p ? accountPermissionWords(p.mask) : l10n.t('not understood'),
    canEdit: false,
    power: p
      ? holdsPower(
          p.mask,
          granted.map((g) => (g.level === 16 ? 16 : g.level === 4 ? 4 : 1)),
        )
      : false,
    created: i.dateCreated ?? -1,
    expires: -1,
    password: -1,
    groups: granted.flatMap((g) => (g.group ? [g.group.name] : [])),
  };
}

/** A guest share as the organisation holds it: what it shares, named as the matrix names it, and its group. */
export interface PlacedShare {
  readonly share: GuestShare;
  /** The group's label and the record's path where one read resolved it; else contentContext as sent, said so. */
  readonly what: string;
  /** The unique name of the share's group, when the portal placed it. */
  readonly group: string | undefined;
  /** The shared record's path in its group ("Folder/name"), where one read resolved it. */
  readonly path: string | undefined;
}

/**
 * The organisation's guest shares, placed: a share placed in a group of another organisation is left out (counted in
 * `elsewhere`); one the portal does not place is kept, since leaving a guest out of an access review is the worse
 * mistake. The matrix, its CSV and the access review all read shares through this.
 */
export function placedShares(record: OutsidersRecord | undefined): { shares: PlacedShare[]; elsewhere: number } {
  if (!record || typeof record.shares === 'string') return { shares: [], elsewhere: 0 };
  const groups = new Map(record.groups.map((g) => [g.id, g]));
  const shares: PlacedShare[] = [];
  let elsewhere = 0;
  for (const s of record.shares) {
    const group = shareGroup(s, groups);
    if (s.place && !group && groups.size > 0) {
      elsewhere++;
      continue;
    }
    const id = s.place?.recordId;
    const path = id !== null && id !== undefined ? record.paths[String(id)] : undefined;
    shares.push({ share: s, what: shareWhat(s, group, record.paths), group: group?.name, path });
  }
  return { shares, elsewhere };
}

/**
 * The rows of a read: the organisation's guest shares (a share placed in a group of another organisation is left
 * out; one the portal does not place is kept, since leaving a guest out of an access review is the worse mistake)
 * and its pending invitations.
 */
export function outsiderRows(record: OutsidersRecord | undefined): { rows: OutsiderRow[]; elsewhere: number } {
  if (!record) return { rows: [], elsewhere: 0 };
  const groups = new Map(record.groups.map((g) => [g.id, g]));
  const { shares, elsewhere } = placedShares(record);
  const rows: OutsiderRow[] = shares.map(guestRow);
  if (typeof record.invitations !== 'string')
    for (const [n, i] of record.invitations.entries()) if (i.pending) rows.push(invitedRow(i, n, groups));
  return { rows, elsewhere };
}

export function outsidersMessage(
  outsiders: OutsidersRecord | undefined,
  signIns: SignInRecord | undefined,
): OutsidersMessage {
  const { rows, elsewhere } = outsiderRows(outsiders);
  const refused = typeof outsiders?.shares === 'string' ? outsiders.shares : undefined;
  if (
    refused !== undefined &&
    outsiders?.invitations === refused &&
    signIns?.kind === 'refused' &&
    signIns.reason === refused
  ) {
    // One portal that refuses all three is one sentence.
    const note = l10n.t(
      'Guests, invitations and sign-ins are not shown: {0}; last active is shown instead.',
      refusalWords(refused),
    );
    return { rows, note, signIns: signInWire(signIns) };
  }
  const notes = [
    outsidersNote(outsiders),
    elsewhere > 0 ? l10n.t('{0} guest shares of other organisations are left out.', elsewhere) : '',
    signInNote(signIns),
  ];
  return { rows, note: notes.filter((n) => n !== '').join(' '), signIns: signInWire(signIns) };
}
