/**
 * Who Can Reach This… on a folder or file row: the group's members with their level (from the access store, read
 * within the request budget and asked first when long), the record's content rights as the portal states them, and
 * the guests whose share names this record. Shown as a read-only quick pick, as Show Guests is: every row is
 * searchable by name or address, the portal's text goes through plain() and a pick never renders markup, and no
 * panel is left behind.
 *
 * Which record a guest share is of is not observed (its `contentContext` has no documented shape), so a share counts
 * only when what the portal sent names the record's id under an id field, and the pick says that is how it was told;
 * shares that name no record are counted, not guessed at.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { GuestShare, Offered } from '../../api/index';
import { jsonOrUndefined } from '../../api/models/read';
import { cellOf, LEVEL_PERMISSIONS, ROW } from '../../shared/accessRow';
import { contentRightsWords, sharingWords } from '../../shared/contentRights';
import { errorMessage } from '../../shared/errors';
import { count, shortDate } from '../../shared/format';
import { groupPermissionWords } from '../../shared/permissions';
import { plain } from '../../shared/plainText';
import type { FileRef } from '../../shared/refs';
import { fileFor } from '../../targets/resolve';
import type { Run } from '../../ui/commands';
import type { PickItem, Ui } from '../../ui/ui';
import type { AccessHandle } from '../contracts';
import { FileNode } from './tree/nodes';
import { cancellableProgress } from '../../ui/cancellableProgress';

/** A row of the pick, its text kept as its value: choosing one changes nothing. */
export interface ReachRowValue {
  readonly kind: 'heading' | 'rights' | 'member' | 'guest';
  readonly label: string;
  readonly description: string;
  readonly detail: string;
}

type Row = PickItem<ReachRowValue>;

function row(kind: ReachRowValue['kind'], icon: string, label: string, description: string, detail = ''): Row {
  return { icon, label, description, ...(detail ? { detail } : {}), value: { kind, label, description, detail } };
}

/** A read longer than this is asked first. */
const ASK_ABOVE_MS = 5_000;

export interface WhoCanReachDeps {
  readonly registry: PortalRegistry;
  /** The members feature's access store (made after the Explorer, so read when the command runs). */
  readonly access: () => AccessHandle | undefined;
}

/** Whether what the portal sent as a share's contentContext names this record's id under an id field. */
export function shareNames(contentContext: string | null, fileId: number): boolean {
  if (contentContext === null) return false;
  const parsed = jsonOrUndefined(contentContext);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  return Object.entries(parsed).some(
    ([key, value]) => /^(id|objectId|fileId)$/i.test(key) && (value === fileId || value === String(fileId)),
  );
}

/** The record's sharing and member permission: from its row as listed, else read (a portal may not offer that). */
async function rightsOf(
  run: Run,
  deps: WhoCanReachDeps,
  file: FileRef,
): Promise<{ sharing: string | null; memberPermission: number | null } | string> {
  if (run.node instanceof FileNode && run.node.ref.fileId === file.fileId) return run.node.row;
  try {
    const client = deps.registry.client(file.group.account.portalId);
    return await client.v2.files.get(file.group.account.accountId, file.group.groupId, file.fileId);
  } catch (error) {
    return errorMessage(error);
  }
}

function rightsRows(file: FileRef, rights: Awaited<ReturnType<typeof rightsOf>>): Row[] {
  if (typeof rights === 'string')
    return [row('rights', 'shield', vscode.l10n.t('Member permission: not known'), plain(rights))];
  return [
    row(
      'rights',
      'shield',
      vscode.l10n.t('Member permission: {0}', contentRightsWords(rights.memberPermission)),
      vscode.l10n.t(
        'Shared with: {0}',
        sharingWords(rights.sharing, (v) => plain(v)),
      ),
      vscode.l10n.t('{0}, as the portal states it', plain(file.name)),
    ),
  ];
}

const notRead = (groupLabel: string): Row[] => [
  row('heading', 'circle-slash', vscode.l10n.t('Members of {0}', groupLabel), vscode.l10n.t('not read')),
];

