/**
 * The rows of a new review, from what was read: the access store's members (their groups and levels, state, last
 * active: no request), the guest shares and the pending invitations (observed endpoints). Each row keeps its access in
 * words as read, and the facts a filter looks at. Server text stays as sent here; whoever shows it makes it plain.
 * No VS Code here (the words are @vscode/l10n's), so the unit tier builds rows from a real store.
 */
import { createHash } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import { guestShareKey, invitationKey, type GuestShare, type Invitation } from '../../../api/index';
import { contentRightsWords } from '../../../shared/contentRights';
import { accountPermissionWords, groupPermissionWords } from '../../../shared/permissions';
import { LEVEL_PERMISSIONS, ROW, rowStateWords, type AccessRow } from '../../../shared/accessRow';
import type { AccessView, PlacedGuestShare } from '../../contracts';
import type { ReviewRow } from './review.protocol';

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 20);

/** calendarDate's words, from one formatter: made per row, the formatter was most of a 20,000-row review's opening. */
let days: Intl.DateTimeFormat | undefined;
const dayOr = (ms: number | null | undefined, none: string): string => {
  if (ms === null || ms === undefined || ms < 0) return none;
  days ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return days.format(ms);
};
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Group name → permission, for the groups the member was read in. */
function levelsOf(row: AccessRow, view: AccessView): Record<string, number> {
  const out: Record<string, number> = {};
  const cells = row[ROW.cells];
  for (let i = 0; i + 1 < cells.length; i += 2) {
    const name = view.columns[cells[i] ?? -1];
    const permission = LEVEL_PERMISSIONS[cells[i + 1] ?? 0] ?? 0;
    if (name !== undefined && permission > 0) out[name] = permission;
  }
  return out;
}

/** Words made once per value, not once per row: a review of 20,000 members says "Engineering: Standard" often. */
function memo<K, V>(make: (key: K) => V): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    let v = known.get(key);
    if (v === undefined) {
      v = make(key);
      known.set(key, v);
    }
    return v;
  };
}

/** "Organisation: Member; Engineering: Standard; Marketing: Basic" (the scoped group first). */
function accessWords(label: (name: string) => string, scope: string | undefined) {
  const cell = memo((key: string) => {
    const [name = '', permission = '0'] = key.split('\n');
    return l10n.t('{0}: {1}', label(name), groupPermissionWords(Number(permission)));
  });
  const organisation = memo((permission: number) => l10n.t('Organisation: {0}', accountPermissionWords(permission)));
  const sortKey = memo(label);
  return (row: AccessRow, levels: Record<string, number>): string => {
    if (row[ROW.readAt] <= 0) return l10n.t('groups not read');
    const names = Object.keys(levels).sort((a, b) =>
      a === scope ? -1 : b === scope ? 1 : collator.compare(sortKey(a), sortKey(b)),
    );
    return [organisation(row[ROW.permission]), ...names.map((n) => cell(`${n}\n${levels[n]}`))].join('; ');
  };
}

function memberDetail(row: AccessRow, never: string): string {
  return l10n.t('{0}; last active {1}', rowStateWords(row), dayOr(row[ROW.lastActive], never));
}

/**
 * One row per member of the store (in the scoped group only, when `scope` names one). `label` names a group as
 * people know it.
 */
export function memberRows(view: AccessView, scope: string | undefined, label: (name: string) => string): ReviewRow[] {
  const out: ReviewRow[] = [];
  const access = accessWords(label, scope);
  const never = l10n.t('never');
  for (const row of view.all()) {
    const levels = levelsOf(row, view);
    if (scope !== undefined && levels[scope] === undefined) continue;
    out.push({
      key: `m:${row[ROW.username].toLowerCase()}`,
      kind: 'member',
      identity: row[ROW.username],
      name: row[ROW.name],
      access: access(row, levels),
      detail: memberDetail(row, never),
      readAt: row[ROW.readAt],
      flags: row[ROW.flags],
      lastActive: row[ROW.lastActive],
      levels,
      permission: row[ROW.permission],
    });
  }
  return out.sort((a, b) => collator.compare(a.name, b.name) || collator.compare(a.identity, b.identity));
}

function shareDetail(s: GuestShare, now: number): string {
  const expiry =
    s.dateExpire === null
      ? l10n.t('no expiry date')
      : s.dateExpire < now
        ? l10n.t('expired {0}', dayOr(s.dateExpire, ''))
        : l10n.t('expires {0}', dayOr(s.dateExpire, ''));
  const password =
    s.passwordEnabled === null
      ? l10n.t('password: not given')
      : s.passwordEnabled
        ? l10n.t('password set')
        : l10n.t('no password');
  return [l10n.t('created {0}', dayOr(s.dateCreated, l10n.t('not given'))), expiry, password].join('; ');
}

/**
 * One row per guest share, placed as the access matrix places it (what it shares in the matrix's own words, so both
 * say the same); several shares of one guest stay several rows (each is its own access).
 */
export function guestRows(shares: readonly PlacedGuestShare[], readAt: number): ReviewRow[] {
  const seen = new Map<string, number>();
  return shares.map(({ share: s, what: shared }) => {
    const base = `g:${digest(guestShareKey(s))}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const what = l10n.t('shared: {0}', shared);
    return {
      key: n === 1 ? base : `${base}.${n}`,
      kind: 'guest' as const,
      identity: s.email ?? '',
      name: '',
      access: `${contentRightsWords(s.permission)}; ${what}`,
      detail: shareDetail(s, readAt),
      readAt,
      permission: s.permission,
      created: s.dateCreated,
      expires: s.dateExpire,
      password: s.passwordEnabled,
    };
  });
}

function invitationAccess(i: Invitation, groupName: (id: string) => string): string {
  if (!i.parameters) return l10n.t('{0} (as the portal sent it, not understood)', i.parametersAsSent ?? '');
  const groups = i.parameters.groups.map((g) =>
    l10n.t('{0}: {1}', groupName(g.groupId), groupPermissionWords(g.permission)),
  );
  return [l10n.t('Organisation: {0}', accountPermissionWords(i.parameters.mask)), ...groups].join('; ');
}

/** One row per pending invitation (`request.status` NONE); the others are no access to review. */
export function invitationRows(
  invitations: readonly Invitation[],
  readAt: number,
  groupName: (id: string) => string,
): ReviewRow[] {
  return invitations
    .filter((i) => i.pending)
    .map((i) => ({
      key: `i:${digest(invitationKey(i))}`,
      kind: 'invitation' as const,
      identity: i.targetName ?? '',
      name: '',
      access: invitationAccess(i, groupName),
      detail: l10n.t('sent {0}', dayOr(i.dateCreated, l10n.t('not given'))),
      readAt,
      created: i.dateCreated,
    }));
}