/** Reads what the access store lacks or holds stale (asked first when long); false when declined or cancelled. */
async function storeRead(ui: Ui, access: AccessHandle, file: FileRef, groupLabel: string): Promise<boolean> {
  const account = file.group.account;
  const cost = await access.cost(account, true);
  if (cost.reads + cost.pages === 0) return true;
  const go =
    cost.etaMs <= ASK_ABOVE_MS ||
    (await ui.confirm({
      id: 'whoCanReach.read',
      message: vscode.l10n.t('Read who is in {0}?', groupLabel),
      detail: vscode.l10n.t(
        'The portal tells a member’s groups one member at a time: {0} reads and {1} list pages, {2} within the request budget. What is read is kept for the access matrix.',
        count(cost.reads),
        count(cost.pages),
        cost.etaWords,
      ),
      action: vscode.l10n.t('Read'),
    }));
  if (!go) return false;
  const outcome = await cancellableProgress(
    ui,
    'whoCanReach.progress',
    vscode.l10n.t('Reading who is in {0}…', groupLabel),
    (_p, signal) => access.refresh(account, signal),
  );
  return outcome === 'done';
}

/** The group's members and their levels, from the access store once it holds them fresh. */
async function membersRows(ui: Ui, deps: WhoCanReachDeps, file: FileRef): Promise<Row[]> {
  const access = deps.access();
  const account = file.group.account;
  const groupLabel = plain(file.group.label);
  if (!access || !(await storeRead(ui, access, file, groupLabel))) return notRead(groupLabel);
  const view = access.view(account);
  const client = deps.registry.client(account.portalId);
  const column = view.columnOf((await client.v2.groups.get(account.accountId, file.group.groupId)).name);
  const members: Row[] = [];
  if (column !== undefined)
    for (const r of view.all()) {
      // The store keeps a level's code (1 to 3), not the portal's permission.
      const level = LEVEL_PERMISSIONS[cellOf(r, column)] ?? 0;
      const name = plain(r[ROW.name] || r[ROW.username]);
      if (level > 0) members.push(row('member', 'person', name, groupPermissionWords(level), plain(r[ROW.username])));
    }
  members.sort((a, b) => a.label.localeCompare(b.label));
  return [
    row(
      'heading',
      'organization',
      vscode.l10n.t('Members of {0} ({1})', groupLabel, count(members.length)),
      view.listedAt > 0 ? vscode.l10n.t('with their level in the group; read {0}', shortDate(view.listedAt)) : '',
    ),
    ...members,
  ];
}

function guestRows(shares: Offered<GuestShare[]>, file: FileRef, now: number): Row[] {
  const heading = vscode.l10n.t('Guests with a share of it');
  if (shares.kind === 'not-offered')
    return [
      row(
        'heading',
        'circle-slash',
        heading,
        shares.reason === 'absent'
          ? vscode.l10n.t('this portal does not offer guest shares')
          : vscode.l10n.t('your sign-in lacks the capability for guest shares'),
      ),
    ];
  const of = shares.value.filter((s) => shareNames(s.contentContext, file.fileId));
  const unnamed = shares.value.filter((s) => !/"(id|objectId|fileId)"\s*:/i.test(s.contentContext ?? '')).length;
  return [
    row(
      'heading',
      'person',
      vscode.l10n.t('{0} ({1})', heading, count(of.length)),
      vscode.l10n.t(
        'told by the record’s id ({0}) in what the portal sent as contentContext, whose shape is not documented',
        file.fileId,
      ),
      unnamed > 0 ? vscode.l10n.t('{0} other shares name no record this way: not counted', count(unnamed)) : '',
    ),
    ...of.map((s) => guestRow(s, now)),
  ];
}

/** A guest's row: the address, the share's rights in words, its expiry and password (and `where`, when given). */
function guestRow(s: GuestShare, now: number, where?: string): Row {
  return row(
    'guest',
    'person',
    plain(s.email ?? vscode.l10n.t('(no e-mail given)')),
    contentRightsWords(s.permission),
    [
      ...(where !== undefined ? [where] : []),
      s.dateExpire === null
        ? vscode.l10n.t('no expiry date')
        : s.dateExpire < now
          ? vscode.l10n.t('expired {0}', shortDate(s.dateExpire))
          : vscode.l10n.t('expires {0}', shortDate(s.dateExpire)),
      s.passwordEnabled === null
        ? vscode.l10n.t('password: not given')
        : s.passwordEnabled
          ? vscode.l10n.t('password set')
          : vscode.l10n.t('no password'),
    ].join(' · '),
  );
}

/**
 * What the paths of the records inside a folder start with, as the access store names records ("docs/", by the
 * folder's name or its friendly name: a child's path names its folders one way or the other). One read of the folder.
 */
async function folderPrefixes(deps: WhoCanReachDeps, file: FileRef): Promise<string[]> {
  const { account, groupId } = file.group;
  const r = await deps.registry.client(account.portalId).v2.files.get(account.accountId, groupId, file.fileId);
  const above = r.path.map((p) => p.name).filter((n) => n !== '');
  return [...new Set([r.name, r.friendlyName].filter((n) => n !== ''))].map((n) => `${[...above, n].join('/')}/`);
}

/**
 * On a folder: the guests holding a share of a file inside it, from the shares the access store read (within the
 * budget, kept), placed by the group and record their context names, each said "in <file path>". A share whose
 * record's path was not read cannot be placed in a folder: counted, not guessed at.
 */
async function insideRows(deps: WhoCanReachDeps, file: FileRef, now: number): Promise<Row[]> {
  const access = deps.access();
  if (!file.isFolder || !access) return [];
  const heading = vscode.l10n.t('Guests with a share of a file in it');
  let read;
  let prefixes: string[] = [];
  try {
    read = await access.placedOutsiders(file.group.account, new AbortController().signal);
    // Refused: the heading of the folder's own shares says so already.
    if (typeof read.shares === 'string') return [];
    if (read.shares.some((p) => p.share.place?.groupId === file.group.groupId && p.path !== undefined))
      prefixes = await folderPrefixes(deps, file);
  } catch (error) {
    return [row('heading', 'circle-slash', heading, plain(errorMessage(error)))];
  }
  const inGroup = read.shares.filter(
    (p) => p.share.place?.groupId === file.group.groupId && p.share.place.recordId !== file.fileId,
  );
  const inside = inGroup.filter((p) => prefixes.some((prefix) => p.path?.startsWith(prefix)));
  const unread = inGroup.filter((p) => p.path === undefined).length;
  return [
    row(
      'heading',
      'person',
      vscode.l10n.t('{0} ({1})', heading, count(inside.length)),
      vscode.l10n.t('from the shares the access store read {0}', shortDate(read.at)),
      unread > 0
        ? vscode.l10n.t('{0} shares in this group name a record whose path was not read: not counted', count(unread))
        : '',
    ),
    ...inside.map((p) => guestRow(p.share, now, vscode.l10n.t('in {0}', plain(p.path ?? '')))),
  ];
}

/** Every row: the record's rights, the group's members, the guests. */
export async function whoCanReachRows(run: Run, deps: WhoCanReachDeps, file: FileRef): Promise<Row[]> {
  const client = deps.registry.client(file.group.account.portalId);
  const [rights, shares] = await Promise.all([rightsOf(run, deps, file), client.observed.guestShares()]);
  const members = await membersRows(run.ui, deps, file);
  const now = Date.now();
  const inside = await insideRows(deps, file, now);
  return [...rightsRows(file, rights), ...members, ...guestRows(shares, file, now), ...inside];
}

export async function whoCanReach(run: Run, deps: WhoCanReachDeps): Promise<void> {
  const file = await fileFor(run, deps.registry, false);
  const rows = await whoCanReachRows(run, deps, file);
  // Read-only: a row chosen is only closed.
  await run.ui.pick(rows, {
    id: 'whoCanReach.list',
    title: vscode.l10n.t('Who can reach {0}', plain(file.name)),
    placeHolder: vscode.l10n.t('The group’s members, the member permission and the guests: read-only'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
}
